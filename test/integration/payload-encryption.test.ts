import { randomBytes } from 'node:crypto';
import { temporal } from '@temporalio/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideRevision } from '../../client/approvals';
import { AesGcmPayloadCodec, ENCRYPTED_ENCODING } from '../../codec/aes-gcm-codec';
import { parsePayloadKeys } from '../../codec/keys';
import { startCodecServer, type RunningCodecServer } from '../../console/codec-server';
import { tokenAuthenticator } from '../../console/auth';
import { loadUsersFile } from '../../console/users';
import { writeUsersFile } from '../support/console';
import { connectTemporal } from '../../runtime/connection';
import { startLearningJob, waitForLearningJob } from '../../client/learning';
import { createSkillStore } from '../../storage';
import { approvalWorkflowId, scopeIndexWorkflowId } from '../../core/workflow-ids';
import type { EvolutionConfig } from '../../core';
import { sdkMarkerMetadata, withoutSdkMarkerMetadata } from '../support/history';
import { realServices, uniqueName } from '../support/infra';
import { exampleSession } from '../support/sessions';
import { startMainWorker, type RunningWorker } from '../support/worker';

/**
 * With EVOLUTION_PAYLOAD_KEYS set, what Temporal stores is ciphertext: the session, the
 * reviewer's skill, the approver's comment. The codec server decodes it for the UI.
 */
const keys = parsePayloadKeys(`k2026:${randomBytes(32).toString('base64')}`);
let w: RunningWorker;
let config: EvolutionConfig;
let codecServer: RunningCodecServer;
let operatorToken: string;

beforeAll(async () => {
  const base = await realServices();
  config = { ...base, payloadKeys: keys, governance: { ...base.governance, humanGate: 'create_only', approvalTimeoutMs: undefined, shadowMode: false } };
  w = await startMainWorker(config);
  config = w.config;
  const operator = writeUsersFile([{ name: 'operator', role: 'viewer', scopes: ['*'] }]);
  operatorToken = operator.users.operator.token;
  codecServer = await startCodecServer({
    codec: new AesGcmPayloadCodec(keys),
    authenticate: tokenAuthenticator(loadUsersFile(operator.path)),
    port: 0,
    corsOrigins: ['http://localhost:8080'],
  });
});

afterAll(async () => {
  await codecServer?.close();
  await w?.stop();
});

async function historyOf(workflowId: string): Promise<temporal.api.history.v1.IHistory> {
  const res = await w.client.workflowService.getWorkflowExecutionHistory({ namespace: config.temporal.namespace, execution: { workflowId } });
  return res.history!;
}

const SDK_METADATA_KEYS = ['id', 'deprecated', 'seq', 'attempt', 'activity_id', 'activity_type', 'complete_time', 'backoff', 'original_schedule_time'];

function payloadsIn(value: unknown, out: temporal.api.common.v1.IPayload[] = []): temporal.api.common.v1.IPayload[] {
  if (value && typeof value === 'object') {
    if ('data' in value && 'metadata' in value && (value as { metadata?: unknown }).metadata) out.push(value as temporal.api.common.v1.IPayload);
    else for (const v of Object.values(value)) payloadsIn(v, out);
  }
  return out;
}

function withoutKey<T>(value: T, key: string): T {
  if (Array.isArray(value)) return value.map((v) => withoutKey(v, key)) as T;
  if (value && typeof value === 'object' && !(value instanceof Uint8Array)) {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => k !== key)
        .map(([k, v]) => [k, withoutKey(v, key)]),
    ) as T;
  }
  return value;
}

describe('encrypted payloads', () => {
  it('history holds no plaintext skill or approver comment; the codec endpoint decodes it for the UI', async () => {
    const app = uniqueName('app');
    const comment = `SECRET-COMMENT-${randomBytes(4).toString('hex')}`;
    const store = createSkillStore(config.s3);
    const deps = { client: w.client, store, config };
    const started = await startLearningJob(deps, {
      app,
      user: 'u1',
      sessionId: 's1',
      events: exampleSession('weather-report'),
      outcome: { status: 'success', score: 0.9, notes: `notes ${comment}` },
    });
    const outcome = await waitForLearningJob(w, started.jobWorkflowId);
    const [rev] = outcome.revisions;
    expect(rev).toMatchObject({ status: 'pending_approval', name: 'multi-city-weather-report' });
    await decideRevision(deps, rev!.revisionId, { decision: 'approve', reviewer: 'alice', comment });

    // The scope's index workflow too: publications hand it the skill's name and description.
    const histories = await Promise.all([historyOf(started.jobWorkflowId), historyOf(approvalWorkflowId(rev!.revisionId)), historyOf(scopeIndexWorkflowId(started.scopeKey))]);
    for (const history of histories) {
      const bytes = Buffer.from(temporal.api.history.v1.History.encode(history).finish());
      expect(bytes.includes(Buffer.from(comment))).toBe(false);
      expect(bytes.includes(Buffer.from('get_weather'))).toBe(false);
      // Search attributes are indexed by the server and so never encrypted: the skill id is
      // one (documented). Everything else is ciphertext.
      // The SDK's own marker metadata (patch ids; a local activity's seq, attempt, type and
      // times) is json/plain too, and holds nothing else; a local activity's result is ciphertext.
      for (const meta of sdkMarkerMetadata(history))
        expect(
          Object.keys(meta).every((k) => SDK_METADATA_KEYS.includes(k)),
          JSON.stringify(meta),
        ).toBe(true);
      const userData = withoutSdkMarkerMetadata(withoutKey(history, 'searchAttributes'));
      const withoutSearchAttributes = Buffer.from(temporal.api.history.v1.History.encode(userData).finish());
      expect(withoutSearchAttributes.includes(Buffer.from('multi-city-weather-report'))).toBe(false);
      expect(withoutSearchAttributes.includes(Buffer.from('json/plain'))).toBe(false);
      const payloads = payloadsIn(userData);
      expect(payloads.length).toBeGreaterThan(0);
      for (const p of payloads) expect(Buffer.from(p.metadata!.encoding!).toString()).toBe(ENCRYPTED_ENCODING);
    }

    // The UI's codec endpoint, over HTTP, as the browser calls it (preflight, then POST).
    const approvalPayloads = payloadsIn(withoutKey(histories[1], 'searchAttributes'));
    const preflight = await fetch(`${codecServer.url}/decode`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://localhost:8080', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,content-type,x-namespace' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:8080');
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-namespace');
    const res = await fetch(`${codecServer.url}/decode`, {
      method: 'POST',
      headers: { Origin: 'http://localhost:8080', 'Content-Type': 'application/json', 'X-Namespace': 'default', Authorization: `Bearer ${operatorToken}` },
      body: JSON.stringify({
        payloads: approvalPayloads.map((p) => ({
          metadata: Object.fromEntries(Object.entries(p.metadata!).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
          data: Buffer.from(p.data!).toString('base64'),
        })),
      }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:8080');
    const decoded = (await res.json()) as { payloads: { metadata: Record<string, string>; data: string }[] };
    const texts = decoded.payloads.map((p) => Buffer.from(p.data, 'base64').toString('utf8'));
    expect(texts.some((t) => t.includes(comment))).toBe(true);
    expect(decoded.payloads.every((p) => Buffer.from(p.metadata.encoding!, 'base64').toString() === 'json/plain')).toBe(true);

    // A client holding another key gets a clear error, not garbage.
    const stranger = await connectTemporal({ ...config, payloadKeys: parsePayloadKeys(`other:${randomBytes(32).toString('base64')}`) });
    try {
      await expect(stranger.client.workflow.getHandle(started.jobWorkflowId).result()).rejects.toThrow(
        /encrypted with key "k2026", which is not among the configured keys \(other\)/,
      );
    } finally {
      await stranger.close();
    }
  });
});
