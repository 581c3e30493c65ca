/**
 * Learning throughput and latency against the floor of the design (bench/floor: the same
 * workflow shape with no-op activities), on the same Temporal server with the same worker
 * settings, each worker in its own process so its CPU can be read from /proc.
 *
 *   batches   N jobs submitted at once, floor/pipeline/floor interleaved, PAIRS times, for
 *             two shapes of the pipeline:
 *               one-scope      N sessions of ONE app finishing at once, each creating its
 *                              own skill (the main workload: the scope's index workflow
 *                              takes their publications in bursts)
 *               scope-per-job  every job in a scope of its own (the worst case: each
 *                              job also starts that scope's index workflow)
 *             against two floors of the same shape, each measured before and after every
 *             pipeline batch:
 *               floor          the job's shape: its S3 steps local activities where the job's
 *                              are, and its publication signalling the scope's index entity
 *                              and the scope's usage entity (one each for the one scope, one
 *                              each per job's scope), each taking the signals in bursts of a
 *                              local activity
 *               issue-floor    every step a task-queue activity, no entity (the job's
 *                              shape when issue 8 set its goals)
 *               (BENCH_FLOORS=floor,floor-without-usage,floor-without-index,issue-floor adds
 *               the job's shape without the usage entity, and without either entity)
 *             throughput ratio = pipeline / mean(floor before, floor after); latency
 *             p50/p99 from submission to the job's close time (server clock); the
 *             publication step's p50/p90 (start to close, from 25 jobs' histories per
 *             batch); CPU per job of the worker process, the S3 server, the Temporal
 *             server, the model server, this process, and all of them
 *   one job   one job at a time, alternating floor and pipeline: p50 latency ratio
 *   submit    startLearningJob vs a bare signalWithStart of the floor's session entity,
 *             sequential and 20-way, alternating rounds
 *
 * Env: BENCH_N (default 100), BENCH_PAIRS (default 3), BENCH_FLOORS (default floor,issue-floor), BENCH_SINGLE (default 10),
 * BENCH_SUBMIT_ROUNDS (default 3), BENCH_WARMUP (jobs per kind and shape before the first batch, default 20), BENCH_CPU_PROF=DIR (each worker writes V8 CPU profiles,
 * one per thread, under DIR/pipeline and DIR/floor when it stops), BENCH_SHAPES (default
 * one-scope,scope-per-job), BENCH_NODE_FLAGS (node flags for both workers, e.g. V8 heap settings),
 * BENCH_WORKER_LOG=FILE (the pipeline worker's output; the floor worker's in FILE.floor), BENCH_THREADS=1
 * (each batch's worker CPU per job by thread: the main thread, the workflow thread, V8's
 * helpers for GC and compilation, Temporal's core; each as user + system time), BENCH_GC=1
 * (both workers run with --trace-gc; each batch's collections per job by isolate: how many,
 * how long they held the main or the workflow thread, MB freed).
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, Connection, WorkflowNotFoundError, type WorkflowHandle } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { createSkillStore } from '../storage';
import { loadConfig } from '../runtime/config';
import { startLearningJob } from '../client/learning';
import { readState } from '../infra';
import { REPO_ROOT, stateDir } from '../infra/paths';
import { DIST, ensureBuild } from '../runtime/build-state';
import { scopeIndexWorkflowId } from '../core/workflow-ids';
import { FLOOR_JOB_STEPS } from './floor/workflows';
import { distinctSkillName, sessionCreating } from '../test/support/publication';
import { completeLinesEnd, gcPerJob, isolateNames, parseGcTrace } from './support/gc-trace';
import { cpuMs, startProcess, threadCpuMs, treeCpuMs, type StartedProcess, type ThreadCpu } from './support/processes';
import { median, percentile, spread } from './support/stats';
import type { BenchContext, BenchFigures } from './support/types';

type Kind = 'floor' | 'floor-without-usage' | 'floor-without-index' | 'issue-floor' | 'pipeline';
type FloorKind = Exclude<Kind, 'pipeline'>;
/**
 * The floors: the job's shape now (with the scope's index and usage entities), and the shape
 * issue 8 measured against (every step a task-queue activity, no entity). BENCH_FLOORS may
 * add `floor-without-usage` (the floor before usage attribution made the scope's usage
 * workflow part of the job's shape) and `floor-without-index` (neither entity: the floor
 * before the index entity was part of it).
 */
const FLOORS = (process.env.BENCH_FLOORS ?? 'floor,issue-floor').split(',') as FloorKind[];
const processOf = (kind: Kind): 'floor' | 'pipeline' => (kind === 'pipeline' ? 'pipeline' : 'floor');
type Shape = 'one-scope' | 'scope-per-job';
// BENCH_SHAPES=one-scope or scope-per-job measures one shape only.
const SHAPES = (process.env.BENCH_SHAPES ?? 'one-scope,scope-per-job').split(',') as Shape[];

interface BatchResult {
  kind: Kind;
  jobsPerSecond: number;
  latenciesMs: number[];
  /** Start to close of the publication step (recordAndPublishRevision, or the floor's step in its place) of a sample of the batch's jobs. */
  publicationMs: number[];
  workerCpuMsPerJob: number;
  s3CpuMsPerJob: number;
  temporalCpuMsPerJob: number;
  /** The local model server (the pipeline's reviewer calls; idle for the floors). */
  modelCpuMsPerJob: number;
  /** This process: submitting the jobs and waiting for them. */
  clientCpuMsPerJob: number;
}

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

/** The server processes whose CPU each batch reads: the dev stack's by default, a cluster's several (bench/cluster.ts). */
export interface ServerProcesses {
  s3: number[];
  temporal: number[];
  model: number;
}

function devStackServers(): ServerProcesses {
  const infra = readState();
  return { s3: [infra.services.s3!.pid], temporal: [infra.services.temporal!.pid], model: infra.services.model!.pid };
}

/** With their children: PostgreSQL serves each connection in a child process. */
const sumCpuMs = (pids: number[]) => pids.reduce((sum, pid) => sum + treeCpuMs(pid), 0);

export async function run(ctx: BenchContext, servers: ServerProcesses = devStackServers()): Promise<BenchFigures> {
  const N = num('BENCH_N', 100);
  const PAIRS = num('BENCH_PAIRS', 3);
  const SINGLE = num('BENCH_SINGLE', 10);
  const SUBMIT_ROUNDS = num('BENCH_SUBMIT_ROUNDS', 3);
  // Enough jobs for V8 to have compiled the pipeline's hot code before the first measured batch (5 left the first one at about 0.75x).
  const WARMUP = num('BENCH_WARMUP', 20);
  const profDir = process.env.BENCH_CPU_PROF;
  // Node flags for both workers alike (an A/B of V8 settings keeps "same worker settings").
  const nodeFlags = (process.env.BENCH_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
  const traceGc = process.env.BENCH_GC === '1';
  if (traceGc) nodeFlags.push('--trace-gc');
  const nodeArgs = (kind: 'floor' | 'pipeline') => [...nodeFlags, ...(profDir ? ['--cpu-prof', `--cpu-prof-dir=${join(profDir, kind)}`] : [])];
  if (!ensureBuild((l) => ctx.log(l))) throw new Error('throughput bench: needs a current build (npm run build)');
  if (nodeFlags.length) ctx.log(`both workers run with node ${nodeFlags.join(' ')}`);
  const config = loadConfig();
  const modelPid = servers.model;
  const runId = randomUUID().slice(0, 8);

  ctx.log('bundling the floor workflows …');
  const floorBundle = join(stateDir(), 'bench-floor-bundle.js');
  writeFileSync(floorBundle, (await bundleWorkflowCode({ workflowsPath: join(__dirname, 'floor', 'workflows.ts'), logger: new DefaultLogger('WARN') })).code);

  const pipeQueue = `bench-pipe-${runId}`;
  const floorQueue = `bench-floor-${runId}`;
  const workers: Record<'floor' | 'pipeline', StartedProcess> = {
    pipeline: await startProcess(process.execPath, [...nodeArgs('pipeline'), join(REPO_ROOT, 'bin', 'evolution.js'), 'worker'], {
      cwd: REPO_ROOT,
      env: { EVOLUTION_TASK_QUEUE: pipeQueue, EVOLUTION_HUMAN_GATE: 'none', EVOLUTION_SHADOW_MODE: 'false' },
      readyLine: '[worker] polling',
    }),
    // Compiled, as the pipeline's worker is: under tsx, every function the workflow thread
    // compiles (the SDK compiles one per promise) also went through tsx's source-map hooks.
    floor: await startProcess(process.execPath, [...nodeArgs('floor'), join(DIST, 'bench', 'floor', 'worker.js')], {
      cwd: REPO_ROOT,
      env: { FLOOR_TASK_QUEUE: floorQueue, FLOOR_BUNDLE: floorBundle, FLOOR_CACHE_SIZE: String(config.runtime.maxCachedWorkflows) },
      readyLine: '[worker] polling',
    }),
  };
  const connection = await Connection.connect({ address: config.temporal.address });
  const client = new Client({ connection, namespace: config.temporal.namespace });
  const store = createSkillStore(config.s3);
  const pipeConfig = { ...config, temporal: { ...config.temporal, taskQueue: pipeQueue } };
  let seq = 0;
  /** Every session and index entity this run started: terminated at the end (they idle for 10 minutes or more). */
  const sessions: string[] = [];
  const entities = new Set<string>();

  /** Submits one job of `kind`; returns its job workflow id. Every pipeline job reviews, creates and publishes one skill of its own. */
  async function submit(kind: Kind, shape: Shape = 'scope-per-job'): Promise<string> {
    const i = seq++;
    if (kind === 'pipeline') {
      const app = shape === 'one-scope' ? `bench-${runId}` : `bench-${runId}-${i}`;
      const started = await startLearningJob(
        { client, store, config: pipeConfig },
        { app, user: 'u', sessionId: `s${i}`, scopeMode: 'app', events: sessionCreating(distinctSkillName(runId, i)) },
      );
      sessions.push(started.sessionWorkflowId);
      entities.add(scopeIndexWorkflowId(started.scopeKey));
      return started.jobWorkflowId;
    }
    const jobWorkflowId = `floor-job/${runId}/${i}`;
    sessions.push(`floor-session/${runId}/${i}`);
    // As the pipeline's: one index entity for the one scope, or one per job's scope.
    const perScope = (entity: string) => (shape === 'one-scope' ? `${entity}/${runId}` : `${entity}/${runId}/${i}`);
    const indexWorkflowId = kind === 'floor' || kind === 'floor-without-usage' ? perScope('floor-index') : undefined;
    const usageWorkflowId = kind === 'floor' ? perScope('floor-usage') : undefined;
    if (indexWorkflowId) entities.add(indexWorkflowId);
    if (usageWorkflowId) entities.add(usageWorkflowId);
    await client.workflow.signalWithStart('floorSessionWorkflow', {
      workflowId: `floor-session/${runId}/${i}`,
      taskQueue: floorQueue,
      args: [{}],
      signal: 'submitSegment',
      signalArgs: [
        {
          segmentId: `${runId}-${i}`,
          jobWorkflowId,
          allRemote: kind === 'issue-floor',
          ...(indexWorkflowId ? { indexWorkflowId } : {}),
          ...(usageWorkflowId ? { usageWorkflowId } : {}),
        },
      ],
    });
    return jobWorkflowId;
  }

  /**
   * The job's close time by the server's clock. A job starts once its session's workflow task
   * has run, seconds after submission in a backlog: until then the look backs off, so a batch's
   * waiting adds no load of its own to the server it measures (at a fixed 50 ms, 100 jobs made
   * about 65 look-ups each, some 300 requests/s).
   */
  async function closeTime(jobWorkflowId: string): Promise<number> {
    for (let pause = 50; ; pause = Math.min(2 * pause, 1_000)) {
      try {
        const handle = client.workflow.getHandle(jobWorkflowId);
        await handle.result();
        return (await handle.describe()).closeTime!.getTime();
      } catch (e) {
        if (!(e instanceof WorkflowNotFoundError)) throw e;
        await new Promise((r) => setTimeout(r, pause));
      }
    }
  }

  async function batch(kind: Kind, n: number, shape?: Shape): Promise<BatchResult> {
    const worker0 = cpuMs(workers[processOf(kind)].pid);
    const threads0 = threadCpuMs(workers[processOf(kind)].pid);
    const output0 = completeLinesEnd(workers[processOf(kind)].output());
    const s30 = sumCpuMs(servers.s3);
    const temporal0 = sumCpuMs(servers.temporal);
    const model0 = treeCpuMs(modelPid);
    const client0 = process.cpuUsage();
    const t0 = Date.now();
    const submitted = await Promise.all(Array.from({ length: n }, async () => ({ at: Date.now(), jobId: await submit(kind, shape) })));
    const closed = await Promise.all(submitted.map(async (s) => ({ ...s, closedAt: await closeTime(s.jobId) })));
    const end = Math.max(...closed.map((c) => c.closedAt));
    const clientCpu = process.cpuUsage(client0);
    if (process.env.BENCH_THREADS === '1' && n === N) logThreads(ctx, `${kind}${shape ? ` ${shape}` : ''}`, threads0, threadCpuMs(workers[processOf(kind)].pid), n);
    if (traceGc && n === N) logGc(ctx, `${kind}${shape ? ` ${shape}` : ''}`, workers[processOf(kind)].output(), output0, n);
    const result = {
      kind,
      jobsPerSecond: n / ((end - t0) / 1000),
      latenciesMs: closed.map((c) => c.closedAt - c.at),
      workerCpuMsPerJob: (cpuMs(workers[processOf(kind)].pid) - worker0) / n,
      s3CpuMsPerJob: (sumCpuMs(servers.s3) - s30) / n,
      temporalCpuMsPerJob: (sumCpuMs(servers.temporal) - temporal0) / n,
      modelCpuMsPerJob: (treeCpuMs(modelPid) - model0) / n,
      clientCpuMsPerJob: (clientCpu.user + clientCpu.system) / 1000 / n,
    };
    // Read after the CPU figures: fetching histories is not the batch's work.
    const sample = closed.slice(0, PUBLICATION_SAMPLE);
    const publicationMs = (await Promise.all(sample.map(async (c) => publicationStepMs(await client.workflow.getHandle(c.jobId).fetchHistory())))).flat();
    return { ...result, publicationMs };
  }

  try {
    ctx.log(`warm-up (${WARMUP} jobs each) …`);
    for (const shape of SHAPES) for (const kind of [...FLOORS, 'pipeline'] as const) await batch(kind, WARMUP, shape);
    const floorBatches = async (shape: Shape) => {
      const floors = {} as Record<FloorKind, BatchResult>;
      for (const kind of FLOORS) floors[kind] = await batch(kind, N, shape);
      return floors;
    };

    // Per round and shape: floors, pipeline, floors (of that shape); each pipeline batch against the floors beside it.
    const pairs = Object.fromEntries(SHAPES.map((shape) => [shape, [] as Pair[]])) as Record<Shape, Pair[]>;
    for (let p = 0; p < PAIRS; p++) {
      for (const shape of SHAPES) {
        const before = await floorBatches(shape);
        const b = await batch('pipeline', N, shape);
        const after = await floorBatches(shape);
        pairs[shape].push({ floors: FLOORS.map((kind) => [before[kind], after[kind]] as [BatchResult, BatchResult]), pipeline: b });
        for (const kind of FLOORS) {
          const fl = (f: (r: BatchResult) => number) => (f(before[kind]) + f(after[kind])) / 2;
          ctx.log(
            `round ${p + 1}/${PAIRS}, ${shape} (N=${N}) vs ${kind}: ${fl((r) => r.jobsPerSecond).toFixed(2)} jobs/s, pipeline ${b.jobsPerSecond.toFixed(2)} jobs/s → ${(b.jobsPerSecond / fl((r) => r.jobsPerSecond)).toFixed(2)}x; ` +
              `worker CPU/job ${b.workerCpuMsPerJob.toFixed(0)} vs ${fl((r) => r.workerCpuMsPerJob).toFixed(0)} ms; S3 CPU/job ${b.s3CpuMsPerJob.toFixed(0)} vs ${fl((r) => r.s3CpuMsPerJob).toFixed(0)} ms`,
          );
        }
      }
    }
    const batches = SHAPES.flatMap((shape) => FLOORS.map((floor, i) => ({ shape, floor, ...batchFigures(pairs[shape], i) })));
    const ms = (v: number) => `${v.toFixed(0)} ms`;

    ctx.log(`one job at a time (${SINGLE} each, alternating) …`);
    const single: Record<'floor' | 'pipeline', number[]> = { floor: [], pipeline: [] };
    for (let i = 0; i < SINGLE; i++) {
      for (const kind of ['floor', 'pipeline'] as const) {
        const at = Date.now();
        const id = await submit(kind);
        single[kind].push((await closeTime(id)) - at);
      }
    }

    ctx.log('startLearningJob vs bare signalWithStart (sequential and 20-way, alternating rounds) …');
    const calls = { seqBare: [] as number[], seqStart: [] as number[], parBare: [] as number[], parStart: [] as number[] };
    const submittedJobs: string[] = [];
    const timed = async (kind: Kind) => {
      const t = performance.now();
      submittedJobs.push(await submit(kind));
      return performance.now() - t;
    };
    for (let round = 0; round < SUBMIT_ROUNDS; round++) {
      for (let i = 0; i < 20; i++) calls.seqBare.push(await timed('floor'));
      for (let i = 0; i < 20; i++) calls.seqStart.push(await timed('pipeline'));
      calls.parBare.push(...(await Promise.all(Array.from({ length: 20 }, () => timed('floor')))));
      calls.parStart.push(...(await Promise.all(Array.from({ length: 20 }, () => timed('pipeline')))));
    }
    ctx.log(`draining the ${submittedJobs.length} jobs those calls started …`);
    await Promise.all(submittedJobs.map(closeTime));

    const figures = {
      n: N,
      pairs: PAIRS,
      jobSteps: FLOOR_JOB_STEPS,
      batches,
      singleJobLatencyMs: { floor: median(single.floor), pipeline: median(single.pipeline), ratio: median(single.pipeline) / median(single.floor) },
      submitMs: {
        sequential: { bare: median(calls.seqBare), startLearningJob: median(calls.seqStart), ratio: median(calls.seqStart) / median(calls.seqBare) },
        parallel20: { bare: median(calls.parBare), startLearningJob: median(calls.parStart), ratio: median(calls.parStart) / median(calls.parBare) },
      },
    };
    for (const f of batches) {
      ctx.log(`${f.shape} vs ${f.floor} (N=${N}, ${PAIRS} A/B/A pairs):`);
      ctx.log(`  throughput pipeline/floor    ${spread(f.throughputRatios)}   (${f.jobsPerSecond.pipeline.toFixed(2)} vs ${f.jobsPerSecond.floor.toFixed(2)} jobs/s)`);
      ctx.log(`  latency p50 pipeline/floor   ${spread(f.latencyP50Ms.ratios)}   (${ms(f.latencyP50Ms.pipeline)} vs ${ms(f.latencyP50Ms.floor)})`);
      ctx.log(`  latency p99 pipeline/floor   ${spread(f.latencyP99Ms.ratios)}   (${ms(f.latencyP99Ms.pipeline)} vs ${ms(f.latencyP99Ms.floor)})`);
      ctx.log(
        `  publication step p50 / p90   ${ms(f.publicationMs.pipeline.p50)} / ${ms(f.publicationMs.pipeline.p90)} vs ${ms(f.publicationMs.floor.p50)} / ${ms(f.publicationMs.floor.p90)}`,
      );
      ctx.log(`  worker CPU per job           ${spread(f.workerCpuMsPerJob.ratios)}   (${ms(f.workerCpuMsPerJob.pipeline)} vs ${ms(f.workerCpuMsPerJob.floor)})`);
      ctx.log(`  S3 server CPU per job        ${ms(f.s3CpuMsPerJob.pipeline)} vs ${ms(f.s3CpuMsPerJob.floor)}`);
      ctx.log(`  Temporal server CPU per job  ${spread(f.temporalCpuMsPerJob.ratios)}   (${ms(f.temporalCpuMsPerJob.pipeline)} vs ${ms(f.temporalCpuMsPerJob.floor)})`);
      ctx.log(`  model server CPU per job     ${ms(f.modelCpuMsPerJob.pipeline)} vs ${ms(f.modelCpuMsPerJob.floor)}`);
      ctx.log(`  bench client CPU per job     ${ms(f.clientCpuMsPerJob.pipeline)} vs ${ms(f.clientCpuMsPerJob.floor)}`);
      ctx.log(`  all of them, CPU per job     ${spread(f.totalCpuMsPerJob.ratios)}   (${ms(f.totalCpuMsPerJob.pipeline)} vs ${ms(f.totalCpuMsPerJob.floor)})`);
    }
    if (SINGLE > 0) {
      ctx.log(
        `one job at a time, p50         ${figures.singleJobLatencyMs.ratio.toFixed(2)}x   (${ms(figures.singleJobLatencyMs.pipeline)} vs ${ms(figures.singleJobLatencyMs.floor)})`,
      );
    }
    if (SUBMIT_ROUNDS > 0) {
      ctx.log(
        `startLearningJob/signalWithStart sequential ${figures.submitMs.sequential.ratio.toFixed(2)}x (${ms(figures.submitMs.sequential.startLearningJob)} vs ${ms(figures.submitMs.sequential.bare)}), 20-way ${figures.submitMs.parallel20.ratio.toFixed(2)}x (${ms(figures.submitMs.parallel20.startLearningJob)} vs ${ms(figures.submitMs.parallel20.bare)})`,
      );
    }
    return figures;
  } finally {
    // BENCH_WORKER_LOG=FILE keeps what the workers printed (the pipeline's warnings explain a slow run): FILE and FILE.floor.
    if (process.env.BENCH_WORKER_LOG) {
      writeFileSync(process.env.BENCH_WORKER_LOG, workers.pipeline.output());
      writeFileSync(`${process.env.BENCH_WORKER_LOG}.floor`, workers.floor.output());
    }
    await terminateAll(client, [...sessions, ...entities]);
    await connection.close();
    await Promise.all(Object.values(workers).map((w) => w.stop()));
  }
}

/** Ends the idle session entities, so no workflow of this run is left waiting for a worker that is gone. */
async function terminateAll(client: Client, workflowIds: string[]): Promise<void> {
  for (let i = 0; i < workflowIds.length; i += 20) {
    await Promise.all(
      workflowIds.slice(i, i + 20).map((id) =>
        client.workflow
          .getHandle(id)
          .terminate('benchmark finished')
          .catch(() => undefined),
      ),
    );
  }
}

const p50p90 = (values: number[]) => ({ p50: percentile(values, 50), p90: percentile(values, 90) });

/** Jobs per batch whose publication step is timed from their histories. */
const PUBLICATION_SAMPLE = 25;
/** A learning job's publication step, by the activity it runs (the issue-floor's job published in a step of its own). */
const PUBLICATION_STEPS = new Set(['recordAndPublishRevision', 'publishRevision']);

/** Start to close of a job's publication step: the pipeline's, or the floor's no-op standing for it. */
function publicationStepMs(history: Awaited<ReturnType<WorkflowHandle['fetchHistory']>>): number[] {
  const events = history.events ?? [];
  const byId = new Map(events.map((e) => [Number(e.eventId), e]));
  const at = (e: (typeof events)[number] | undefined) => (e?.eventTime ? Number(e.eventTime.seconds) * 1000 + (e.eventTime.nanos ?? 0) / 1e6 : Number.NaN);
  return events.flatMap((e) => {
    const done = e.activityTaskCompletedEventAttributes;
    if (!done) return [];
    const scheduled = byId.get(Number(done.scheduledEventId))?.activityTaskScheduledEventAttributes;
    const name = scheduled?.activityType?.name;
    const input = scheduled?.input?.payloads?.[0];
    const isPublication =
      PUBLICATION_STEPS.has(name ?? '') || (name === 'noop' && input && PUBLICATION_STEPS.has(defaultPayloadConverter.fromPayload<{ name: string }>(input).name));
    return isPublication ? [at(e) - at(byId.get(Number(done.startedEventId)))] : [];
  });
}

/** A batch's worker CPU per job by thread (name#tid), largest first. */
function logThreads(ctx: BenchContext, label: string, before: Record<string, ThreadCpu>, after: Record<string, ThreadCpu>, n: number): void {
  const all = Object.entries(after).map(([thread, cpu]) => ({
    thread,
    user: (cpu.user - (before[thread]?.user ?? 0)) / n,
    system: (cpu.system - (before[thread]?.system ?? 0)) / n,
  }));
  const shown = all.filter(({ user, system }) => user + system >= 0.5).sort((a, b) => b.user + b.system - (a.user + a.system));
  // The total counts every thread, also the ones too small to list.
  const total = (f: (t: (typeof all)[number]) => number) => all.reduce((sum, t) => sum + f(t), 0).toFixed(1);
  ctx.log(
    `  ${label}: worker CPU per job by thread (user+system ms): ${shown.map((t) => `${t.thread} ${t.user.toFixed(1)}+${t.system.toFixed(1)}`).join(', ')}; all threads ${total((t) => t.user)}+${total((t) => t.system)}`,
  );
}

/** A batch's collections per job by isolate, from the worker's --trace-gc lines printed during it (from `from`). */
function logGc(ctx: BenchContext, label: string, output: string, from: number, n: number): void {
  const names = isolateNames(parseGcTrace(output));
  const perJob = gcPerJob(parseGcTrace(output.slice(from, completeLinesEnd(output))), n, names);
  const kind = (k: { count: number; threadMs: number; freedMb: number }) => `${k.count.toFixed(2)}x ${k.threadMs.toFixed(2)} ms ${k.freedMb.toFixed(2)} MB`;
  const parts = [...perJob].map(([isolate, gc]) => `${isolate}: scavenge ${kind(gc.scavenge)}, mark-compact ${kind(gc['mark-compact'])}`);
  ctx.log(`  ${label}: GC per job (collections, time on the isolate's thread, MB freed): ${parts.join('; ') || 'none'}`);
}

/** A pipeline batch and, per floor (in FLOORS order), the batches of that floor before and after it. */
type Pair = { floors: [BatchResult, BatchResult][]; pipeline: BatchResult };

/** One shape's figures over its pairs against floor number `floor`: each ratio against the mean of that floor's batches beside it; medians of the pairs. */
function batchFigures(pairs: Pair[], floor: number) {
  const mean = (p: Pair, f: (r: BatchResult) => number) => (f(p.floors[floor]![0]) + f(p.floors[floor]![1])) / 2;
  const ratio = (f: (r: BatchResult) => number) => pairs.map((p) => f(p.pipeline) / mean(p, f));
  const floorMean = (f: (r: BatchResult) => number) => median(pairs.map((p) => mean(p, f)));
  const pipeMedian = (f: (r: BatchResult) => number) => median(pairs.map((p) => f(p.pipeline)));
  const p50 = (r: BatchResult) => percentile(r.latenciesMs, 50);
  const p99 = (r: BatchResult) => percentile(r.latenciesMs, 99);
  const totalCpu = (r: BatchResult) => r.workerCpuMsPerJob + r.s3CpuMsPerJob + r.temporalCpuMsPerJob + r.modelCpuMsPerJob + r.clientCpuMsPerJob;
  return {
    throughputRatio: median(ratio((r) => r.jobsPerSecond)),
    throughputRatios: ratio((r) => r.jobsPerSecond),
    jobsPerSecond: { floor: floorMean((r) => r.jobsPerSecond), pipeline: pipeMedian((r) => r.jobsPerSecond) },
    latencyP50Ms: { floor: floorMean(p50), pipeline: pipeMedian(p50), ratios: ratio(p50) },
    latencyP99Ms: { floor: floorMean(p99), pipeline: pipeMedian(p99), ratios: ratio(p99) },
    workerCpuMsPerJob: { floor: floorMean((r) => r.workerCpuMsPerJob), pipeline: pipeMedian((r) => r.workerCpuMsPerJob), ratios: ratio((r) => r.workerCpuMsPerJob) },
    s3CpuMsPerJob: { floor: floorMean((r) => r.s3CpuMsPerJob), pipeline: pipeMedian((r) => r.s3CpuMsPerJob) },
    temporalCpuMsPerJob: { floor: floorMean((r) => r.temporalCpuMsPerJob), pipeline: pipeMedian((r) => r.temporalCpuMsPerJob), ratios: ratio((r) => r.temporalCpuMsPerJob) },
    modelCpuMsPerJob: { floor: floorMean((r) => r.modelCpuMsPerJob), pipeline: pipeMedian((r) => r.modelCpuMsPerJob) },
    // Pooled over every batch of a kind: one job's step is the unit, not one batch's median.
    publicationMs: {
      floor: p50p90(pairs.flatMap((p) => p.floors[floor]!.flatMap((b) => b.publicationMs))),
      pipeline: p50p90(pairs.flatMap((p) => p.pipeline.publicationMs)),
    },
    clientCpuMsPerJob: { floor: floorMean((r) => r.clientCpuMsPerJob), pipeline: pipeMedian((r) => r.clientCpuMsPerJob) },
    totalCpuMsPerJob: { floor: floorMean(totalCpu), pipeline: pipeMedian(totalCpu), ratios: ratio(totalCpu) },
  };
}
