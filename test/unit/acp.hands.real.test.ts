// The agent's files through the host with the one real agent that uses them by default: Gemini
// CLI (docs/acp-agents-findings.md) reads a file through the client before its write_file (to
// learn the old text) and writes an existing file through the client once allowed. Driven on the
// mock model (test/fixtures/acp-env.mjs). Copilot, OpenCode (by default), Claude and Codex never
// ask for client files; their writes meet the guard as questions (the wall) or as audits.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ACP_AGENTS, writeToolReply } from '../fixtures/acp-env.mjs';
import { realAcpRig } from '../helpers/realAcp';
import { ofType, record, waitFor } from '../helpers/supervisor';

const name = 'gemini';

describe(`ACP files through the host: real ${name} (${ACP_AGENTS[name].package}@${ACP_AGENTS[name].version})`, function () {
  this.timeout(120_000);
  const reads: string[] = [];
  const editorWrites: string[] = [];
  let openFile: string;
  const rig = realAcpRig(name, {
    tag: 'hands',
    prepare: (cwd) => {
      mkdirSync(path.join(cwd, 'src'));
      openFile = path.join(cwd, 'src', 'open.txt');
      writeFileSync(openFile, 'saved on disk\n');
      writeFileSync(path.join(cwd, 'README.md'), 'the readme\n');
    },
    // The editor has src/open.txt open with an unsaved edit; the host writes the disk.
    supervisor: {
      files: {
        read: async (p) => { reads.push(p); return p === openFile ? 'unsaved in the editor\n' : null; },
        write: async (p) => { editorWrites.push(p); return false; },
      },
    },
  });
  const { asked } = rig;
  let workerId: string;

  before(async function () {
    this.timeout(10 * 60_000);
    const r = await rig.supervisor.start(rig.spec({ clientFiles: true, guard: { allowedPaths: [path.join(rig.cwd, 'src')], forbiddenPaths: [] } }));
    assert.equal(r.status, 'started', r.status === 'error' ? r.error : '');
    if (r.status === 'started') workerId = r.workerId;
  });

  it('a write inside the policy: read through the host (the unsaved text is the old side of its question), asked, written through the host', async () => {
    const state = rig.supervisor.state(workerId);
    assert.equal(state.status !== 'not_found' && state.state.writeGuard, 'vetoed', 'Gemini asks before it writes');
    rig.mock.script(writeToolReply(name, openFile, 'written by gemini\n'), { text: 'Written.' });
    const events = record(rig.supervisor, () => workerId);
    const settled = waitFor(rig.supervisor, workerId, ofType('agent_settled'), 60_000, 'the write turn');
    assert.equal((await rig.supervisor.prompt(workerId, 'Write the file')).status, 'accepted');
    assert.equal((await settled).end_reason, 'done');
    assert.ok(reads.includes(openFile), `Gemini read the file through the host first (reads: ${reads.join(', ')})`);
    assert.equal(asked.length, 1, 'the person was asked');
    const diff = asked[0].diffs.find((d) => d.path === openFile);
    assert.equal(diff?.oldText, 'unsaved in the editor\n', 'the agent saw the editor\'s text, unsaved edit included');
    assert.equal(readFileSync(openFile, 'utf8'), 'written by gemini\n');
    assert.deepEqual(editorWrites, [openFile]);
    assert.equal(events.find((e) => e.type === 'client_file')?.data?.path, openFile);
    assert.equal(events.filter((e) => e.type === 'guard_violation').length, 0);
  });

  it('a write outside the policy is rejected without asking the person, before anything is written, and shown as a blocked call', async () => {
    const readme = path.join(rig.cwd, 'README.md');
    const asked0 = asked.length;
    rig.mock.script(writeToolReply(name, readme, 'overwritten\n'), { text: 'Tried.' });
    const events = record(rig.supervisor, () => workerId);
    const settled = waitFor(rig.supervisor, workerId, ofType('agent_settled'), 60_000, 'the refused write turn');
    assert.equal((await rig.supervisor.prompt(workerId, 'Overwrite the readme')).status, 'accepted');
    await settled;
    assert.equal(readFileSync(readme, 'utf8'), 'the readme\n', 'nothing was written');
    assert.equal(asked.length, asked0, 'the person was not asked');
    const v = events.find((e) => e.type === 'guard_violation');
    assert.ok(v, 'a guard_violation is in the log');
    assert.equal(v.blocked, true);
    assert.match(v.error ?? '', /README\.md.*outside the allowed paths/);
    const end = events.find((e) => e.type === 'permission_end');
    assert.equal(end?.data?.optionKind, 'reject_once', JSON.stringify(end?.data));
  });
});
