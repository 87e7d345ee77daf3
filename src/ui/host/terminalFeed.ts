// What a VS Code terminal shows of a host terminal (an ACP agent's command the host runs): the
// text to write for each of the worker's events, from the output so far to the exit. Kept apart
// from the Pseudoterminal (hostTerminal.ts) so that it needs no editor to be tested.
import type { AgentEvent } from '../../core/events/agentEvent';

/** A terminal wants \r\n; a lone \n would step down without going back to the line's start. */
const crlf = (text: string) => text.replace(/\r?\n/g, '\r\n');

export class TerminalFeed {
  /** Where what was shown ends, counted from the output's very start (cut characters included). */
  private shownEnd = 0;
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
      return this.output((event.result as { output?: unknown } | null | undefined)?.output, d.dropped);
    }
    if (event.type === 'terminal' && d.op === 'exit' && d.terminalId === this.terminalId) {
      // The exit carries the whole output: a quick command exits before its output reaches the row.
      const rest = this.output(d.output, d.dropped);
      this.done = true;
      // Neither a code nor a signal: the program never ran (not installed), as its output says.
      const how = typeof d.signal === 'string' ? `was ended by ${d.signal}` : typeof d.exitCode === 'number' ? `exited with code ${d.exitCode}` : 'could not be run';
      return rest + crlf(`\n[the command ${how}]\n`);
    }
    return '';
  }

  /**
   * What `output` (the output kept so far, `dropped` characters cut from its front) adds to what
   * was shown: only what is new, also after a cut; what was cut before it could be shown is said.
   */
  private output(output: unknown, dropped: unknown): string {
    if (typeof output !== 'string') return '';
    const cut = typeof dropped === 'number' && dropped > 0 ? dropped : 0;
    const end = cut + output.length;
    if (end <= this.shownEnd) return '';
    const from = this.shownEnd - cut;
    this.shownEnd = end;
    if (from >= 0) return crlf(output.slice(from));
    const lost = -from;
    const said = lost === 1 ? '1 character of output was cut by the byte limit before it' : `${lost} characters of output were cut by the byte limit before they`;
    return crlf(`\n[${said} could be shown]\n${output}`);
  }
}
