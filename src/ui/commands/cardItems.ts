// How agent cards are offered and reported: the QuickPick items and the sentences for cards that
// could not be used. Pure (no vscode), so the unit tests check the words.
import type { AgentCard, LoadedCards } from '../../core/cards/agentCards';
import { pathWithin } from '../../core/pathWithin';

export interface CardItem {
  label: string;
  description: string;
  detail: string;
  card: AgentCard;
}

/** `file` relative to the workspace folder when it is inside it (shorter, and says where). */
function shown(file: string, workspaceFolder: string | undefined): string {
  if (!workspaceFolder) return file;
  return pathWithin(workspaceFolder, file) || file;
}

/**
 * label = name, description = the card's description, detail = what the worker may do (tools,
 * model, guard) and where the card is.
 */
export function cardItems(cards: AgentCard[], workspaceFolder: string | undefined): CardItem[] {
  return cards.map((card) => {
    const guard = !card.guard ? 'not guarded (the card says guard: false)'
      : card.allowedPaths || card.forbiddenPaths ? 'guarded (paths from the card)' : 'guarded (paths from settings)';
    const parts = [
      `tools: ${card.tools ? card.tools.join(', ') || 'none' : "pi's defaults"}`,
      `model: ${card.model ?? 'from the pi profile'}`,
      guard,
      shown(card.file, workspaceFolder),
    ];
    return { label: card.name, description: card.description, detail: parts.join(' · '), card };
  });
}

/** One line per card that could not be loaded, and per card another one hides. */
export function cardProblems(loaded: Pick<LoadedCards, 'errors' | 'shadowed'>): { invalid: string[]; shadowed: string[] } {
  return {
    invalid: loaded.errors.map((e) => `${e.file}: ${e.reason}`),
    shadowed: loaded.shadowed.map((s) => `card "${s.name}" in ${s.file} is hidden by the one in ${s.by}`),
  };
}
