/**
 * `npm run bench -- cluster`: the throughput bench (bench/throughput.ts: the pipeline
 * against the floor of the same shape, interleaved and repeated) on the local cluster
 * instead of the dev server: Temporal as separate services on PostgreSQL, SeaweedFS as
 * master, volume servers, filer and S3 gateway. Floor and pipeline run on the same
 * cluster; "Temporal server CPU" adds up the four services and PostgreSQL, "S3 server CPU"
 * every SeaweedFS process. Brings the cluster up (`infra up --cluster`) first.
 * Env: as bench/throughput.ts; BENCH_SHAPES defaults to one-scope here.
 */
import { clusterEnv, clusterUp } from '../infra/cluster';
import { readState } from '../infra';
import { run as throughput } from './throughput';
import type { BenchContext, BenchFigures } from './support/types';

export async function run(ctx: BenchContext): Promise<BenchFigures> {
  const cluster = await clusterUp({ log: (l) => ctx.log(`[cluster] ${l}`) });
  Object.assign(process.env, clusterEnv(cluster));
  process.env.BENCH_SHAPES ??= 'one-scope';
  const pids = (prefix: string) =>
    Object.values(cluster.processes)
      .filter((p) => p.name.startsWith(prefix))
      .map((p) => p.pid);
  const model = readState().services.model!.pid;
  ctx.log(`on the cluster: Temporal frontend ${process.env.TEMPORAL_ADDRESS}, S3 gateway ${process.env.S3_ENDPOINT}`);
  return throughput(ctx, { s3: pids('weed-'), temporal: [...pids('temporal-'), ...pids('postgres')], model });
}
