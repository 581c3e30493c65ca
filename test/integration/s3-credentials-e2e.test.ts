import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SkillRepository } from '../../client/skill-repository';
import type { EvolutionConfig } from '../../core';
import { REPO_ROOT } from '../../infra/paths';
import { createS3Client, createSkillStore, type S3Client } from '../../storage';
import { CREDENTIAL_VARIABLES, writeAwsProfiles } from '../support/aws-profiles';
import { realServices, uniqueName } from '../support/infra';
import { pollUntil, startWorkerProcess, type WorkerProcess } from '../support/worker-process';

/**
 * The "done when": with no S3_ACCESS_KEY_ID anywhere, credentials from a profile and
 * from an expiring credential_process carry a skill end to end — a worker process learns it,
 * the CLI approves it, an agent's SkillRepository loads it — every one of them through the AWS
 * SDK's credential chain.
 */
const run = promisify(execFile);
const profiles = writeAwsProfiles();
let services: EvolutionConfig;
const workers: WorkerProcess[] = [];
const clients: S3Client[] = [];

/** A process environment with the services and a profile, and no credentials of any other kind (no local-infra fallback either). */
function environment(profile: string, taskQueue: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of CREDENTIAL_VARIABLES) delete env[name];
  return {
    ...env,
    EVOLUTION_IGNORE_LOCAL_INFRA: '1',
    TEMPORAL_ADDRESS: services.temporal.address,
    TEMPORAL_NAMESPACE: services.temporal.namespace,
    S3_ENDPOINT: services.s3.endpoint!,
    S3_BUCKET: services.s3.bucket,
    OPENAI_BASE_URL: services.llm.baseURL,
    EVOLUTION_TASK_QUEUE: taskQueue,
    EVOLUTION_HUMAN_GATE: 'create_only',
    ...profiles.env(profile),
  };
}

async function evolution(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  const { stdout } = await run(process.execPath, [join(REPO_ROOT, 'bin', 'evolution.js'), ...args], { cwd: REPO_ROOT, env, timeout: 180_000 });
  return stdout;
}

beforeAll(async () => {
  services = await realServices();
  // This process (the agent's side) too: the profiles' files, nothing else.
  for (const name of CREDENTIAL_VARIABLES) delete process.env[name];
  Object.assign(process.env, { AWS_CONFIG_FILE: profiles.configFile, AWS_SHARED_CREDENTIALS_FILE: profiles.credentialsFile, AWS_EC2_METADATA_DISABLED: 'true' });
});

afterAll(async () => {
  for (const c of clients) c.destroy();
  await Promise.all(workers.map((w) => Promise.race([w.kill('SIGTERM'), new Promise((r) => setTimeout(r, 15_000))]).then(() => w.kill('SIGKILL'))));
});

/** learn (worker) → approve (CLI) → load (agent), all with `profile`; returns the worker. */
async function learnApproveLoad(profile: string, beforeApproval: () => Promise<void> = async () => {}): Promise<{ worker: WorkerProcess; agentClient: S3Client }> {
  const taskQueue = uniqueName('s3-credentials-e2e');
  const env = environment(profile, taskQueue);
  expect(env.S3_ACCESS_KEY_ID).toBeUndefined();
  const worker = startWorkerProcess({}, env);
  workers.push(worker);
  await worker.ready;

  const app = uniqueName('s3-chain');
  const learned = JSON.parse(
    await evolution(['learn', '--app', app, '--user', 'u', '--session', 's1', '--events', 'examples/sessions/weather-report.json', '--wait', '--json'], env),
  ) as { outcome: { status: string; revisions: { revisionId: string; status: string }[] } };
  expect(learned.outcome.status).toBe('reviewed');
  const revision = learned.outcome.revisions[0]!;
  expect(revision.status).toBe('pending_approval');

  await beforeApproval();
  expect(await evolution(['approve', revision.revisionId, '--reviewer', 'maria'], env)).toContain(`${revision.revisionId}: approved by maria; status now active`);

  // The agent: a SkillRepository on a store with no keys, through the same profile.
  const agentClient = createS3Client({ endpoint: services.s3.endpoint, bucket: services.s3.bucket, forcePathStyle: true, profile });
  clients.push(agentClient);
  const repo = new SkillRepository(createSkillStore({ endpoint: services.s3.endpoint, bucket: services.s3.bucket, forcePathStyle: true, profile }, agentClient), {
    mode: 'app',
    app,
  });
  await pollUntil('the approved skill in the scope index', async () => (await repo.refresh(), (await repo.list()).some((s) => s.name === 'multi-city-weather-report')), 60_000);
  const loaded = await repo.load('multi-city-weather-report');
  expect(loaded.revisionId).toBe(revision.revisionId);
  expect(loaded.markdown).toContain('## Steps');
  return { worker, agentClient };
}

describe('the AWS SDK credential chain end to end: learn → approve → an agent loads the skill, no S3 keys configured', () => {
  it('credentials from a named profile (AWS_PROFILE, shared credentials file)', async () => {
    const { agentClient } = await learnApproveLoad('alt-1');
    expect(agentClient.credentialSource()).toBe('profile `alt-1`');
  }, 300_000);

  it('credentials from an expiring credential_process, which the worker calls again mid-run', async () => {
    const calls0 = profiles.credentialProcessCalls().length;
    // The credentials live 4 s in the SDK's eyes: waiting 5 s before the approval makes the
    // worker's next S3 requests (the publication) fall in the refresh window.
    const { worker, agentClient } = await learnApproveLoad('rotating', () => new Promise((r) => setTimeout(r, 5_000)));
    const calls = profiles.credentialProcessCalls().slice(calls0);
    const fromWorker = calls.filter((c) => c.callers.includes(worker.child.pid!));
    expect(fromWorker.length).toBeGreaterThanOrEqual(2);
    // Both identities were handed out, and every process of the run (worker, CLI, agent) called it.
    expect(new Set(calls.map((c) => c.accessKeyId)).size).toBe(2);
    expect(calls.length).toBeGreaterThan(fromWorker.length);
    expect(agentClient.credentialSource()).toBe('the credential_process of profile `rotating`');
  }, 300_000);
});
