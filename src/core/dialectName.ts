// The wire protocols the host speaks, by name: a leaf, so that any part of the core can name a
// dialect without importing the whole API (history's files are read by the API's types).
export const DIALECT_NAMES = ['pi', 'tau', 'acp'] as const;
export type DialectName = (typeof DIALECT_NAMES)[number];

/** How a person reads the dialect's name. */
export const DIALECT_TITLES: Record<DialectName, string> = { pi: 'pi', tau: 'τ', acp: 'ACP' };

/** The error a settings or spec check gives for a dialect it does not know. */
export const DIALECT_ERROR = 'dialect must be "pi", "tau" or "acp"';
