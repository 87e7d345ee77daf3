// A worker's output channel and its levels: every stderr line was logged as a warning, "demo
// worker ready" too, so the channel's level filter could not hide the chatter. Now a stderr line
// is info, one that reads as an error (or a stack under it) a warning, and an exit nobody asked
// for says its stderr's last lines (the crash message's tail) as an error.
import '../helpers/vscodeStub'; // before the UI modules, which import vscode
import assert from 'node:assert/strict';
import type { AgentEvent } from '../../src/core/events/agentEvent';
import type { OutputKind, Supervisor } from '../../src/core/api';
import { OutputChannels } from '../../src/ui/views/outputChannels';
import { stderrLevel } from '../../src/ui/views/stderrLevel';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the stub the helper put in vscode's place
const vscode = require('vscode') as { window: Record<string, unknown> };

describe('a worker\'s output channel', () => {
  const logged: Array<[string, string]> = [];
  const original = vscode.window.createOutputChannel;
  before(() => {
    const at = (level: string) => (text: string) => logged.push([level, text]);
    vscode.window.createOutputChannel = () => ({ trace: at('trace'), debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error'), show() {}, dispose() {} });
  });
  after(() => { vscode.window.createOutputChannel = original; });
  beforeEach(() => { logged.length = 0; });

  function channels() {
    let output: (id: string, kind: OutputKind, text: string) => void = () => {};
    let event: (id: string, e: AgentEvent) => void = () => {};
    const supervisor = {
      list: () => [],
      state: () => ({ status: 'not_found' }),
      onOutput: (fn: typeof output) => ((output = fn), () => {}),
      onEvent: (fn: typeof event) => ((event = fn), () => {}),
      onState: () => () => {},
    } as unknown as Supervisor;
    const c = new OutputChannels(supervisor);
    return { c, output, event: (id: string, e: AgentEvent) => event(id, e) };
  }

  it('stderr is info, a line that reads as an error a warning', () => {
    const { c, output } = channels();
    output('w1', 'stderr', '[τ-rpc] RPC Workers demo worker ready (pid 7, protocol 1.0)');
    output('w1', 'stderr', 'TypeError: Cannot read properties of undefined (reading \'x\')');
    output('w1', 'stdout', 'not protocol');
    assert.deepEqual(logged, [
      ['info', '[stderr] [τ-rpc] RPC Workers demo worker ready (pid 7, protocol 1.0)'],
      ['warn', '[stderr] TypeError: Cannot read properties of undefined (reading \'x\')'],
      ['info', '[stdout] not protocol'],
    ]);
    c.dispose();
  });

  it('an exit nobody asked for: its stderr tail as an error; a stop or a clean exit adds nothing', () => {
    const { c, event } = channels();
    const exit = (is_error: boolean, error: string | null) => ({ type: 'worker_exit', is_error, error, data: {} }) as unknown as AgentEvent;
    event('w1', exit(true, 'the worker exited with code 3; stderr:\nboom\nlast words'));
    event('w1', exit(false, null));
    event('w1', { type: 'agent_end' } as AgentEvent);
    assert.deepEqual(logged, [['error', '[exit] the worker exited with code 3; stderr:\nboom\nlast words']]);
    c.dispose();
  });

  it('which lines read as an error: what the real programs and their runtimes write', () => {
    const warn = [
      'Error: Authentication failed with provider openai (HTTP 401)', // Copilot (docs/real-workers.md)
      'TypeError: fetch failed', '    at Object.<anonymous> (/srv/agent/index.js:3:9)', // Node (pi, the ACP agents)
      'Traceback (most recent call last):', '  File "/opt/tau/main.py", line 12, in <module>', 'ValueError: bad frame', // Python (τ)
      'thread \'main\' panicked at src/main.rs:2:5:', 'panic: runtime error: index out of range [3]', 'fatal error: all goroutines are asleep', // Rust, Go
      'FATAL: cannot open the session', '[ERROR] the model refused', 'level=error msg="no key"', '{"level":"error","msg":"x"}',
      'error: unexpected argument \'--acp\'', 'Warning: skipping /etc/gemini-cli/settings.json (not owned by root)',
      '(node:12) UnhandledPromiseRejectionWarning: x',
      // Measured 2026-12-06 (docs/real-workers.md): pi 1.6.0 with no model, τ 0.15.0 with none.
      'Warning: No models available. Use /login to log into a provider via OAuth or API key. See:',
      'tau: error: no model specified and no \'default_model\' in config; pass --model NAME or set default_model in /h/.tau/config.json',
    ];
    const info = [
      '[τ-rpc] RPC Workers demo worker ready (pid 7, protocol 1.0)', 'Loaded cached credentials.', 'Debugger attached.',
      'compiled 12 files, 0 errors', 'Info: Request failed due to a transient API error. Retrying...', '{"is_error":false}',
      'session ready', '',
      '  /opt/pi/node_modules/@earendil-works/pi-coding-agent/docs/providers.md', // pi's lines under its warning
      'usage: tau [-h] [--version] [--print] [--mode {text,json,rpc,repl}]',
    ];
    assert.deepEqual(warn.filter((l) => stderrLevel(l) !== 'warn'), [], 'read as chatter');
    assert.deepEqual(info.filter((l) => stderrLevel(l) !== 'info'), [], 'read as errors');
  });
});
