// ESLint (flat config): typescript-eslint's recommended rules over the TypeScript sources and
// tests, and ESLint's own over the build, test and bench scripts. `npm run lint`; scripts/test.mjs
// runs it as the `lint` suite. Formatting is Prettier's (`npm run format:check`), not ESLint's.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

// A leading underscore names what is taken apart only to be left out (`const { a: _a, ...rest }`)
// or a parameter a signature needs and the body does not.
const unused = { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', caughtErrors: 'none' };

export default tseslint.config(
  { ignores: ['dist/**', 'dist-test/**', 'node_modules/**', '.vscode-test/**', 'test/workspace/**'] },
  {
    files: ['**/*.ts', '**/*.mts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: { globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-unused-vars': ['error', unused] },
  },
  {
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    extends: [js.configs.recommended],
    languageOptions: { globals: { ...globals.node } },
    rules: { 'no-unused-vars': ['error', unused] },
  },
  // Code that runs in a page: the Event Log webview, and the functions the Playwright drivers
  // hand to page.evaluate (they are written beside the Node code that sends them).
  {
    files: ['src/webview/**/*.ts', 'bench/webview.mjs', 'scripts/ui-driver.mjs', 'scripts/ui-scenarios/**/*.mjs'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
