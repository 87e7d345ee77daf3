// The demo worker's tools: what in a prompt asks for one (run:, `command`, write:, ask:) and the
// tool calls that really run a shell command or write a file, as events of the running turn.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { pathWithin } from '../core/pathWithin';

/** What of the running turn a tool call uses. */
export interface ToolTurn {
  event(type: string, fields?: Record<string, unknown>): void;
  /** The child running now, for abort to end (null: none). */
  tool(child: ChildProcess | null): void;
  aborted(): boolean;
  /** The tool's output, into the conversation. */
  result(output: string): void;
}

export function commandIn(text: string): string | null {
  const run = /^\s*run:\s*(.+)$/is.exec(text);
  if (run) return run[1].trim();
  const tick = /\brun\b[^`]*`([^`]+)`/i.exec(text);
  return tick ? tick[1] : null;
}

export async function runTool(command: string, index: number, turn: ToolTurn): Promise<void> {
  const id = `call-${index}-${randomUUID().slice(0, 6)}`;
  turn.event('tool_execution_start', { tool_call_id: id, tool_name: 'bash', args: { command } });
  const started = Date.now();
  const child = spawn('sh', ['-c', command], { cwd: process.cwd(), detached: process.platform !== 'win32', stdio: ['ignore', 'pipe', 'pipe'] });
  turn.tool(child);
  let output = '';
  const onData = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    turn.event('tool_execution_update', { tool_call_id: id, tool_name: 'bash', result: { output: chunk.toString('utf8') } });
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const code = await new Promise<number | null>((resolve) => {
    child.on('close', (c) => resolve(c));
    child.on('error', () => resolve(127));
  });
  turn.tool(null);
  const aborted = turn.aborted();
  turn.event('tool_execution_end', {
    tool_call_id: id, tool_name: 'bash', is_error: aborted || code !== 0,
    result: { output: aborted ? `${output}\n[aborted after ${Date.now() - started} ms]` : output, exit_code: code },
  });
  turn.result(output);
}

export function writeIn(text: string): { path: string; content: string } | null {
  const m = /^\s*write:\s*(\S+)\s*(?:=\s?([\s\S]*))?$/i.exec(text);
  return m ? { path: m[1], content: m[2] ?? '' } : null;
}

/** A write tool call that really writes, inside the worker's folder only. */
export async function runWrite(w: { path: string; content: string }, index: number, turn: ToolTurn): Promise<void> {
  const id = `call-${index}-${randomUUID().slice(0, 6)}`;
  const target = resolve(process.cwd(), w.path);
  turn.event('tool_execution_start', { tool_call_id: id, tool_name: 'write', args: { path: w.path, content: w.content } });
  let output = `wrote ${Buffer.byteLength(w.content)} bytes to ${w.path}`;
  let isError = false;
  if (pathWithin(process.cwd(), target) === null) {
    output = `refused: ${w.path} is outside the working folder`;
    isError = true;
  } else {
    try {
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, w.content.endsWith('\n') ? w.content : `${w.content}\n`);
    } catch (error) {
      output = `could not write ${w.path}: ${(error as Error).message}`;
      isError = true;
    }
  }
  turn.event('tool_execution_end', { tool_call_id: id, tool_name: 'write', is_error: isError, result: { output } });
  turn.result(output);
}

export function askIn(text: string): string | null {
  const m = /^\s*ask:\s*(.+)$/is.exec(text);
  return m ? m[1].trim() : null;
}
