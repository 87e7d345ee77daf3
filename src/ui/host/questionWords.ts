// The words of a permission question's QuickPick, kept apart from the picker so that a test reads
// them without VS Code. The placeholder holds what the question is about (the command, the files
// changed) and goes once the person types; the title stays, so it carries how to put the
// question aside, which the placeholder used to say only when there was nothing else to say.
import type { PermissionAsk } from '../../core/apiAsks';

export const ASIDE_HINT = '(Escape puts the question aside; the agent waits)';

/** `where`: the files the call changes or touches, as the workspace names them ('' for none). */
export function questionWords(req: Pick<PermissionAsk, 'title' | 'command'>, workerName: string, where: string): { title: string; placeholder: string } {
  return {
    title: `${workerName} asks: ${req.title} ${ASIDE_HINT}`,
    placeholder: req.command ? `$ ${req.command}` : where ? `Changes ${where}` : 'Pick an answer',
  };
}
