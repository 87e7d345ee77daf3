// Today's fixes, as a person meets them: an ACP agent that withdraws the question it asked (the
// question closes, the worker no longer needs input, its pick goes away); an emptied plan in words
// and a call's object argument on its one line; a question the person's
// Stop ended says the worker was stopped; a past session whose question's answer never reached the
// history (a host that went down) reads "answer not in view", with no Answer…, and its call "end not
// in view", not spinning; a worker that exits on its own is said to have exited, not to have been
// stopped; and a demo turn that ends with a question, answered, is notified as ended once.
// Saves todays-fixes-*.png (under $RPC_WORKERS_SCREENSHOTS, or docs/screenshots).
import { readFileSync, readdirSync, writeFileSync, mkdtempSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { repoRoot } from '../lib/paths.mjs';
import { launchWorkbench, clickActivityBar, runCommand, screenshot, runScenario, webviewFrame, openPalette, QUICK_INPUT, quickInputClosed } from '../ui-driver.mjs';
import { promptFromPalette, sessionsRow, settleToast, startProfile, widenSideBar } from './lib/demo.mjs';

const ACP = 'Withdrawing agent (fake)';
const TAU = 'Quitting worker (fake)';
const fail = (what) => { throw new Error(what); };

export default async function todaysFixes({ port } = {}) {
  const fixtures = path.join(repoRoot, 'test', 'fixtures');
  const wb = await launchWorkbench({
    port,
    settings: {
      'rpcWorkers.profiles': [
        { name: ACP, dialect: 'acp', command: process.execPath, args: [path.join(fixtures, 'fake-acp-agent.mjs')] },
        { name: TAU, dialect: 'tau', command: process.execPath, args: [path.join(fixtures, 'fake-worker.mjs'), '--dialect', 'tau'] },
      ],
    },
  });
  const { page } = wb;
  try {
    await clickActivityBar(page, 'RPC Workers');
    await widenSideBar(page, 560);
    await startProfile(page, ACP);
    await sessionsRow(page, ACP).waitFor({ state: 'visible' });
    const log = await webviewFrame(page, 'Event Log');
    await withdrawnQuestion(page, log);
    await planAndBrief(page, log);
    await unseenAnswer(page, log, wb.sandbox.userDataDir);
    await exitedOnItsOwn(page);
    await oneTurnEnd(page);
  } finally {
    await wb.close();
  }
}

/** The agent withdraws the question it asked: the log closes it, nothing says the worker waits. */
async function withdrawnQuestion(page, log) {
  const go = path.join(mkdtempSync(path.join(tmpdir(), 'todays-fixes-')), 'withdraw');
  await promptFromPalette(page, `withdrawn question when ${go}`, ACP, { next: 'asks:' });
  await log.locator('.kind-question.question-open', { hasText: 'make deploy' }).waitFor({ state: 'visible' });
  await sessionsRow(page, 'needs input').waitFor({ state: 'visible' });
  const statusNeeds = page.locator('.statusbar-item', { hasText: 'needs input' });
  await statusNeeds.first().waitFor({ state: 'visible' });
  await screenshot(page, 'todays-fixes-question-asked', { moveMouse: false });
  writeFileSync(go, '');
  await log.locator('.kind-question', { hasText: 'the agent withdrew the question' }).waitFor({ state: 'visible' });
  await quickInputClosed(page);
  await log.getByText(/withdrawn answer:/).waitFor({ state: 'visible' });
  await sessionsRow(page, ACP).filter({ hasNotText: 'needs input' }).waitFor({ state: 'visible' });
  await statusNeeds.first().waitFor({ state: 'hidden' });
  if (await log.locator('.kind-question .answer-question').count()) fail('the withdrawn question still offers Answer…');
  if (await page.locator('.notification-toast', { hasText: 'waits for your answer' }).count()) fail('a notification still says the worker waits');
  await screenshot(page, 'todays-fixes-question-withdrawn');
}

/** An agent's plan, then an emptied one, and a tool call whose argument is an object: each on its lines, in words. */
async function planAndBrief(page, log) {
  await promptFromPalette(page, 'plan', ACP);
  await log.locator('.kind-plan', { hasText: 'Plan: 1 of 3 done' }).waitFor({ state: 'visible' });
  await promptFromPalette(page, 'plan none', ACP);
  const empty = log.locator('.kind-plan', { hasText: 'Plan: no steps' });
  await empty.waitFor({ state: 'visible' });
  if (await empty.locator('li').count()) fail('the empty plan draws a list');
  await promptFromPalette(page, 'other as Configure: {"options":{"depth":2,"paths":["src","test"]}}', ACP, { next: 'asks:' });
  // The first answer, "Allow" (a string would match "Always allow" too, case aside).
  const allow = page.locator(`${QUICK_INPUT} .quick-input-list .monaco-list-row`).first();
  await allow.waitFor({ state: 'visible' });
  await allow.click();
  await quickInputClosed(page);
  const call = log.locator('.kind-tool', { hasText: 'Configure' }).last();
  await call.waitFor({ state: 'visible' });
  const brief = await call.locator('.args-brief').innerText();
  if (/\n/.test(brief) || !brief.includes('{"depth":2,"paths":["src","test"]}')) fail(`the call's brief reads "${brief}"`);
  await screenshot(page, 'todays-fixes-plan-and-brief');
}

/**
 * A question left open, the worker stopped, and the answer and the end never written (the
 * history cut after the question, as a host that went down leaves it): its past log does not
 * say it waits.
 */
async function unseenAnswer(page, log, userDataDir) {
  await sessionsRow(page, ACP).click();
  await promptFromPalette(page, 'shell: echo never answered', ACP, { next: 'asks:' });
  await log.locator('.kind-question.question-open', { hasText: 'echo never answered' }).waitFor({ state: 'visible' });
  await page.keyboard.press('Escape');
  await quickInputClosed(page);
  await runCommand(page, 'RPC Workers: Stop All Workers');
  await sessionsRow(page, /^Past sessions/).waitFor({ state: 'visible' });
  // The Stop ended the question: the log and the notification's Answer… say so, in the Stop's words.
  await log.locator('.kind-question', { hasText: 'echo never answered' }).filter({ hasText: 'the worker was stopped' }).waitFor({ state: 'visible' });
  const aside = page.locator('.notification-toast', { hasText: 'waits for your answer: Run `echo never answered`' }).first();
  await aside.getByRole('button', { name: 'Answer…' }).click();
  const moot = page.locator('.notification-toast', { hasText: 'No answer needed: the worker was stopped' }).first();
  await moot.waitFor({ state: 'visible' });
  await settleToast(moot);
  await screenshot(page, 'todays-fixes-stopped-question', { moveMouse: false });
  await runCommand(page, 'Notifications: Clear All Notifications');
  const session = await waitFor(() => endedSession(userDataDir), 'the stopped session\'s end never reached the history');
  cutAfterLastQuestion(session);
  await expandPast(page);
  const past = sessionsRow(page, /stopped · \d+ turns/);
  await past.click();
  const pastLog = await webviewFrame(page, /past session/);
  const row = pastLog.locator('.kind-question', { hasText: 'echo never answered' });
  await row.waitFor({ state: 'visible' });
  const text = await row.innerText();
  if (!/Asked:[\s\S]*answer not in view/.test(text)) fail(`the past question reads "${text}"`);
  if (/waiting for you|undefined|null/.test(text)) fail(`the past question reads "${text}"`);
  if (await row.locator('.answer-question').count()) fail('the past question offers Answer…');
  // Nor does its command spin "running…": nothing runs in a past session.
  const call = pastLog.locator('.kind-tool', { hasText: 'echo never answered' });
  await call.filter({ hasText: 'end not in view' }).waitFor({ state: 'visible' });
  if (await call.locator('.codicon-modifier-spin').count()) fail('the past session\'s call spins');
  await screenshot(page, 'todays-fixes-past-unseen-answer');
  await page.keyboard.press('Control+W');
}

/** A worker that exits by itself: its tab, row and tooltip say it exited, not that it was stopped. */
async function exitedOnItsOwn(page) {
  await startProfile(page, TAU);
  await sessionsRow(page, TAU).waitFor({ state: 'visible' });
  await logTab(page, TAU);
  await sessionsRow(page, TAU).click();
  await promptFromPalette(page, 'exit 0', TAU);
  const tab = page.locator('.tab', { hasText: `${TAU} · exited` });
  await tab.waitFor({ state: 'visible' });
  const row = sessionsRow(page, TAU);
  await row.filter({ hasText: /exited/ }).waitFor({ state: 'visible' });
  const rowText = await row.innerText();
  if (/stopped|undefined|null/.test(rowText)) fail(`the exited worker's row reads "${rowText}"`);
  // As a person does when no hover comes (the row redrawn under the pointer): off it and on again.
  const hover = page.locator('.monaco-hover, .workbench-hover').filter({ hasText: TAU }).first();
  for (let attempt = 1; ; attempt++) {
    await page.mouse.move(0, 0);
    await row.locator('.label-name').first().hover();
    const shown = await hover.waitFor({ state: 'visible', timeout: 10_000 }).then(() => true, (e) => {
      if (attempt === 3) throw e;
      return false;
    });
    if (shown) break;
  }
  await screenshot(page, 'todays-fixes-exited', { moveMouse: false });
  const tip = (await hover.innerText()).replace(/\s+/g, ' ');
  if (!/exited on its own/.test(tip) || /stopped|undefined|null/.test(tip)) fail(`the exited worker's tooltip reads "${tip}"`);
  await page.mouse.move(900, 600);
}

/**
 * A demo turn that ends with a question, then the answer, while the person looks elsewhere (the
 * side bar shut, another worker's log in front): one "turn ended" notification, not two.
 */
async function oneTurnEnd(page) {
  await runCommand(page, 'RPC Workers: Start Demo Worker');
  await sessionsRow(page, 'Demo worker').waitFor({ state: 'visible' });
  await runCommand(page, 'Notifications: Clear All Notifications');
  await runCommand(page, 'View: Close Primary Side Bar');
  await promptFromPalette(page, 'ask: Ship it?', 'Demo worker');
  const approve = page.locator(`${QUICK_INPUT} .quick-input-list .monaco-list-row`, { hasText: 'Approve' }).first();
  await approve.waitFor({ state: 'visible' });
  const ended = page.locator('.notification-toast', { hasText: /Demo worker.*turn ended/ });
  await ended.first().waitFor({ state: 'visible' });
  await screenshot(page, 'todays-fixes-demo-question', { moveMouse: false });
  await approve.click();
  await quickInputClosed(page);
  const needs = page.locator('.statusbar-item', { hasText: 'needs input' });
  await needs.first().waitFor({ state: 'hidden' });
  await settleToast(ended.first());
  await screenshot(page, 'todays-fixes-demo-answered', { moveMouse: false });
  // Every notification, in the center, so a second toast behind the first is counted too.
  await runCommand(page, 'Notifications: Show Notifications');
  const center = page.locator('.notifications-center .notification-list-item', { hasText: /turn ended/ });
  await center.first().waitFor({ state: 'visible' });
  const n = await center.count();
  await screenshot(page, 'todays-fixes-notifications', { moveMouse: false });
  if (n !== 1) fail(`${n} "turn ended" notifications for one turn: ${(await center.allInnerTexts()).join(' | ')}`);
}

/** Open Log in Editor Tab from the worker's row: it opens at once, or asks which worker. */
async function logTab(page, worker) {
  await sessionsRow(page, worker).click();
  await openPalette(page);
  const widget = page.locator(QUICK_INPUT);
  const input = widget.locator('.quick-input-box input');
  await input.fill('>RPC Workers: Open Log in Editor Tab');
  await widget.locator('.quick-input-list .monaco-list-row.focused .label-name').filter({ hasText: /^RPC Workers: Open Log in Editor Tab$/ }).waitFor({ state: 'visible' });
  await input.press('Enter');
  const tab = page.locator('.tab', { hasText: `${worker} ·` });
  const pick = widget.locator('.quick-input-list .monaco-list-row', { hasText: worker }).first();
  await tab.or(pick).first().waitFor({ state: 'visible' });
  if (await pick.isVisible()) await pick.click();
  await tab.waitFor({ state: 'visible' });
}

async function expandPast(page) {
  const group = sessionsRow(page, /^Past sessions/);
  if ((await group.getAttribute('aria-expanded')) === 'false') await group.locator('.monaco-tl-twistie').click();
}

async function waitFor(get, why) {
  for (let i = 0; i < 100; i++) {
    const v = get();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(why);
}

/** The one ended session in the sandbox's history: its events file. */
function endedSession(root) {
  const found = [];
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (!e.isDirectory()) continue;
      const p = path.join(d, e.name);
      if (e.name === 'history') {
        for (const f of readdirSync(p).filter((n) => n.endsWith('.meta.json'))) {
          const meta = JSON.parse(readFileSync(path.join(p, f), 'utf8'));
          if (meta.ended && existsSync(path.join(p, `${meta.id}.jsonl`))) found.push(path.join(p, `${meta.id}.jsonl`));
        }
      } else walk(p);
    }
  };
  walk(root);
  return found.length === 1 ? found[0] : null;
}

/** Keeps the events up to the last question asked: its answer, the Stop and the exit never written. */
function cutAfterLastQuestion(file) {
  const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  const at = lines.findLastIndex((l) => JSON.parse(l).type === 'permission_request');
  if (at < 0) fail('the session holds no question');
  writeFileSync(file, lines.slice(0, at + 1).join('\n') + '\n');
}

await runScenario(import.meta.url, todaysFixes);
