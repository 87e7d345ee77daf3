#!/usr/bin/env node
// Drives the real workbench (code-server + headless Chromium) as a person would, and saves what
// it shows as PNG screenshots (1280x800). Every wait is on an event or a selector, with a
// timeout; there are no fixed sleeps.
//
// Module:
//   const wb = await launchWorkbench({ workspace?, port?, settings?, extensionDevelopmentPath?, codeServer? })
//                                           codeServer: 'current' (default: today's VS Code, what
//                                           people see), 'floor', or a version; or RPC_WORKERS_CODE_SERVER
//   wb.page                                 the playwright Page of the workbench
//   await runCommand(wb.page, 'RPC Workers: Show Event Log')   F1, type, pick that exact entry
//   const input = await openPalette(wb.page)                   F1 once any quick input has shut
//   wb.page.locator(QUICK_INPUT)                               the quick input while open (not closing)
//   await quickInputClosed(wb.page)                            the quick input shut, its closing done
//   await clickActivityBar(wb.page, 'RPC Workers')             open a view container
//   await clickTreeItem(wb.page, 'label')                      click a tree row by its label
//   const wv = await webviewFrame(wb.page, 'Event Log')        a webview's content (FrameLocator)
//   await typeInto(wv, 'textarea', 'hello')                    click and type like a person
//   await waitForText(wv, 'hello')                             wait until text shows
//   await screenshot(wb.page, 'name')                          docs/screenshots/name.png ($RPC_WORKERS_SCREENSHOTS)
//   await wb.close()                                           stops browser and code-server
//
// CLI: node scripts/ui-driver.mjs [scenario ...] [--port N] [--no-build] [--list]
//      (npm run ui -- activity-bar). Scenarios live in scripts/ui-scenarios/<name>.mjs and export
//      a default async function({ port }); with no names, every scenario runs.
import { cpSync, mkdirSync, readdirSync, existsSync, readFileSync } from 'node:fs';
import { join, isAbsolute, dirname, basename } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { repoRoot, isMain } from './lib/paths.mjs';
import { buildExtension } from './lib/build.mjs';
import { cleanup } from './lib/proc.mjs';
import { makeSandbox, startCodeServer, launchBrowser, workbenchUrl, workbenchContext, SAMPLE_WORKSPACE } from './lib/code-server.mjs';
import { formatAutomationLog } from './run-host-tests.mjs';
import { CODE_SERVERS, resolveCodeServerVersion } from './ensure-code-server.mjs';

/**
 * The extension as an installed copy in the profile's extensions dir (what the workbench scans at
 * start): the files the .vsix carries. Used where the URL payload's extensionDevelopmentPath is
 * read only with the smoke-test driver on (VS Code 1.139), because that driver also keeps every
 * notification from showing as a toast (NotificationsToasts.addToast), and a person sees toasts.
 */
function installCopy(extensionDir, extensionsDir) {
  const manifest = JSON.parse(readFileSync(join(extensionDir, 'package.json'), 'utf8'));
  const dst = join(extensionsDir, `${manifest.publisher}.${manifest.name}-${manifest.version}`);
  mkdirSync(dst, { recursive: true });
  for (const f of ['package.json', 'dist', 'media', 'README.md', 'CHANGELOG.md', 'LICENSE']) {
    if (existsSync(join(extensionDir, f))) cpSync(join(extensionDir, f), join(dst, f), { recursive: true });
  }
  return dst;
}

export const VIEWPORT = { width: 1280, height: 800 };
/**
 * The quick input (palette, QuickPick, InputBox) while it is open. VS Code 1.139 keeps a closing
 * widget on screen for a moment, inert, with the class quick-input-widget-closing: a helper that
 * took it for open typed into it and timed out (the self-test and walkthrough flakes).
 */
export const QUICK_INPUT = '.quick-input-widget:not(.quick-input-widget-closing)';

/**
 * Resolves once the quick input is shut, its closing done: F1 pressed while it was still closing
 * opened a palette that the end of the closing then hid (fill: "element is not visible").
 */
export async function quickInputClosed(page, { timeout = DEFAULT_TIMEOUT } = {}) {
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout });
}
/** docs/screenshots, or $RPC_WORKERS_SCREENSHOTS (the test suite's run keeps the docs' pictures as they are). */
export const SCREENSHOT_DIR = process.env.RPC_WORKERS_SCREENSHOTS || join(repoRoot, 'docs', 'screenshots');
const SCENARIO_DIR = join(repoRoot, 'scripts', 'ui-scenarios');
const DEFAULT_TIMEOUT = 30_000;
const FAILURE_DIR = join(repoRoot, 'test-results');

const cssString = (s) => JSON.stringify(String(s));
const exactRe = (s) => new RegExp(`^\\s*${String(s).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);

/**
 * Start code-server with the extension under development and open the workbench in headless
 * Chromium. `workspace`: a folder to open as it is (default: a fresh copy of test/workspace).
 * `settings`: user settings on top of the throw-away defaults (workspace trust off, ...).
 * `log`: forward the extension host's console here (default: errors only; all with
 * RPC_WORKERS_VERBOSE=1).
 */
export async function launchWorkbench({
  workspace = null, port, settings = {}, extensionDevelopmentPath = repoRoot, timeout = 90_000, log, codeServer,
} = {}) {
  if (extensionDevelopmentPath && !existsSync(join(extensionDevelopmentPath, 'dist', 'extension.js'))) {
    throw new Error(`${extensionDevelopmentPath}/dist/extension.js is missing: build first (node esbuild.mjs)`);
  }
  const sandbox = makeSandbox({ settings, workspaceFrom: workspace ? null : SAMPLE_WORKSPACE, prefix: 'ui' });
  const folder = workspace ?? sandbox.workspace;
  const version = resolveCodeServerVersion(codeServer ?? process.env.RPC_WORKERS_CODE_SERVER ?? 'current');
  const asInstalled = !!extensionDevelopmentPath && CODE_SERVERS[version].payloadNeedsSmokeDriver;
  if (asInstalled) installCopy(extensionDevelopmentPath, sandbox.extensionsDir);
  let server = null;
  let browser = null;
  let page = null;
  const close = async () => {
    if (browser) await browser.close();
    if (server) await server.stop();
    sandbox.remove();
  };
  try {
    server = await startCodeServer({ sandbox, folder, port, version });
    browser = await launchBrowser();
    const context = await workbenchContext(browser, asInstalled ? null : server.codeServer, { viewport: VIEWPORT, deviceScaleFactor: 1 });
    page = await context.newPage();
    page.setDefaultTimeout(DEFAULT_TIMEOUT);
    const showAll = log ?? process.env.RPC_WORKERS_VERBOSE === '1';
    await page.exposeFunction('codeAutomationLog', (type, message) => {
      if (showAll || type === 'error') console.log(`[workbench${type === 'error' ? ':error' : ''}] ${formatAutomationLog(message)}`);
    });
    page.on('pageerror', (err) => console.error(`[workbench:page] ${err.message}`));
    const url = workbenchUrl({ origin: server.origin, folder, payload: asInstalled ? {} : { extensionDevelopmentPath } });
    await page.goto(url, { waitUntil: 'domcontentloaded' });
    await page.locator('.monaco-workbench .part.activitybar').waitFor({ timeout });
    await page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout });
    if (asInstalled) await page.locator('.part.activitybar a.action-label[aria-label^="RPC Workers"]').waitFor({ timeout });
    else if (extensionDevelopmentPath) await page.waitForFunction(() => document.title.includes('[Extension Development Host]'), null, { timeout });
    return { page, context, close, server, sandbox, url, workspace: folder };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * `launchWorkbench(options)`, run `fn(wb)`, close. When `fn` throws, the page is saved first as
 * test-results/ui-<name>-failure.png, so you can see what the workbench showed.
 */
export async function withWorkbench(options, fn, { name = 'scenario' } = {}) {
  const wb = await launchWorkbench(options);
  try {
    return await fn(wb);
  } catch (err) {
    await screenshot(wb.page, join(FAILURE_DIR, `ui-${name}-failure.png`), { moveMouse: false, idle: false }).catch(() => {});
    throw err;
  } finally {
    await wb.close();
  }
}

/**
 * Opens the command palette (once any quick input before it has shut) and returns its input box.
 * An F1 that opened nothing is pressed again, as runCommand does: in a CI run at load 15-20 one F1
 * after a tree row's click was never handled, and the box stayed hidden for 30 s.
 */
export async function openPalette(page, { timeout = DEFAULT_TIMEOUT } = {}) {
  await quickInputClosed(page, { timeout });
  const input = page.locator(`${QUICK_INPUT} .quick-input-box input`);
  const deadline = Date.now() + timeout;
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('F1');
    const opened = await input.waitFor({ state: 'visible', timeout: Math.max(1000, Math.min(3000 * attempt, deadline - Date.now())) }).then(() => true, (e) => {
      if (Date.now() >= deadline) throw e;
      return false;
    });
    if (opened) return input;
  }
}

/**
 * F1, type the command's title, pick the entry whose label is exactly `title`, run it.
 * The palette lists the commands whose `when` holds at the moment it opens; when the command is
 * not offered yet (say an editor is still loading), it closes the palette and opens it again,
 * as a person would, until `timeout`; an F1 that opened nothing is pressed again.
 */
export async function runCommand(page, title, { timeout = DEFAULT_TIMEOUT } = {}) {
  const widget = page.locator(QUICK_INPUT);
  const input = widget.locator('.quick-input-box input');
  const rows = widget.locator('.quick-input-list .monaco-list-row');
  const row = rows.filter({ has: page.locator('.label-name', { hasText: exactRe(title) }) }).first();
  const deadline = Date.now() + timeout;
  await page.locator('.quick-input-widget-closing').waitFor({ state: 'hidden', timeout });
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('F1');
    // A key pressed into a webview that has focus is handed on to the workbench by the webview's
    // page, and on VS Code 1.100 an F1 into a log tab just opened was at times never handed on
    // (the palette stayed shut for 30 s). A person presses it again; so does this.
    const opened = await input.waitFor({ state: 'visible', timeout: Math.max(1000, Math.min(3000 * attempt, deadline - Date.now())) }).then(() => true, (e) => {
      if (Date.now() >= deadline) throw e;
      return false;
    });
    if (!opened) continue;
    // The palette can shut again as it opens (a walkthrough step's click moving the focus after
    // it): the fill then waited 30 s on a hidden box. Pressed again, as a person would.
    const filled = await input.fill(`>${title}`, { timeout: 3000 }).then(() => true, (e) => {
      if (Date.now() >= deadline) throw e;
      return false;
    });
    if (!filled) continue;
    try {
      await row.waitFor({ state: 'visible', timeout: Math.max(1000, Math.min(5000 * attempt, deadline - Date.now())) });
      break;
    } catch {
      const seen = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
      await page.keyboard.press('Escape');
      await quickInputClosed(page, { timeout: 5000 }).catch(() => {});
      if (Date.now() >= deadline) throw new Error(`no command titled "${title}" in the command palette (${attempt} tries); it offered: ${seen.join(' | ') || 'nothing'}`);
    }
  }
  // Enter runs the focused entry as a click does, and does not wait for the row to stand still
  // (on the walkthrough's page it never did, for 30 s).
  if (await row.evaluate((el) => el.classList.contains('focused'))) await input.press('Enter');
  else await row.click();
  // The palette is gone once its widget has hidden (its closing done), or holds something other
  // than a command search: a command that asks (an input box, a pick) shows its question in the
  // same widget at once, which then never hid (Simple Browser: Show's URL prompt, the self-test's flake).
  await page.waitForFunction(() => {
    const w = document.querySelector('.quick-input-widget');
    if (!w || getComputedStyle(w).display === 'none') return true;
    if (w.classList.contains('quick-input-widget-closing')) return false;
    return !(w.querySelector('.quick-input-box input')?.value ?? '').startsWith('>');
  }, null, { timeout });
}

/**
 * Click a view container's icon in the activity bar (not when it is already the open one: a
 * second click would close it), and wait until its side bar shows.
 */
export async function clickActivityBar(page, title, { timeout = DEFAULT_TIMEOUT } = {}) {
  const label = `a.action-label[aria-label=${cssString(title)}], a.action-label[aria-label^=${cssString(`${title} (`)}]`;
  const item = page.locator('.part.activitybar li.action-item').filter({ has: page.locator(label) }).first();
  await item.waitFor({ state: 'visible', timeout });
  const sideBarTitle = page.locator('.part.sidebar .composite.title .title-label h2').filter({ hasText: exactRe(title) });
  if (!(await item.getAttribute('class'))?.split(' ').includes('checked') || !(await sideBarTitle.isVisible())) {
    await item.click();
  }
  await sideBarTitle.waitFor({ state: 'visible', timeout });
}

/**
 * Wait until the workbench is idle: no "Activating Extensions..." in the status bar and no
 * progress bar running in a view. Use it before a screenshot.
 */
export async function waitForIdle(page, { timeout = DEFAULT_TIMEOUT } = {}) {
  await page.waitForFunction(() => {
    const status = document.querySelector('.part.statusbar')?.textContent ?? '';
    if (/Activating Extensions/i.test(status)) return false;
    for (const bar of document.querySelectorAll('.monaco-progress-container.active')) {
      const r = bar.getBoundingClientRect();
      if (r.width > 0 && r.height > 0 && getComputedStyle(bar).visibility !== 'hidden') return false;
    }
    return true;
  }, null, { timeout, polling: 100 });
}

/**
 * Click the tree row (explorer, a custom tree view, ...) whose label is exactly `label`.
 * `within`: a CSS selector to look in (e.g. '.pane[aria-label^="Sessions"]' or a view's id).
 */
export async function clickTreeItem(page, label, { within = '.monaco-workbench', timeout = DEFAULT_TIMEOUT, button = 'left' } = {}) {
  const rows = page.locator(within).locator('.monaco-list-row[role="treeitem"]');
  const row = rows.filter({ has: page.locator('.label-name, .monaco-highlighted-label', { hasText: exactRe(label) }) }).first();
  try {
    await row.waitFor({ state: 'visible', timeout });
  } catch {
    const seen = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
    throw new Error(`no tree row labelled "${label}" in ${within}; rows: ${seen.join(' | ') || 'none'}`);
  }
  await row.click({ button });
  return row;
}

/**
 * The content of the webview titled `title` (a string, matched exactly, or a RegExp; the title
 * the extension gave its panel or view): a FrameLocator on the inner frame (a webview is an
 * iframe in an iframe). Waits until it is there.
 */
export async function webviewFrame(page, title, { timeout = DEFAULT_TIMEOUT } = {}) {
  const want = title instanceof RegExp ? { source: title.source, flags: title.flags } : { exact: String(title) };
  const found = await page.waitForFunction((w) => {
    const re = w.exact === undefined ? new RegExp(w.source, w.flags) : null;
    for (const outer of document.querySelectorAll('iframe.webview')) {
      let inner = null;
      try { inner = outer.contentDocument?.querySelector('iframe#active-frame'); } catch { /* not same-origin */ }
      if (inner && (re ? re.test(inner.title) : inner.title === w.exact)) return { id: outer.getAttribute('name'), title: inner.title };
    }
    return null;
  }, want, { timeout }).catch(async () => {
    const titles = [];
    for (const f of page.frames()) {
      try { titles.push(...await f.$$eval('iframe#active-frame', (els) => els.map((e) => e.title))); } catch { /* detached */ }
    }
    throw new Error(`no webview titled ${title instanceof RegExp ? title : `"${title}"`}; open webviews: ${titles.map((t) => `"${t}"`).join(', ') || 'none'}`);
  });
  // Found by its title, then held by its webview's id: a log tab's title changes with its
  // worker's state ("· working" → "· idle"), and the page inside is replaced when it reloads.
  const { id } = await found.jsonValue();
  const frame = page.frameLocator(`iframe.webview[name=${cssString(id)}]`).frameLocator('iframe#active-frame');
  await frame.locator('body').waitFor({ state: 'attached', timeout });
  return frame;
}

/** Click the element and type `text` key by key, as a person would. */
export async function typeInto(target, selector, text, { timeout = DEFAULT_TIMEOUT, delay = 0 } = {}) {
  const el = target.locator(selector).first();
  await el.waitFor({ state: 'visible', timeout });
  await el.click();
  await el.pressSequentially(text, { delay });
  return el;
}

/** Wait until `text` (string or RegExp) is visible in `target` (a Page or a webview's FrameLocator). */
export async function waitForText(target, text, { timeout = DEFAULT_TIMEOUT } = {}) {
  const el = target.getByText(text).first();
  await el.waitFor({ state: 'visible', timeout });
  return el;
}

/**
 * Save a PNG of the page (1280x800). `name` without a path goes to docs/screenshots/<name>.png.
 * The mouse is moved off the workbench's controls first, so no hover card covers the picture,
 * and the workbench is let settle (waitForIdle) unless `idle: false`.
 */
export async function screenshot(page, name, { moveMouse = true, idle = true } = {}) {
  const path = isAbsolute(name) || name.includes('/') ? (name.endsWith('.png') ? name : `${name}.png`) : join(SCREENSHOT_DIR, `${name.replace(/\.png$/, '')}.png`);
  mkdirSync(dirname(path), { recursive: true });
  if (moveMouse) await page.mouse.move(VIEWPORT.width / 2, VIEWPORT.height - 60);
  if (idle) await waitForIdle(page).catch(() => console.warn('[ui] the workbench was still busy at the screenshot'));
  await page.screenshot({ path, type: 'png' });
  console.log(`[ui] screenshot ${path}`);
  return path;
}

/** Run a scenario file when it is the main module: `runScenario(import.meta.url, fn)`. */
export async function runScenario(metaUrl, fn) {
  if (!isMain(metaUrl)) return;
  const code = await runScenarios([[basename(fileURLToPath(metaUrl), '.mjs'), fn]], parseCli(process.argv.slice(2)));
  process.exit(code);
}

async function runScenarios(list, opts) {
  let failed = 0;
  for (const [name, fn] of list) {
    const t0 = Date.now();
    console.log(`[ui] scenario ${name}`);
    try {
      await fn(opts);
      console.log(`[ui] scenario ${name}: ok (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    } catch (err) {
      failed++;
      console.error(`[ui] scenario ${name}: FAILED: ${err.stack ?? err}`);
    }
    await cleanup();
  }
  return failed ? 1 : 0;
}

function parseCli(argv) {
  const o = { port: process.env.RPC_WORKERS_PORT ? Number(process.env.RPC_WORKERS_PORT) : undefined, build: true, names: [], list: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--port') o.port = Number(argv[++i]);
    else if (argv[i] === '--no-build') o.build = false;
    else if (argv[i] === '--list') o.list = true;
    else o.names.push(argv[i]);
  }
  return o;
}

async function main() {
  const opts = parseCli(process.argv.slice(2));
  const all = readdirSync(SCENARIO_DIR).filter((f) => f.endsWith('.mjs')).map((f) => f.replace(/\.mjs$/, '')).sort();
  if (opts.list) { console.log(all.join('\n')); return 0; }
  const names = opts.names.length ? opts.names : all;
  const unknown = names.filter((n) => !all.includes(n));
  if (unknown.length) { console.error(`unknown scenario(s): ${unknown.join(', ')}; known: ${all.join(', ')}`); return 2; }
  if (opts.build && !buildExtension()) {
    console.error('[ui] build failed'); return 1;
  }
  const list = [];
  for (const n of names) list.push([n, (await import(pathToFileURL(join(SCENARIO_DIR, `${n}.mjs`)).href)).default]);
  return runScenarios(list, opts);
}

// Not awaited at top level: scenarios import this module, and a top-level await here would
// make that import wait for itself.
if (isMain(import.meta.url)) {
  main().then((code) => process.exit(code), (err) => { console.error(err); process.exit(1); });
}
