// Lint for src/, test/, scripts/ and bench/: typescript-eslint's type-aware rules on TypeScript (a
// floating promise or an unsafe `any` is a bug the compiler lets through), eslint-plugin-jest on
// tests (no focused or skipped test committed). `npm run lint` fails on any warning. Layout is
// Prettier's (`npm run format:check`): eslint-config-prettier, last, turns off every rule about it.
import js from '@eslint/js';
import jest from 'eslint-plugin-jest';
import prettier from 'eslint-config-prettier/flat';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['dist/**', 'build/**', 'generated/**', 'clients/**', 'coverage/**', '.data/**', 'node_modules/**', 'examples/**', 'portman/**', 'src/kernel/db/migrations/**'],
  },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  {
    files: ['**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Express and commander take callbacks that return nothing: an async one is how an action awaits.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      // An async method that implements a Promise-returning port need not await anything; a
      // forgotten await is what no-floating-promises catches.
      '@typescript-eslint/require-await': 'off',
      // Matching control characters is the point where we do it (terminal escaping, hostile input).
      'no-control-regex': 'off',
    },
  },
  {
    files: ['test/**/*.ts'],
    extends: [jest.configs['flat/recommended']],
    rules: {
      'jest/no-focused-tests': 'error',
      'jest/no-disabled-tests': 'error',
      // example.test.ts: a test that turns itself on once every operation of the flow exists.
      'jest/no-standalone-expect': ['error', { additionalTestBlockFunctions: ['whenFlowExists'] }],
      // Many tests assert through helpers (expectContract, expectSchema, receiver.waitFor).
      'jest/expect-expect': 'off',
      // A test may branch on what the server answered before asserting (e.g. a retry loop).
      'jest/no-conditional-expect': 'off',
      // Response bodies are JSON that ApiClient checks against the contract at run time; tests read
      // them untyped rather than restate the spec's types. Every other type-aware rule applies.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // A bare status check prints only "received 400" when it fails; expectStatus prints the body that says why.
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name=/^(toBe|toEqual|toStrictEqual)$/][callee.object.callee.name='expect'][callee.object.arguments.0.property.name='status'][arguments.0.raw=/^[1-5][0-9][0-9]$/]",
          message: 'Use expectStatus(response, N) (test/support/expect-status.ts): it prints the body it got when the status differs.',
        },
      ],
    },
  },
  {
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    extends: [js.configs.recommended],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', caughtErrors: 'none' }],
      'no-control-regex': 'off',
    },
  },
  {
    files: ['**/*.cjs', 'jest*.config.js', 'test/support/summary-reporter.js'],
    languageOptions: { sourceType: 'commonjs' },
  },
  {
    files: ['test/**/*.mjs', 'test/**/*.cjs', 'test/**/*.js'],
    languageOptions: { globals: { ...globals.jest } },
  },
  prettier,
);
