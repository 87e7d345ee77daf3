// The wire protocols the host speaks, by name: a leaf, so that any part of the core can name a
// dialect without importing the whole API (history's files are read by the API's types).
export type DialectName = 'pi' | 'tau';
