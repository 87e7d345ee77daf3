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
  // A directive that no longer silences anything is an error, not a stale excuse; each one says
  // why after ` -- ` (test/unit/habits.lint.test.ts holds the tree to it).
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
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
  // Sizes the developers' guide asks of the product's code, so they stay so: a file a person can
  // hold (400 lines) and a function read at once (80). Comments and blank lines are not counted,
  // since the comments say why and should never be cut to fit. Tests are exempt: a suite's
  // \`describe\` is one long function by design, and its cases read best side by side.
  {
    files: ['src/**/*.ts'],
    rules: {
      'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }],
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
      // "Inside that folder" has one reading (src/core/pathWithin.ts): a relative path starting
      // with ".." may be a name inside (`..env`), and the checks written by hand disagreed.
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='startsWith'][arguments.0.value='..']",
          message: "use pathWithin (src/core/pathWithin.ts): '..env' starts with '..' and is inside",
        },
      ],
    },
  },
  // Code that runs in a page: the Event Log webview, and the functions the Playwright drivers
  // hand to page.evaluate (they are written beside the Node code that sends them).
  {
    files: ['src/webview/**/*.ts', 'bench/webview.mjs', 'scripts/ui-driver.mjs', 'scripts/ui-scenarios/**/*.mjs'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
