import { randomBytes } from 'node:crypto';
import { temporal } from '@temporalio/proto';
import { describe, expect, it } from 'vitest';
import { startLearningJob, waitForLearningJob } from '../../client/learning';
import { putDataset } from '../../client/optimization';
import { weatherDataset } from '../support/gepa';
import type { SessionEvent } from '../../core';
import { uniqueName } from '../support/infra';
import { useMainWorker } from '../support/worker';

// Invariant 8 end to end: canary secrets planted in every field a client can send, each in
// one of the forms that used to escape redaction, must not appear anywhere we store data
// (every object in the bucket, a bucket of this file's own) nor in any Temporal workflow
// history of the scope.
const fx = useMainWorker({ humanGate: 'none', shadowMode: true, minToolCalls: 1 }, { ownBucket: true });

const hex = (n: number) => randomBytes(n).toString('hex');
const upperId = () => hex(8).toUpperCase(); // 16 characters of [0-9A-F]

function canaries() {
  const awsSecret = `wJalr9${randomBytes(40)
    .toString('base64')
    .replace(/[^A-Za-z0-9/+]/g, '')
    .slice(0, 34)}`;
  return {
    contentLabelPair: `pw${hex(10)}`, // deploy failed: DB_PASSWORD=...
    partQueryKey: `ak${hex(10)}`, // ?api_key=... in a text part
    partOtherField: `sg${hex(10)}`, // ?sig=... in a non-text field of a content part
    messageName: `AKIA${upperId()}`, // name: ops_AKIA...
    toolName: `AKIA${upperId()}`, // tool deploy_AKIA...
    toolCallId: `AKIA${upperId()}`,
    argumentsKeyId: `AKIA${upperId()}`,
    argumentsSecret: awsSecret, // bare 40-character secret beside its key id
    toolResultToken: `at${hex(10)}`, // ?access_token=... in a tool result
    outcomeNotes: `tk${hex(10)}`, // outcome notes: API_TOKEN=...
    outcomeEvaluator: `ev${hex(10)}`, // evaluator: ci?access_token=...
  };
}

function plantedSession(c: ReturnType<typeof canaries>): SessionEvent[] {
  const toolName = `deploy_${c.toolName}`;
  const callId = `call_${c.toolCallId}`;
  return [
    { role: 'user', name: `ops_${c.messageName}`, content: `Deploy the service; last time: deploy failed: DB_PASSWORD=${c.contentLabelPair}` },
    {
      role: 'user',
      content: [
        { type: 'text', text: `Status page: https://api.example.com/v1/status?region=eu&api_key=${c.partQueryKey}` },
        { type: 'image_url', image_url: { url: `https://blob.example.net/c/screenshot.png?sv=2020&sig=${c.partOtherField}` } },
      ],
    },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: callId, type: 'function', function: { name: toolName, arguments: JSON.stringify({ service: 'api', credentials: `${c.argumentsKeyId} ${c.argumentsSecret}` }) } },
        { id: 'call_check', type: 'function', function: { name: 'check_health', arguments: '{"service":"api"}' } },
      ],
    },
    { role: 'tool', tool_call_id: callId, name: toolName, content: `deployed; callback https://hooks.example.com/done?access_token=${c.toolResultToken}` },
    { role: 'tool', tool_call_id: 'call_check', content: 'healthy' },
    { role: 'assistant', content: 'Deployed and healthy.' },
  ];
}

/** Every history event of a workflow as bytes (payloads are JSON, so a planted string would appear as is). */
async function historyText(workflowId: string): Promise<string> {
  const history = await fx.w.client.workflow.getHandle(workflowId).fetchHistory();
  return Buffer.from(temporal.api.history.v1.History.encode(history).finish()).toString('utf8');
}

describe('no canary secret is stored anywhere (issue 9, item 2)', () => {
  it('redacts every client field before the bucket and the workflow histories see it', async () => {
    const c = canaries();
    const app = uniqueName('canary');
    const started = await startLearningJob(
      { client: fx.w.client, store: fx.store, config: fx.config },
      {
        app,
        user: 'u1',
        sessionId: 's1',
        events: plantedSession(c),
        outcome: { status: 'fail', score: 0.2, notes: `deploy failed: API_TOKEN=${c.outcomeNotes}`, evaluator: `ci?access_token=${c.outcomeEvaluator}` },
      },
    );
    const outcome = await waitForLearningJob(fx.w, started.jobWorkflowId, { timeoutMs: 120_000 });
    // The job really reviewed the session and wrote a revision (so reviewer output, revision and audit exist).
    expect(outcome).toMatchObject({ status: 'reviewed', cursorAdvanced: true });
    expect(outcome.revisions.length).toBeGreaterThan(0);
    const revision = (await fx.store.readRevision(started.scopeKey, outcome.revisions[0]!.skillId, outcome.revisions[0]!.revisionId))!;
    expect(JSON.stringify(revision.spec)).toContain('deploy_[REDACTED]'); // the tool name reached the skill, redacted

    // Compared case-insensitively: a skill id slug lowercases what it is derived from.
    const planted = Object.entries(c).map(([field, canary]) => [field, canary.toLowerCase()] as const);
    const leaks: string[] = [];
    const keys = await fx.store.objects.list('');
    expect(keys.some((k) => k.includes(started.scopeKey))).toBe(true);
    for (let i = 0; i < keys.length; i += 16) {
      await Promise.all(
        keys.slice(i, i + 16).map(async (key) => {
          const text = new TextDecoder().decode((await fx.store.objects.getBytes(key))?.value ?? new Uint8Array()).toLowerCase();
          for (const [field, canary] of planted) if (text.includes(canary) || key.toLowerCase().includes(canary)) leaks.push(`${field} in s3://${key}`);
        }),
      );
    }

    const workflowIds = new Set([started.sessionWorkflowId, started.jobWorkflowId]);
    for await (const wf of fx.w.client.workflow.list({ query: `EvolutionScopeKey = "${started.scopeKey}"` })) workflowIds.add(wf.workflowId);
    for (const id of workflowIds) {
      const text = (await historyText(id)).toLowerCase();
      for (const [field, canary] of planted) if (text.includes(canary)) leaks.push(`${field} in workflow history ${id}`);
    }
    expect(leaks).toEqual([]);
  });

  it('redacts GEPA dataset cases (input, expected, metadata) before the dataset is stored', async () => {
    const c = { input: `ds${hex(10)}`, expected: `AKIA${upperId()}`, metadata: `md${hex(10)}` };
    const base = weatherDataset();
    const first = base.feedback[0]!;
    const planted = {
      ...base,
      id: uniqueName('canary-ds'),
      feedback: [
        {
          ...first,
          input: { request: `weather; callback https://hooks.example.com/x?access_token=${c.input}` },
          expected: `key ${c.expected}`,
          metadata: { note: `deploy failed: DB_PASSWORD=${c.metadata}` },
        },
        ...base.feedback.slice(1),
      ],
    };
    const { dataset } = await putDataset(fx.store, planted);
    const keys = (await fx.store.objects.list('')).filter((k) => k.includes(dataset.id));
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      const text = new TextDecoder().decode((await fx.store.objects.getBytes(key))!.value);
      for (const canary of Object.values(c)) expect(text, key).not.toContain(canary);
      expect(text).toContain('[REDACTED]');
    }
  });
});
