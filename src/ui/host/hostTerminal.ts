// The Event Log's "Show in Terminal" on a tool call that runs a command in a host terminal (ACP):
// a VS Code terminal showing that command's output so far, then live, and how it exited. It is a
// view: the command runs as the host's child whatever this terminal does, so typing into it does
// nothing (it says so), and closing it neither kills nor releases the command.
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import { lazySchema } from '../../protocol/lazySchema';
import type { Supervisor, WorkerState } from '../../core/api';
import type { AgentEvent } from '../../core/events/agentEvent';
import { COMMANDS } from '../commands/ids';
import { TerminalFeed } from './terminalFeed';

const showArg = lazySchema(() => z.object({ workerId: z.string().check(z.minLength(1)), terminalId: z.string().check(z.minLength(1)) }));

/**
 * `logs`: the logs as the Event Log holds them (a live worker's, a stopped one's kept, a past
 * session's), so that a command of a worker that is gone still shows what it wrote. Its state is
 * read without its events: reading a live worker's events decodes its store.
 */
export function registerHostTerminal(supervisor: Supervisor, logs: { lookup(workerId: string): { events: AgentEvent[] } | undefined; stateOf(workerId: string): WorkerState | undefined }): vscode.Disposable {
  return vscode.commands.registerCommand(COMMANDS.showHostTerminal, (raw: unknown) => {
    const arg = showArg.safeParse(raw);
    if (!arg.success) return { status: 'error', error: 'invalid argument: workerId and terminalId are needed' };
    const { workerId, terminalId } = arg.data;
    const events = () => logs.lookup(workerId)?.events ?? [];
    const name = logs.stateOf(workerId)?.name ?? workerId;
    const started = events().find((e) => e.type === 'terminal' && (e.data as { terminalId?: unknown } | null)?.terminalId === terminalId);
    if (!started) return { status: 'not_found', error: `no host terminal ${terminalId} of ${name} in its log` };
    const command = String((started.data as { command?: unknown }).command ?? '');
    const write = new vscode.EventEmitter<string>();
    const feed = new TerminalFeed(terminalId);
    let off: (() => void) | null = null;
    const pty: vscode.Pseudoterminal = {
      onDidWrite: write.event,
      open: () => {
        write.fire(`\x1b[2m$ ${command}\r\n(read-only: the agent's command runs in the host; typing here does nothing)\x1b[0m\r\n`);
        // Read here, not at the click: VS Code opens the terminal a moment later, and what came
        // meanwhile (the command's exit, say) would be in neither the read nor the listener.
        for (const e of events()) write.fire(feed.take(e));
        if (!feed.exited) {
          off = supervisor.onEvent((id, e) => {
            if (id !== workerId) return;
            const text = feed.take(e);
            if (text) write.fire(text);
            if (feed.exited) off?.();
          });
        }
      },
      close: () => {
        off?.();
        write.dispose();
      },
      handleInput: () => write.fire('\x1b[2m(read-only)\x1b[0m'),
    };
    const terminal = vscode.window.createTerminal({ name: `${name}: ${terminalId}`, pty, iconPath: new vscode.ThemeIcon('terminal') });
    terminal.show(true);
    return { status: 'opened', terminalId };
  });
}
