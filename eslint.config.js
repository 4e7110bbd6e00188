// One ESLint config for every workspace; type-aware so `no-floating-promises` can see promises.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '.data/**', '.tools/**', '**/public/vendor/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite'] }] },
      ],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // The console (React): the rules of hooks, and no HTML injection sink.
    files: ['apps/console/**/*.tsx', 'apps/console/**/*.ts'],
    ...reactHooks.configs.flat.recommended,
  },
  {
    files: ['apps/console/**/*.tsx'],
    rules: {
      'no-restricted-syntax': ['error', { selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']", message: 'No HTML injection sinks in the console: render text.' }],
    },
  },
  {
    // The invite page's script: plain JavaScript served as it is, run by the candidate's browser.
    files: ['gateway/static/**/*.js'],
    languageOptions: { globals: globals.browser, sourceType: 'script' },
  },
  {
    // Tests read loosely typed JSON responses on purpose.
    files: ['**/*.test.ts', '**/test/*.ts', 'tools/devstack/src/testing.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
