import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAIClient } from '../../activities/llm/openai-client';
import { createS3Client } from '../../storage/s3-client';
import { loadConfig } from '../../runtime/config';
import { connectTemporal, TemporalConnectionError } from '../../runtime/connection';
import { ConfigError } from '../../core';
import { infraEnv, infraUp } from '../../infra';
import { REPO_ROOT } from '../../infra/paths';
import { connectWorkerTemporal } from '../../workers/connection';
import { createSkillStore } from '../../storage';
import { startLearningJob, waitForLearningJob } from '../../client/learning';
import { uniqueName } from '../support/infra';
import { exampleSession } from '../support/sessions';
import { generatePki, startTlsProxy, type TestPki, type TlsProxy } from '../support/tls';
import { startMainWorker } from '../support/worker';

/**
 * Real TLS: TLS-terminating proxies (certificates from a CA made by `openssl` here) in front
 * of the local Temporal dev server, SeaweedFS and the model server. Clients configured the
 * standard way (TEMPORAL_* variables, a Temporal config profile, EVOLUTION_*_CA_FILE) get
 * through; clients without TLS, without the CA or without a client certificate are refused
 * with an error that says what to set.
 */
let pki: TestPki;
let local: Record<string, string>;
let temporalTls: TlsProxy;
let temporalMtls: TlsProxy;
let s3Tls: TlsProxy;
let modelTls: TlsProxy;

/** Only what the test names: no TEMPORAL_* from the outer environment. */
function env(extra: Record<string, string>): Record<string, string> {
  const base = Object.fromEntries(Object.entries(local).filter(([k]) => !k.startsWith('TEMPORAL_')));
  return { ...base, EVOLUTION_IGNORE_LOCAL_INFRA: '1', HOME: pki.dir, ...extra };
}

const tlsTo = (proxy: TlsProxy, extra: Record<string, string> = {}) =>
  env({ TEMPORAL_ADDRESS: `localhost:${proxy.port}`, TEMPORAL_TLS: 'true', TEMPORAL_TLS_SERVER_CA_CERT_PATH: pki.caCert, ...extra });

async function systemInfo(e: Record<string, string>): Promise<string> {
  const t = await connectTemporal(loadConfig(e));
  try {
    const info = await t.client.workflowService.getSystemInfo({});
    return info.serverVersion ?? '';
  } finally {
    await t.close();
  }
}

beforeAll(async () => {
  const state = await infraUp({ only: ['temporal', 's3', 'model'] });
  local = infraEnv(state);
  pki = generatePki();
  temporalTls = await startTlsProxy({ target: local.TEMPORAL_ADDRESS!, pki });
  temporalMtls = await startTlsProxy({ target: local.TEMPORAL_ADDRESS!, pki, requireClientCert: true });
  s3Tls = await startTlsProxy({ target: local.S3_ENDPOINT!, pki });
  modelTls = await startTlsProxy({ target: local.OPENAI_BASE_URL!, pki });
});

afterAll(async () => {
  await Promise.all([temporalTls, temporalMtls, s3Tls, modelTls].map((p) => p?.close()));
});

describe('Temporal over TLS', () => {
  it('the client and the worker connect with TLS and the CA of the server', async () => {
    expect(await systemInfo(tlsTo(temporalTls))).not.toBe('');
    const native = await connectWorkerTemporal(loadConfig(tlsTo(temporalTls)));
    try {
      const info = await native.workflowService.getSystemInfo({});
      expect(info.capabilities).toBeTruthy();
    } finally {
      await native.close();
    }
  });

  it('a plain-text client is refused, with a hint to turn TLS on', async () => {
    const e = env({ TEMPORAL_ADDRESS: `127.0.0.1:${temporalTls.port}` });
    const err = await systemInfo(e).catch((x: unknown) => x);
    expect(err).toBeInstanceOf(TemporalConnectionError);
    expect((err as Error).message).toContain(`127.0.0.1:${temporalTls.port}`);
    expect((err as Error).message).toContain('TEMPORAL_TLS=true');
  });

  it('a client that does not trust the server certificate is refused, naming TEMPORAL_TLS_SERVER_CA_CERT_PATH', async () => {
    for (const e of [tlsTo(temporalTls, { TEMPORAL_TLS_SERVER_CA_CERT_PATH: pki.otherCaCert }), env({ TEMPORAL_ADDRESS: `localhost:${temporalTls.port}`, TEMPORAL_TLS: 'true' })]) {
      const err = await systemInfo(e).catch((x: unknown) => x);
      expect(err).toBeInstanceOf(TemporalConnectionError);
      expect((err as Error).message).toContain('not trusted');
      expect((err as Error).message).toContain('TEMPORAL_TLS_SERVER_CA_CERT_PATH');
    }
  });

  it('mutual TLS: refused without a client certificate, accepted with one (client and worker)', async () => {
    const err = await systemInfo(tlsTo(temporalMtls)).catch((x: unknown) => x);
    expect(err).toBeInstanceOf(TemporalConnectionError);
    expect((err as Error).message).toContain('TEMPORAL_TLS_CLIENT_CERT_PATH');
    expect(temporalMtls.rejected).toBeGreaterThan(0);

    const mtls = tlsTo(temporalMtls, { TEMPORAL_TLS_CLIENT_CERT_PATH: pki.clientCert, TEMPORAL_TLS_CLIENT_KEY_PATH: pki.clientKey });
    expect(await systemInfo(mtls)).not.toBe('');
    const native = await connectWorkerTemporal(loadConfig(mtls));
    await native.close();
  });

  it('a worker that reaches Temporal only over mutual TLS publishes a learning job end to end (the scope index is reached with the same settings)', async () => {
    const base = loadConfig(tlsTo(temporalMtls, { TEMPORAL_TLS_CLIENT_CERT_PATH: pki.clientCert, TEMPORAL_TLS_CLIENT_KEY_PATH: pki.clientKey }));
    const w = await startMainWorker({ ...base, governance: { ...base.governance, humanGate: 'none', approvalTimeoutMs: undefined, shadowMode: false } });
    try {
      const store = createSkillStore(w.config.s3);
      const started = await startLearningJob(
        { client: w.client, store, config: w.config },
        { app: uniqueName('mtls'), user: 'u1', sessionId: 's1', events: exampleSession('weather-report') },
      );
      const outcome = await waitForLearningJob(w, started.jobWorkflowId, { timeoutMs: 90_000 });
      expect(outcome.revisions).toMatchObject([{ action: 'create', status: 'active', name: 'multi-city-weather-report' }]);
      const index = await store.readScopeIndex(started.scopeKey);
      expect(index && !index.notModified && index.index.skills.map((e) => e.name)).toEqual(['multi-city-weather-report']);
    } finally {
      await w.stop();
    }
  }, 180_000);

  it('a Temporal config profile (TOML) selected by TEMPORAL_PROFILE carries address, namespace and mTLS', async () => {
    const file = join(pki.dir, 'temporal.toml');
    writeFileSync(
      file,
      [
        '[profile.secure]',
        `address = "localhost:${temporalMtls.port}"`,
        'namespace = "default"',
        '[profile.secure.tls]',
        `server_ca_cert_path = "${pki.caCert}"`,
        `client_cert_path = "${pki.clientCert}"`,
        `client_key_path = "${pki.clientKey}"`,
      ].join('\n'),
    );
    const e = env({ TEMPORAL_CONFIG_FILE: file, TEMPORAL_PROFILE: 'secure' });
    expect(loadConfig(e).temporal.address).toBe(`localhost:${temporalMtls.port}`);
    expect(await systemInfo(e)).not.toBe('');
    expect(() => loadConfig(env({ TEMPORAL_CONFIG_FILE: file, TEMPORAL_PROFILE: 'missing' }))).toThrow(/profile "missing".*not found/i);
    expect(() => loadConfig(env({ TEMPORAL_CONFIG_FILE: join(pki.dir, 'nope.toml') }))).toThrow(/TEMPORAL_CONFIG_FILE .*file not found/);
  });

  it('the CLI connects through the same settings, and says what is wrong when it cannot', async () => {
    // Asynchronous: the proxies live in this process.
    const cli = (e: Record<string, string>) =>
      new Promise<{ status: number | null; stderr: string }>((resolve) => {
        const child = spawn(join(REPO_ROOT, 'node_modules', '.bin', 'tsx'), ['cli/main.ts', 'schedule', 'list', '--json'], {
          cwd: REPO_ROOT,
          env: { PATH: process.env.PATH!, ...e },
        });
        let stderr = '';
        child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
        child.on('close', (status) => resolve({ status, stderr }));
      });
    const ok = await cli(tlsTo(temporalMtls, { TEMPORAL_TLS_CLIENT_CERT_PATH: pki.clientCert, TEMPORAL_TLS_CLIENT_KEY_PATH: pki.clientKey }));
    expect(ok.stderr).toBe('');
    expect(ok.status).toBe(0);
    const refused = await cli(tlsTo(temporalMtls));
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('TemporalConnectionError');
    expect(refused.stderr).toContain('TEMPORAL_TLS_CLIENT_CERT_PATH');
  });

  it('bad TLS files are named before any connection is tried', () => {
    const withClient = (cert: string, key: string) => tlsTo(temporalMtls, { TEMPORAL_TLS_CLIENT_CERT_PATH: cert, TEMPORAL_TLS_CLIENT_KEY_PATH: key });
    expect(() => loadConfig(withClient(pki.clientCert, join(pki.dir, 'missing.key')))).toThrow(ConfigError);
    expect(() => loadConfig(withClient(pki.clientCert, join(pki.dir, 'missing.key')))).toThrow(/TEMPORAL_TLS_CLIENT_KEY_PATH \(.*missing\.key\): file not found/);
    expect(() => loadConfig(withClient(pki.clientKey, pki.clientKey))).toThrow(/TEMPORAL_TLS_CLIENT_CERT_PATH \(.*\): not a PEM certificate/);
    expect(() => loadConfig(withClient(pki.clientCert, pki.serverKey))).toThrow(/TEMPORAL_TLS_CLIENT_KEY_PATH .*does not belong to the client certificate/);
    expect(() => loadConfig(tlsTo(temporalTls, { TEMPORAL_TLS_SERVER_CA_CERT_PATH: pki.serverKey }))).toThrow(/TEMPORAL_TLS_SERVER_CA_CERT_PATH .*not a PEM certificate/);
    expect(() => loadConfig(tlsTo(temporalTls, { TEMPORAL_TLS_CLIENT_CERT_PATH: pki.clientCert }))).toThrow(/set TEMPORAL_TLS_CLIENT_KEY_PATH too/);
  });
});

describe('S3 and OpenAI endpoints behind a private CA', () => {
  const s3Env = (extra: Record<string, string>) => env({ S3_ENDPOINT: `https://localhost:${s3Tls.port}`, ...extra });

  it('S3 over https is trusted with EVOLUTION_S3_CA_FILE and refused without it', async () => {
    const trusted = createS3Client(loadConfig(s3Env({ EVOLUTION_S3_CA_FILE: pki.caCert })).s3);
    const bucket = loadConfig(s3Env({})).s3.bucket;
    const listed = await trusted.listObjects(bucket, '');
    expect(Array.isArray(listed.keys)).toBe(true);
    const untrusted = createS3Client(loadConfig(s3Env({})).s3);
    await expect(untrusted.listObjects(bucket, '')).rejects.toThrow(/certificate/i);
    expect(() => createS3Client(loadConfig(s3Env({ EVOLUTION_S3_CA_FILE: join(pki.dir, 'none.pem') })).s3)).toThrow(/EVOLUTION_S3_CA_FILE \(.*none\.pem\): file not found/);
  });

  it('the OpenAI endpoint over https is trusted with EVOLUTION_OPENAI_CA_FILE and refused without it', async () => {
    const baseURL = `https://localhost:${modelTls.port}/v1`;
    const trusted = createOpenAIClient(loadConfig(env({ OPENAI_BASE_URL: baseURL, EVOLUTION_OPENAI_CA_FILE: pki.caCert })).llm);
    const models = await trusted.models.list();
    expect(models.data.length).toBeGreaterThan(0);
    const untrusted = createOpenAIClient(loadConfig(env({ OPENAI_BASE_URL: baseURL, EVOLUTION_LLM_TIMEOUT: '5s' })).llm);
    await expect(untrusted.models.list()).rejects.toThrow(/connection/i);
    expect(() => createOpenAIClient(loadConfig(env({ OPENAI_BASE_URL: baseURL, EVOLUTION_OPENAI_CA_FILE: pki.clientKey })).llm)).toThrow(
      /EVOLUTION_OPENAI_CA_FILE .*no PEM certificate/,
    );
  });
});
