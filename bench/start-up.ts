/**
 * Start-up times people wait for, each next to `node -e 0` measured in the same rounds
 * (this machine's floor for starting any Node process):
 *   - `evolution help` from the build (bin/evolution.js), and through tsx as before the build;
 *   - the main worker (`evolution worker`) until it polls its task queue.
 * Rounds alternate the commands. Env: BENCH_ROUNDS (default 7).
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { REPO_ROOT } from '../infra/paths';
import { ensureBuild } from '../runtime/build-state';
import { startProcess, timeCommand } from './support/processes';
import { median, spread } from './support/stats';
import type { BenchContext, BenchFigures } from './support/types';

export async function run(ctx: BenchContext): Promise<BenchFigures> {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 7);
  if (!ensureBuild((l) => ctx.log(l))) throw new Error('start-up bench: needs a current build (npm run build)');
  const cli = join(REPO_ROOT, 'bin', 'evolution.js');
  const t = { node: [] as number[], help: [] as number[], helpTsx: [] as number[], worker: [] as number[] };
  for (let r = 0; r < rounds; r++) {
    t.node.push(await timeCommand(process.execPath, ['-e', '0']));
    t.help.push(await timeCommand(process.execPath, [cli, 'help']));
    t.helpTsx.push(await timeCommand(process.execPath, [cli, 'help'], { EVOLUTION_NO_BUILD: '1' }));
    const worker = await startProcess(process.execPath, [cli, 'worker'], {
      cwd: REPO_ROOT,
      env: { EVOLUTION_TASK_QUEUE: `bench-start-up-${randomUUID().slice(0, 8)}` },
      readyLine: '[worker] polling',
    });
    t.worker.push(worker.readyMs);
    await worker.stop();
  }
  const figures = {
    rounds,
    nodeMs: median(t.node),
    helpMs: median(t.help),
    helpTsxMs: median(t.helpTsx),
    workerReadyMs: median(t.worker),
    helpOverNode: spread(t.help.map((h, i) => h / t.node[i]!)),
  };
  ctx.log(`node -e 0                       ${spread(t.node, 0)} ms`);
  ctx.log(`evolution help (built)          ${spread(t.help, 0)} ms   (${figures.helpOverNode}x node -e 0; goal ≤ 400 ms)`);
  ctx.log(`evolution help (tsx, no build)  ${spread(t.helpTsx, 0)} ms`);
  ctx.log(`worker ready to poll            ${spread(t.worker, 0)} ms   (goal ≤ 2000 ms)`);
  return figures;
}
