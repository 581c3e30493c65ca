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

/**
 * The layers, bottom up, and what each may import besides itself (docs/architecture.md).
 * workflows/ may import activities/ for their types only (proxyActivities<Activities>).
 * scripts/, bench/ and test/ may import anything; nothing imports them.
 */
export const LAYERS = {
  core: [],
  storage: ['core'],
  codec: ['core'],
  activities: ['core', 'storage'],
  client: ['core', 'storage', 'codec'],
  workflows: ['core', { layer: 'activities', typesOnly: true }],
  runtime: ['core', 'storage', 'codec'],
  infra: ['core', 'storage', 'runtime'],
  workers: ['core', 'storage', 'codec', 'activities', 'workflows', 'runtime'],
  console: ['core', 'storage', 'codec', 'client', 'runtime'],
  evaluation: ['core', 'storage', 'codec', 'activities', 'client', 'runtime'],
  cli: ['core', 'storage', 'codec', 'activities', 'client', 'workflows', 'runtime', 'workers', 'console', 'infra', 'evaluation'],
};
const TOP_LEVEL = [...Object.keys(LAYERS), 'scripts', 'bench', 'test'];

/** Relative specifiers that reach a top-level folder from any depth (its name is unique in the tree). */
const reaching = (folder) => [1, 2, 3, 4, 5].flatMap((d) => [`${'../'.repeat(d)}${folder}`, `${'../'.repeat(d)}${folder}/**`]);

function layerRule(layer, allowed) {
  const names = allowed.map((a) => (typeof a === 'string' ? a : a.layer));
  const said = allowed.map((a) => (typeof a === 'string' ? a : `${a.layer} (types only)`));
  const message = `${layer}/ imports ${said.length ? `only ${said.join(', ')}` : 'nothing of ours'} (layers go downward: docs/architecture.md)`;
  const patterns = TOP_LEVEL.filter((f) => f !== layer && !names.includes(f)).map((f) => ({ group: reaching(f), message }));
  for (const a of allowed)
    if (typeof a !== 'string' && a.typesOnly)
      patterns.push({ group: reaching(a.layer), allowTypeImports: true, message: `${layer}/ imports ${a.layer}/ for types only (import type)` });
  return { patterns };
}

export default tseslint.config(
  { ignores: ['node_modules/**', '.evolution/**', 'dist/**', 'client/dist/**', 'schemas/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
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
  // Layers: imports go downward only (test/unit/layers.test.ts checks the resolved graph too).
  ...Object.entries(LAYERS).map(([layer, allowed]) => ({
    files: [`${layer}/**/*.ts`],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', layerRule(layer, allowed)] },
  })),
);
