// An agent's files through the host (ACP fs/read_text_file, fs/write_text_file): read from the
// editor where the file is open (unsaved edits included) and from disk otherwise, written
// through the editor where it is open. Confined to the worker's folder (its workspace folder or
// worktree, else its cwd); for a guarded worker a write outside the policy is refused before
// anything is written; for a worker not offered them (clientFiles: false) neither is served.
// Every refusal is a JSON-RPC error that says why, and is in the log.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ErrorCodes, ResponseError } from 'vscode-jsonrpc/node';
import type { ClientFileAccess } from '../api';
import type { AgentEvent, ClientFileEvent, Untimed } from '../events/agentEvent';
import { physicalPath, type Physical } from '../guard/paths';
import { pathWithin } from '../pathWithin';
import type { ResolvedPolicy } from '../guard/policy';
import { GUARD_NAME } from '../guard/veto';
import { writeVeto } from '../guard/wall';
import { ChangedUnderCheck, writeJudged } from './judgedWrite';
import { hasLoneLf, keepLineEnds } from './lineEnds';

/** ACP's "resource not found". */
export const RESOURCE_NOT_FOUND = -32002;
/** A refusal of this host (outside the folder, the guard): JSON-RPC's server-error range. */
export const REFUSED = -32001;
/**
 * Strict: a byte that is not UTF-8 would reach the agent as U+FFFD, and be lost if it wrote the
 * text back. A BOM stays in the text, as Node's 'utf8' decoding always kept it.
 */
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export interface ClientFilesSite {
  workerId: string;
  /** The host offered the agent its files at initialize (clientFiles). */
  offered: boolean;
  /** The folder the agent's files are confined to. */
  root: string;
  cwd: string;
  files?: ClientFileAccess;
  policy: ResolvedPolicy | null;
  emit(event: Untimed): void;
  /** The guard's finding, marked on its tool call. */
  report(event: Untimed): void;
  /** The guard judged this call's write here, before it happened: no audit after it is needed. */
  judged(toolCallId: string): void;
}

export class ClientFiles {
  /** The running tool call that names each path, so a refused write is shown on its row. */
  private readonly callOf = new Map<string, string>();
  /**
   * What the agent last read of each file from disk (a digest, by where the path leads), till its
   * write: a change made since, by the person or another program, is replaced by text built on
   * the older one, and the log says so (the editor keeps its own documents' reads).
   */
  private readonly readOf = new Map<string, string>();
  /** Writes that came through the host (the agent writes through the client). */
  writes = 0;

  constructor(private readonly site: ClientFilesSite) {}

  /** Remembers which tool call names which paths (its locations and diffs). */
  observe(event: AgentEvent): void {
    // A turn's calls are its own; the next turn starts afresh.
    if (event.type === 'agent_settled') this.callOf.clear();
    if (!event.tool_call_id || event.replayed) return;
    for (const p of [...(event.locations ?? []).map((l) => l.path), ...(event.diffs ?? []).map((d) => d.path)]) {
      if (path.isAbsolute(p)) this.callOf.set(path.resolve(p), event.tool_call_id);
    }
  }

  async read(raw: string, line: number | null, limit: number | null): Promise<{ content: string }> {
    const { file, place } = this.allowed('fs/read_text_file', raw);
    const partial = line !== null || limit !== null;
    let text = await this.editor('read', () => this.site.files?.read(file, this.site.workerId, { partial, real: place.path })) ?? null;
    if (text !== null) this.readOf.delete(place.path);
    else {
      let bytes: Buffer;
      try {
        bytes = await readFile(file);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') throw new ResponseError(RESOURCE_NOT_FOUND, `Resource not found: ${file}`, { uri: file });
        throw new ResponseError(REFUSED, `cannot read ${file}: ${(error as Error).message}`);
      }
      try {
        text = UTF8.decode(bytes);
        this.readOf.set(place.path, digest(bytes));
      } catch {
        return this.refuse('fs/read_text_file', raw, 'the file is not UTF-8 text; the host does not hand it over altered');
      }
    }
    return { content: slice(text, line, limit) };
  }

  async write(raw: string, content: string): Promise<Record<string, never>> {
    // `place`: where the write lands, resolved once by the guard's own walk; judged, and written
    // below, so a link swapped in meanwhile is not followed (judgedWrite.ts).
    const { file, place } = this.allowed('fs/write_text_file', raw);
    this.writes++;
    const { policy } = this.site;
    if (policy) {
      const veto = writeVeto(policy, place.path, this.site.cwd);
      const toolCallId = this.callOf.get(file) ?? null;
      if (toolCallId) this.site.judged(toolCallId);
      if (veto) {
        this.site.report({
          type: 'guard_violation', tool_call_id: toolCallId, tool_name: 'fs/write_text_file', is_error: true, error: veto,
          blocked: true, blocked_by: GUARD_NAME, data: { action: 'refused', path: file },
        });
        throw new ResponseError(REFUSED, `the host's write guard refused this write before anything was written: ${veto}`);
      }
    }
    // Before the editor's write, whose save changes the disk.
    const changed = await this.changedSinceRead(place.path);
    const edited = await this.editor('write', () => this.site.files?.write(file, content, this.site.workerId, { real: place.path }));
    // What reaches the disk: the editor keeps an open document's line ends; the host keeps a
    // file's on disk (lineEnds.ts), the text otherwise the one judged.
    let written = content;
    if (!edited) {
      try {
        written = await writeJudged(place.path, place.stat, content, hasLoneLf(content) ? keepLineEnds : undefined);
      } catch (error) {
        // An unguarded worker's write was checked (inside its folder), not judged by a guard.
        if (error instanceof ChangedUnderCheck) return this.refuse('fs/write_text_file', raw, `the file changed ${policy ? "under the guard's check" : 'after it was checked'}: nothing was written (${error.message})`);
        throw new ResponseError(REFUSED, `cannot write ${file}: ${(error as Error).message}`);
      }
    }
    const data: ClientFileEvent['data'] = { op: 'write', path: file, through: edited ? 'editor' : 'disk', bytes: (edited ? edited.savedBytes : undefined) ?? Buffer.byteLength(written) };
    if (edited && edited.replacedUnsaved) data.replacedUnsaved = true;
    else if (changed || (edited && edited.changedSinceRead)) data.changedSinceRead = true;
    this.site.emit({ type: 'client_file', tool_call_id: this.callOf.get(file) ?? null, data });
    return {};
  }

  /** The agent is gone: the editor forgets what it read. */
  ended(): void {
    this.readOf.clear();
    this.site.files?.forget?.(this.site.workerId);
  }

  /** The file on disk is not what the agent last read of it from disk (not read: nothing to tell). */
  private async changedSinceRead(place: string): Promise<boolean> {
    const read = this.readOf.get(place);
    this.readOf.delete(place);
    if (read === undefined) return false;
    // Gone or unreadable: the write that follows says what it finds.
    return readFile(place).then((bytes) => digest(bytes) !== read, () => false);
  }

  /** The editor's side; its failure is the agent's error and a line in the log, never lost. */
  private async editor<T>(op: 'read' | 'write', run: () => Promise<T> | undefined): Promise<T | undefined> {
    try {
      return await run();
    } catch (error) {
      const text = `the editor could not ${op} the file: ${(error as Error).message}`;
      this.site.emit({ type: 'client_file', is_error: true, error: text, data: { op } });
      throw new ResponseError(REFUSED, text);
    }
  }

  /** Refused, to the agent and in the log. */
  private refuse(method: string, raw: string, why: string, code = REFUSED): never {
    const error = `${method} ${JSON.stringify(raw)} refused: ${why}`;
    this.site.emit({ type: 'client_file', is_error: true, error, data: { op: method === 'fs/read_text_file' ? 'read' : 'write', path: raw, refused: true } });
    throw new ResponseError(code, error);
  }

  /**
   * The absolute path and where it lands (symlinks followed), if the agent was offered files and
   * it lies in the worker's folder; else refused.
   */
  private allowed(method: string, raw: string): { file: string; place: Extract<Physical, { ok: true }> } {
    const refuse = (why: string, code?: number): never => this.refuse(method, raw, why, code);
    // The agent was told at initialize that these methods are not served: it must not call them.
    if (!this.site.offered) return refuse('the host does not offer this agent its files (clientFiles: false), and told it so', ErrorCodes.MethodNotFound);
    if (raw.includes('\0')) return refuse('the path holds a NUL byte');
    if (!path.isAbsolute(raw)) return refuse('ACP paths must be absolute');
    // `..` removed as text (Node's reading), once: this one string is confined, judged by the
    // guard and written, so no `..` is left for the kernel to read differently after a symlink.
    const file = path.resolve(raw);
    const real = physicalPath(file);
    const root = physicalPath(this.site.root);
    if (!real.ok) return refuse(real.reason);
    if (!root.ok) return refuse(`the worker's folder cannot be resolved (${root.reason})`);
    // The folder itself is not a file an agent reads or writes.
    if (!pathWithin(root.path, real.path)) return refuse(`it is outside the worker's folder ${this.site.root}`);
    return { file, place: real };
  }
}

const digest = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** `limit` lines from the 1-based `line` on, each with its own line end. */
export function slice(text: string, line: number | null, limit: number | null): string {
  if (line === null && limit === null) return text;
  const lines = text.split(/(?<=\n)/);
  const start = Math.max(0, (line ?? 1) - 1);
  return lines.slice(start, limit === null ? undefined : start + limit).join('');
}
