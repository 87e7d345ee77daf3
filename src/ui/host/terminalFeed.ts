// What a VS Code terminal shows of a host terminal (an ACP agent's command the host runs): the
// text to write for each of the worker's events, from the output so far to the exit. Kept apart
// from the Pseudoterminal (hostTerminal.ts) so that it needs no editor to be tested.
import type { AgentEvent } from '../../core/events/agentEvent';

/** A terminal wants \r\n; a lone \n would step down without going back to the line's start. */
const crlf = (text: string) => text.replace(/\r?\n/g, '\r\n');

export class TerminalFeed {
  private shown = '';
  private done = false;

  constructor(private readonly terminalId: string) {}

  get exited(): boolean {
    return this.done;
  }

  /** The text to write for `event` ('' when it is not about this terminal). */
  take(event: Pick<AgentEvent, 'type' | 'data' | 'result'>): string {
    if (this.done) return '';
    const d = (event.data ?? {}) as Record<string, unknown>;
    if (event.type === 'tool_execution_update' && d.terminalId === this.terminalId) {
      return this.output((event.result as { output?: unknown } | null | undefined)?.output);
    }
    if (event.type === 'terminal' && d.op === 'exit' && d.terminalId === this.terminalId) {
      // The exit carries the whole output: a quick command exits before its output reaches the row.
      const rest = this.output(d.output);
      this.done = true;
      const how = typeof d.signal === 'string' ? `was ended by ${d.signal}` : `exited with code ${String(d.exitCode)}`;
      return rest + crlf(`\n[the command ${how}]\n`);
    }
    return '';
  }

  /** What `output` (the whole output so far) adds to what was shown. */
  private output(output: unknown): string {
    if (typeof output !== 'string') return '';
    // Under the agent's byte limit the front is cut.
    const previous = this.shown;
    this.shown = output;
    if (output.startsWith(previous)) return crlf(output.slice(previous.length));
    return crlf(`\n[the output's front was cut by the agent's byte limit; what is kept now:]\n${output}`);
  }
}
