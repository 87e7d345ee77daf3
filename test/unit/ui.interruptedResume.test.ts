// The automatic resume of interrupted sessions (rpcWorkers.history.resumeInterrupted). An untrusted
// window starts no worker, so it resumed nothing at activation; when trust was granted later only
// the worktree check ran again, and the interrupted sessions stayed interrupted until a reload.
import * as assert from 'node:assert/strict';
import { InterruptedResume } from '../../src/ui/history/interruptedResume';

function resumer(o: { trusted: boolean; wanted: boolean }) {
  const state = { ...o, runs: 0 };
  const errors: string[] = [];
  const resume = new InterruptedResume({
    isTrusted: () => state.trusted,
    wanted: () => state.wanted,
    resume: async () => (state.runs++, [{ status: 'resumed' }]),
    logError: (m) => errors.push(m),
  });
  return { state, resume, errors };
}

describe('UI history: resuming interrupted sessions', () => {
  it('a trusted window resumes them after activation, once', async () => {
    const { state, resume } = resumer({ trusted: true, wanted: true });
    resume.activated();
    assert.deepEqual(await resume.done, [{ status: 'resumed' }]);
    resume.trustGranted();
    await resume.done;
    assert.equal(state.runs, 1);
  });

  it('an untrusted window resumes nothing until trust is granted, then resumes them once', async () => {
    const { state, resume } = resumer({ trusted: false, wanted: true });
    resume.activated();
    assert.deepEqual(await resume.done, [], 'restored log tabs wait for this: it ends at once while untrusted');
    assert.equal(state.runs, 0, 'resumed in an untrusted window');
    state.trusted = true;
    resume.trustGranted();
    assert.deepEqual(await resume.done, [{ status: 'resumed' }]);
    resume.trustGranted();
    await resume.done;
    assert.equal(state.runs, 1, 'resumed twice');
  });

  it('the setting read once trusted decides (an untrusted window reads only the user\'s value)', async () => {
    const { state, resume } = resumer({ trusted: false, wanted: false });
    resume.activated();
    await resume.done;
    state.trusted = true;
    state.wanted = true;
    resume.trustGranted();
    await resume.done;
    assert.equal(state.runs, 1);
    const off = resumer({ trusted: false, wanted: false });
    off.resume.activated();
    off.state.trusted = true;
    off.resume.trustGranted();
    await off.resume.done;
    assert.equal(off.state.runs, 0, 'resumed with the setting off');
  });

  it('a resume that fails is logged, and done still ends', async () => {
    const errors: string[] = [];
    const resume = new InterruptedResume({ isTrusted: () => true, wanted: () => true, resume: async () => { throw new Error('no core'); }, logError: (m) => errors.push(m) });
    resume.activated();
    await resume.done;
    assert.deepEqual(errors, ['could not resume interrupted sessions: no core']);
  });
});
