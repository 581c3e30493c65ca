// ESLint (flat config) + typescript-eslint. `npm run lint`; part of `npm test`.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const NODE_BUILTINS = [
  'assert',
  'buffer',
  'child_process',
  'crypto',
  'dns',
  'events',
  'fs',
  'fs/promises',
  'http',
  'http2',
  'https',
  'net',
  'os',
  'path',
  'perf_hooks',
  'process',
  'stream',
  'timers',
  'tls',
  'url',
  'util',
  'worker_threads',
  'zlib',
];

/** Deterministic, pure code: no I/O, no clocks, no randomness, no timers, no process state. */
const deterministic = {
  'no-restricted-imports': [
    'error',
    {
      patterns: [{ group: ['node:*'], message: 'workflows/ and core/ stay free of Node built-ins: do I/O in activities.' }],
      paths: NODE_BUILTINS.map((name) => ({ name, message: 'workflows/ and core/ stay free of Node built-ins: do I/O in activities.' })),
    },
  ],
  'no-restricted-globals': [
    'error',
    ...['process', 'setTimeout', 'setInterval', 'setImmediate', 'clearTimeout', 'clearInterval', 'require', 'fetch', '__dirname', '__filename', 'Buffer'].map((name) => ({
      name,
      message: 'not deterministic or not pure: workflows use @temporalio/workflow (sleep, workflowInfo), core takes values as arguments.',
    })),
  ],
  'no-restricted-properties': [
    'error',
    { object: 'Date', property: 'now', message: 'take the time as an argument (core) or use workflow time `new Date()` (workflows).' },
    { object: 'Math', property: 'random', message: 'use a seeded PRNG (core/gepa) or uuid4() from @temporalio/workflow.' },
    { object: 'crypto', property: 'randomUUID', message: 'use uuid4() from @temporalio/workflow or derive ids deterministically.' },
  ],
};

export default tseslint.config(
  { ignores: ['node_modules/**', '.evolution/**', 'dist/**', 'schemas/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { ecmaVersion: 2022, sourceType: 'module' } },
    rules: {
      // The code base narrows with `!` where an invariant holds, and uses `require.main`.
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-require-imports': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      'no-empty': ['error', { allowEmptyCatch: true }],
      'no-undef': 'off', // TypeScript checks names
      // A handler registered before the value it reads exists (a query before the run's first state) needs its let.
      'prefer-const': ['warn', { ignoreReadBeforeAssign: true }],
    },
  },
  { files: ['test/**/*.ts'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  { files: ['workflows/**/*.ts', 'core/**/*.ts'], rules: deterministic },
  // Imports go downward only: activities/ import core/ (never workflows/, the client or the
  // workers); the client reaches workflows through workflows/index. What two layers share (ids,
  // result shapes, helpers) lives in core/.
  {
    files: ['activities/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/workflows', '**/workflows/**', '**/client/**', '**/workers/**'],
              message: 'activities import core/ only: move what they share with workflows or the client into core/.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['client/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/workflows/*'], message: 'the client reaches workflows through workflows/index (the workflows and their messages); shared helpers live in core/.' },
          ],
        },
      ],
    },
  },
);
