/**
 * `npm run build`: the application compiled to CommonJS in dist/ (tsconfig.build.json)
 * and the workflow bundle prebuilt once (dist/workflow-bundle.js), so the CLI starts
 * without compiling TypeScript and the worker without running webpack. bin/evolution.js,
 * `npm test` and `npm run demo` call this themselves when dist/ is missing or stale.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, renameSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { DIST, ROOT, STAMP, WORKFLOW_BUNDLE } from '../runtime/build-state';
import { WORKFLOW_INTERCEPTOR_MODULES } from '../workers/worker';

async function main(): Promise<void> {
  const started = new Date();
  const t0 = Date.now();
  mkdirSync(DIST, { recursive: true });
  const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(ROOT, 'tsconfig.build.json')], { cwd: ROOT, stdio: 'inherit' });
  if (tsc.status !== 0) throw new Error(`tsc -p tsconfig.build.json failed (exit ${tsc.status})`);
  // Compiled code that asks whether the build is current needs this plain-JS helper beside it.
  mkdirSync(join(DIST, 'runtime'), { recursive: true });
  copyFileSync(join(ROOT, 'runtime', 'build-state.js'), join(DIST, 'runtime', 'build-state.js'));
  const t1 = Date.now();

  const bundle = await bundleWorkflowCode({
    workflowsPath: join(ROOT, 'workflows', 'index.ts'),
    payloadConverterPath: join(ROOT, 'workers', 'payload-converter.ts'),
    workflowInterceptorModules: WORKFLOW_INTERCEPTOR_MODULES,
    logger: new DefaultLogger('WARN'),
  });
  const tmp = `${WORKFLOW_BUNDLE}.${process.pid}.tmp`;
  writeFileSync(tmp, bundle.code);
  renameSync(tmp, WORKFLOW_BUNDLE);
  const t2 = Date.now();

  // The stamp carries the build's start time: a source saved during the build is newer.
  writeFileSync(STAMP, `${started.toISOString()}\n`);
  utimesSync(STAMP, started, started);
  console.error(`[build] compiled in ${((t1 - t0) / 1000).toFixed(1)} s, workflow bundle in ${((t2 - t1) / 1000).toFixed(1)} s (${(bundle.code.length / 1e6).toFixed(1)} MB)`);
}

main().catch((e) => {
  console.error(`[build] ${(e as Error).message}`);
  process.exit(1);
});
