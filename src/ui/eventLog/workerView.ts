// A worker as the event log's page gets it (protocol/messages.ts WorkerView): no vscode import,
// so the tests check what the page is told.
import type { WorkerState } from '../../core/api';
import type { AttentionInfo } from '../../core/attention/attention';
import type { WorkerView } from '../../protocol/messages';
import { usageWords } from '../history/words';
import { loginSentence } from '../commands/resultWords';
import { loginHint } from '../settings/profiles';

/**
 * How a known ACP agent takes a key, for a turn it refused for want of one ("For Claude: …"):
 * the Event Log's row and the Markdown export say the same words. null for another program.
 */
export function turnLoginSentence(s: { dialect: string; name: string; command: string; args?: readonly string[] }): string | null {
  return s.dialect === 'acp' ? loginSentence(s.name, loginHint(s.command, s.args ?? [])) : null;
}

/** `attention`: whether it needs the person, as its row in the Sessions view says (absent: not known). */
export function toWorkerView(s: WorkerState, attention?: AttentionInfo | null): WorkerView {
  const usage = usageWords(s.usage);
  const login = turnLoginSentence(s);
  return {
    workerId: s.workerId,
    name: s.name,
    status: s.status,
    streaming: s.streaming,
    compacting: s.compacting,
    model: s.model,
    dialect: s.dialect,
    pid: s.pid,
    ...(usage ? { usage } : {}),
    ...(s.compactUnavailable ? { noCompact: s.compactUnavailable } : {}),
    ...(s.abortUnavailable ? { noAbort: s.abortUnavailable } : {}),
    ...(s.midTurn?.steer === false ? { noSteer: true } : {}),
    ...(s.inputLost ? { inputLost: true } : {}),
    ...(attention ? { attention: attention.attention, attentionReason: attention.reason } : {}),
    ...(login ? { login } : {}),
  };
}
