// A minimal ACP client for tests that drive the real agents (not the product's dialect): one
// JSON-RPC message a line over the agent's stdio, through vscode-jsonrpc with a tiny NDJSON
// reader and writer (its own StreamMessageReader wants Content-Length headers, ACP has none).
// It records every line both ways, answers permission requests through `onPermission`, and
// serves fs/* and terminal/* when the test enables them, counting each call.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  AbstractMessageReader, AbstractMessageWriter, createMessageConnection, type DataCallback, type Disposable,
  ResponseError, type Message, type MessageConnection,
} from 'vscode-jsonrpc/node';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON-RPC messages as the agent sent them, read by shape in each test
export type Json = any;
export interface WireLine { t: number; dir: 'c2a' | 'a2c'; msg: Json }

class NdjsonReader extends AbstractMessageReader {
  private buf = '';
  constructor(private readonly stream: NodeJS.ReadableStream, private readonly onLine: (m: Json) => void) { super(); }
  listen(callback: DataCallback): Disposable {
    const onData = (d: Buffer) => {
      this.buf += d.toString('utf8');
      let nl: number;
      while ((nl = this.buf.indexOf('\n')) >= 0) {
        const line = this.buf.slice(0, nl).replace(/\r$/, '');
        this.buf = this.buf.slice(nl + 1);
        if (!line.trim()) continue;
        let msg: Json;
        try { msg = JSON.parse(line); } catch (e) { this.fireError(new Error(`not JSON from the agent: ${line.slice(0, 200)}`)); continue; }
        this.onLine(msg);
        callback(msg as Message);
      }
    };
    this.stream.on('data', onData);
    this.stream.on('close', () => this.fireClose());
    return { dispose: () => { this.stream.off('data', onData); } };
  }
}

class NdjsonWriter extends AbstractMessageWriter {
  constructor(private readonly stream: NodeJS.WritableStream, private readonly onLine: (m: Json) => void) { super(); }
  write(msg: Message): Promise<void> {
    this.onLine(msg);
    return new Promise((resolve, reject) => {
      this.stream.write(`${JSON.stringify(msg)}\n`, (err) => (err ? reject(err) : resolve()));
    });
  }
  end(): void { /* the test closes stdin itself */ }
}

export interface PermissionRequest { sessionId: string; toolCall: Json; options: Array<{ optionId: string; name: string; kind: string }> }
export type PermissionAnswer = { outcome: { outcome: 'selected'; optionId: string } | { outcome: 'cancelled' } };

export interface AcpClientOptions {
  command: string; args: string[]; env: Record<string, string>; cwd: string;
  /** Serve fs/read_text_file and fs/write_text_file (and advertise them). */
  fs?: boolean;
  /** Serve terminal/* (and advertise it). */
  terminal?: boolean;
  onPermission?: (p: PermissionRequest) => PermissionAnswer | Promise<PermissionAnswer>;
}

/** The first option of that kind; allow_once by default. */
export function pick(p: PermissionRequest, kind = 'allow_once'): PermissionAnswer {
  const o = p.options.find((x) => x.kind === kind);
  if (!o) throw new Error(`no ${kind} option among ${JSON.stringify(p.options)}`);
  return { outcome: { outcome: 'selected', optionId: o.optionId } };
}

export class AcpClient {
  readonly child: ChildProcessWithoutNullStreams;
  readonly conn: MessageConnection;
  readonly wire: WireLine[] = [];
  readonly updates: Json[] = []; // session/update params, in order
  readonly permissions: PermissionRequest[] = [];
  readonly clientCalls: Array<{ method: string; params: Json }> = [];
  stderr = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly t0 = Date.now();
  private readonly terminals = new Map<string, { child: ReturnType<typeof spawn>; output: string; exit: Promise<Json> }>();
  private updateWaiters: Array<{ match: (u: Json) => boolean; resolve: (u: Json) => void }> = [];

  constructor(readonly opts: AcpClientOptions) {
    this.child = spawn(opts.command, opts.args, { cwd: opts.cwd, env: opts.env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    this.child.stderr.on('data', (d) => { this.stderr = (this.stderr + d.toString()).slice(-20_000); });
    this.exited = new Promise((resolve) => this.child.once('exit', (code, signal) => resolve({ code, signal })));
    const rec = (dir: 'c2a' | 'a2c') => (msg: Json) => this.wire.push({ t: (Date.now() - this.t0) / 1000, dir, msg });
    this.conn = createMessageConnection(new NdjsonReader(this.child.stdout, rec('a2c')), new NdjsonWriter(this.child.stdin, rec('c2a')));
    this.conn.onNotification('session/update', (p: Json) => {
      this.updates.push(p);
      this.updateWaiters = this.updateWaiters.filter((w) => (w.match(p) ? (w.resolve(p), false) : true));
    });
    this.conn.onRequest('session/request_permission', async (p: PermissionRequest) => {
      this.permissions.push(p);
      if (!opts.onPermission) return { outcome: { outcome: 'cancelled' } };
      return opts.onPermission(p);
    });
    this.conn.onRequest('fs/read_text_file', (p: Json) => {
      this.clientCalls.push({ method: 'fs/read_text_file', params: p });
      // ACP's "resource not found" (-32002) for a missing file: Gemini's write tool reads first
      // and takes only that (or a message naming ENOENT) as "the file is new".
      if (!existsSync(p.path)) throw new ResponseError(-32002, `Resource not found: ${p.path}`, { uri: p.path });
      const text = readFileSync(p.path, 'utf8');
      const lines = text.split('\n');
      const from = Math.max(0, (p.line ?? 1) - 1);
      return { content: lines.slice(from, p.limit ? from + p.limit : undefined).join('\n') };
    });
    this.conn.onRequest('fs/write_text_file', (p: Json) => {
      this.clientCalls.push({ method: 'fs/write_text_file', params: p });
      mkdirSync(path.dirname(p.path), { recursive: true });
      writeFileSync(p.path, p.content);
      return null;
    });
    this.conn.onRequest('terminal/create', (p: Json) => {
      this.clientCalls.push({ method: 'terminal/create', params: p });
      const id = `term-${this.terminals.size + 1}`;
      const child = spawn(p.command, p.args ?? [], { cwd: p.cwd ?? opts.cwd, env: { ...opts.env, ...Object.fromEntries((p.env ?? []).map((e: Json) => [e.name, e.value])) }, shell: !(p.args?.length) });
      const t = { child, output: '', exit: new Promise<Json>((r) => child.once('exit', (code, signal) => r({ exitCode: code, signal }))) };
      child.stdout?.on('data', (d) => { t.output += d; });
      child.stderr?.on('data', (d) => { t.output += d; });
      this.terminals.set(id, t);
      return { terminalId: id };
    });
    this.conn.onRequest('terminal/output', async (p: Json) => {
      this.clientCalls.push({ method: 'terminal/output', params: p });
      const t = this.terminals.get(p.terminalId)!;
      const done = t.child.exitCode !== null || t.child.signalCode !== null;
      return { output: t.output, truncated: false, ...(done ? { exitStatus: await t.exit } : {}) };
    });
    this.conn.onRequest('terminal/wait_for_exit', (p: Json) => { this.clientCalls.push({ method: 'terminal/wait_for_exit', params: p }); return this.terminals.get(p.terminalId)!.exit; });
    this.conn.onRequest('terminal/kill', (p: Json) => { this.clientCalls.push({ method: 'terminal/kill', params: p }); this.terminals.get(p.terminalId)?.child.kill('SIGKILL'); return null; });
    this.conn.onRequest('terminal/release', (p: Json) => { this.clientCalls.push({ method: 'terminal/release', params: p }); this.terminals.get(p.terminalId)?.child.kill('SIGKILL'); return null; });
    // Anything else the agent asks or says is recorded on the wire; unknown requests get the
    // library's MethodNotFound.
    this.conn.onNotification(() => {});
    this.conn.listen();
  }

  initialize(extra: Json = {}): Promise<Json> {
    return this.conn.sendRequest('initialize', {
      protocolVersion: 1,
      clientCapabilities: { fs: { readTextFile: !!this.opts.fs, writeTextFile: !!this.opts.fs }, terminal: !!this.opts.terminal },
      clientInfo: { name: 'rpc-workers-acp-test', version: '0.0.1' },
      ...extra,
    });
  }

  request(method: string, params: Json): Promise<Json> { return this.conn.sendRequest(method, params); }
  notify(method: string, params: Json): Promise<void> { return this.conn.sendNotification(method, params); }

  /** The next session/update (from now, or already seen after `from`) that matches. */
  waitForUpdate(match: (u: Json) => boolean, from = this.updates.length): Promise<Json> {
    const seen = this.updates.slice(from).find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.updateWaiters.push({ match, resolve }));
  }

  text(from = 0, sessionId?: string): string {
    return this.updates.slice(from).filter((u) => (!sessionId || u.sessionId === sessionId) && u.update?.sessionUpdate === 'agent_message_chunk')
      .map((u) => u.update.content?.text ?? '').join('');
  }

  /** Close stdin, as a host does to end a worker politely. */
  closeStdin(): void { this.child.stdin.end(); }

  /** The whole process group, hard (cleanup only). */
  kill(): void {
    for (const t of this.terminals.values()) t.child.kill('SIGKILL');
    try { process.kill(-this.child.pid!, 'SIGKILL'); } catch { /* gone */ }
    this.conn.dispose();
  }
}
