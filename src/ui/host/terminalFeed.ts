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
      const output = (event.result as { output?: unknown } | null | undefined)?.output;
      if (typeof output !== 'string') return '';
      // Each update carries the whole output so far; under the agent's byte limit its front is cut.
      const previous = this.shown;
      this.shown = output;
      if (output.startsWith(previous)) return crlf(output.slice(previous.length));
      return crlf(`\n[the output's front was cut by the agent's byte limit; what is kept now:]\n${output}`);
    }
    if (event.type === 'terminal' && d.op === 'exit' && d.terminalId === this.terminalId) {
      this.done = true;
      const how = typeof d.signal === 'string' ? `was ended by ${d.signal}` : `exited with code ${String(d.exitCode)}`;
      return crlf(`\n[the command ${how}]\n`);
    }
    return '';
  }
}
