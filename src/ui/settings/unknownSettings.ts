// Keys under rpcWorkers.* in the person's settings that the extension does not declare: a misspelt
// "rpcWorkers.guard.allowedPath" is kept by VS Code, read by nobody, and marked only in the
// settings file, so the guard it was meant for was off without a word. Each such key is said in
// readSettings' words, with the declared key it is likely meant for. Pure (no vscode): the
// declared keys are package.json's (the extension's packageJSON, handed in), the values the
// section's layers from the one inspect() readConfiguration makes.
import { editDistance } from '../../core/editDistance';
import { NOT_DECLARED, SECTION, type InspectedSetting } from './settings';

/** The settings package.json contributes under the section, without it ("guard.allowedPaths"). */
export function declaredSettings(packageJSON: unknown): string[] {
  const configuration = (packageJSON as { contributes?: { configuration?: unknown } } | undefined)?.contributes?.configuration;
  // One object, or a list of them (each a category of the Settings editor).
  const parts = Array.isArray(configuration) ? configuration : [configuration];
  return parts.flatMap((part) => Object.keys((part as { properties?: object } | undefined)?.properties ?? {}))
    .filter((key) => key.startsWith(`${SECTION}.`))
    .map((key) => key.slice(SECTION.length + 1));
}

const isSection = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length > 0;

/**
 * The undeclared keys in one layer of the section (VS Code nests a dotted key: `a.b.c` is
 * `{ a: { b: { c } } }`). A declared key's value is its own, however it is shaped; an undeclared
 * one is named down to its last key, where the value was set.
 */
export function unknownKeys(layer: unknown, declared: readonly string[]): string[] {
  const known = new Set(declared);
  const found: string[] = [];
  const walk = (value: Record<string, unknown>, prefix: string) => {
    for (const [name, inner] of Object.entries(value)) {
      const key = prefix + name;
      if (known.has(key)) continue;
      if (isSection(inner)) walk(inner, `${key}.`);
      else found.push(key);
    }
  };
  if (isSection(layer)) walk(layer, '');
  return found;
}

/**
 * The declared key an unknown one is likely meant for: the nearest within two edits (the first
 * declared, of equals); else the one declared key that starts with it or that it starts with
 * ("maxWorkersPerWindow": maxWorkers). None when nothing is near, or several keys start with it.
 */
export function likelyMeant(key: string, declared: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  const lower = key.toLowerCase();
  for (const d of declared) {
    // Case aside; a length more than two apart is more than two edits.
    const n = Math.abs(d.length - key.length) > 2 ? 3 : editDistance(lower, d.toLowerCase());
    if (n < bestDistance) [best, bestDistance] = [d, n];
  }
  if (best) return best;
  const sharing = declared.filter((d) => d.toLowerCase().startsWith(lower) || lower.startsWith(d.toLowerCase()));
  return sharing.length === 1 ? sharing[0] : undefined;
}

const LAYERS = [['globalValue', 'user'], ['workspaceValue', 'workspace'], ['workspaceFolderValue', 'folder']] as const;

/**
 * One sentence per undeclared key, naming where it is set and what it is likely meant for. In an
 * untrusted workspace only the user's settings: the workspace's are not the extension's to read
 * there (configuredValue), and no worker starts. No declared keys known: nothing is said (every
 * key would be unknown).
 */
export function unknownSettingErrors(section: InspectedSetting | undefined, declared: readonly string[], trusted: boolean): string[] {
  if (declared.length === 0) return [];
  const where = new Map<string, string[]>();
  for (const [layer, name] of LAYERS) {
    if (!trusted && layer !== 'globalValue') continue;
    for (const key of unknownKeys(section?.[layer], declared)) where.set(key, [...(where.get(key) ?? []), name]);
  }
  return [...where].map(([key, layers]) => {
    const meant = likelyMeant(key, declared);
    return `${SECTION}.${key} ${NOT_DECLARED} (in the ${layers.join(' and ')} settings), so it is ignored${meant ? `: did you mean ${SECTION}.${meant}?` : ''}`;
  });
}
