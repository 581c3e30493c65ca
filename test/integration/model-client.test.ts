/**
 * The worker's OpenAI client (createOpenAIClient: the openai package on node:http through
 * createNodeFetch) against the local model server over HTTP: answers, the SDK's errors for a
 * failing, slow or cancelled call, and an endpoint that compresses its answers.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeFetch } from '../../activities/llm/node-fetch';
import { createOpenAIClient } from '../../activities/llm/openai-client';
import { structuredCompletion } from '../../activities/llm/structured-call';
import { ReviewDecisionSchema } from '../../core/schemas/review';
import { startModelServer, type RunningModelServer } from '../../infra/model-server/server';

let server: RunningModelServer;
const llm = (timeoutMs = 30_000) => ({
  baseURL: `${server.url}/v1`,
  apiKey: 'x',
  reviewerModel: 'evolution-local-reviewer',
  reflectorModel: 'evolution-local-reflector',
  timeoutMs,
});

beforeAll(async () => {
  server = await startModelServer({ port: 0 });
});
afterAll(async () => {
  await server?.close();
});

const reviewerPrompt = (extra = '') =>
  [
    '## Session',
    '```json\n{"app":"demo","user":"alice","sessionId":"s-1"}\n```',
    '## Transcript',
    '```json\n[{"role":"user","content":"Build a weather report for Paris' + extra + '"},{"role":"assistant","content":"Paris: 11°C."}]\n```',
    '## Existing skills',
    '```json\n[]\n```',
  ].join('\n\n');

describe('the worker OpenAI client over node:http', () => {
  it('gets a structured review decision that parses against the schema', async () => {
    const { value: decision, record } = await structuredCompletion({
      client: createOpenAIClient(llm()),
      model: 'evolution-local-reviewer',
      schemaName: 'review_decision',
      schema: ReviewDecisionSchema,
      messages: [{ role: 'user', content: reviewerPrompt() }],
    });
    expect(Array.isArray(decision.creates)).toBe(true);
    expect(Array.isArray(decision.updates)).toBe(true);
    expect(record).toMatchObject({ format: 'json_schema', repairs: [] });
    expect(record.promptTokens).toBeGreaterThan(0);
  });

  it('answers many calls in a row on kept-alive connections', async () => {
    const client = createOpenAIClient(llm());
    const answers = await Promise.all(Array.from({ length: 20 }, () => client.models.list()));
    for (const a of answers) expect(a.data.length).toBeGreaterThan(0);
  });

  it('an HTTP 500 from the model is an APIError with its status and message', async () => {
    const thrown = await createOpenAIClient(llm())
      .chat.completions.create({ model: 'evolution-local-reviewer', messages: [{ role: 'user', content: reviewerPrompt(' [[fault:http500]]') }] })
      .catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(APIError);
    expect((thrown as APIError).status).toBe(500);
  });

  it('a model slower than the timeout is an APIConnectionTimeoutError, a cancelled call an APIUserAbortError', async () => {
    const slow = { model: 'evolution-local-reviewer', messages: [{ role: 'user' as const, content: reviewerPrompt(' [[fault:slow:20000]]') }] };
    const started = Date.now();
    await expect(createOpenAIClient(llm(500)).chat.completions.create(slow)).rejects.toBeInstanceOf(APIConnectionTimeoutError);
    expect(Date.now() - started).toBeLessThan(15_000); // not the model's 20 s
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    await expect(createOpenAIClient(llm()).chat.completions.create(slow, { signal: controller.signal })).rejects.toBeInstanceOf(APIUserAbortError);
  });

  describe('an endpoint that compresses its answers', () => {
    let gzipping: Server;
    let url: string;
    beforeAll(async () => {
      // Stands in for a gateway that gzips JSON (the local model server never does).
      gzipping = createServer((req, res) => {
        const body = gzipSync(JSON.stringify({ object: 'list', data: [{ id: 'gz-model', object: 'model', created: 0, owned_by: 'test' }] }));
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': body.byteLength, 'x-seen-method': req.method ?? '' });
        res.end(body);
      });
      await new Promise<void>((r) => gzipping.listen(0, '127.0.0.1', r));
      url = `http://127.0.0.1:${(gzipping.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((r) => gzipping.close(() => r())));

    it('is decoded for the SDK', async () => {
      const client = createOpenAIClient({ ...llm(), baseURL: `${url}/v1` });
      expect((await client.models.list()).data.map((m) => m.id)).toEqual(['gz-model']);
    });

    it('a HEAD answer has no body, and a body the client cannot send is refused by name', async () => {
      const fetch = createNodeFetch();
      const head = await fetch(`${url}/v1/models`, { method: 'head' });
      expect(head.status).toBe(200);
      expect(head.headers.get('x-seen-method')).toBe('HEAD');
      expect(await head.text()).toBe('');
      await expect(fetch(`${url}/v1/models`, { method: 'POST', body: new URLSearchParams({ a: '1' }) })).rejects.toThrow(/unsupported request body/);
      await expect(fetch('ftp://127.0.0.1/x')).rejects.toThrow(/unsupported protocol ftp:/);
    });
  });
});
