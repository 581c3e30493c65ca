import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import OpenAI, { APIConnectionTimeoutError, APIError, BadRequestError } from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ReviewDecisionSchema } from '../../core/schemas/review';
import { startModelServer, type RunningModelServer } from '../../infra/model-server/server';

const REVIEW_SCHEMA = z.toJSONSchema(ReviewDecisionSchema) as Record<string, unknown>;
const REFLECTION_SCHEMA = {
  type: 'object',
  properties: {
    component: { type: 'string', enum: ['steps', 'pitfalls', 'when_to_use', 'description'] },
    new_value: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
    rationale: { type: 'string' },
  },
  required: ['component', 'new_value', 'rationale'],
  additionalProperties: false,
};

type Msg = { role: string; content?: string | null; tool_calls?: { name: string; arguments: string }[]; tool_call_id?: string; name?: string };

function call(name: string, args: Record<string, unknown>) {
  return { name, arguments: JSON.stringify(args) };
}

function fenced(value: unknown): string {
  return '```json\n' + JSON.stringify(value, null, 2) + '\n```';
}

function reviewerPrompt(opts: { sessionId: string; transcript: Msg[]; existing?: unknown[]; outcome?: unknown }): string {
  const parts = [
    '## Session',
    fenced({ app: 'demo', user: 'alice', sessionId: opts.sessionId }),
    '## Transcript',
    fenced(opts.transcript),
    '## Existing skills',
    fenced(opts.existing ?? []),
  ];
  if (opts.outcome) parts.push('## Session outcome', fenced(opts.outcome));
  return parts.join('\n\n');
}

const WEATHER_TRANSCRIPT: Msg[] = [
  { role: 'user', content: 'Build a weather report for Paris and Oslo' },
  { role: 'assistant', content: null, tool_calls: [call('geocode', { city: 'Paris' })] },
  { role: 'tool', name: 'geocode', content: '{"lat":48.85,"lon":2.35}' },
  { role: 'assistant', content: null, tool_calls: [call('get_weather', { lat: 48.85, lon: 2.35, units: 'metric' })] },
  { role: 'tool', name: 'get_weather', content: 'Error: upstream timeout after 5s' },
  { role: 'assistant', content: null, tool_calls: [call('get_weather', { lat: 48.85, lon: 2.35, units: 'metric' })] },
  { role: 'tool', name: 'get_weather', content: '{"temp":11}' },
  { role: 'assistant', content: 'Paris: 11°C. Oslo next.' },
  { role: 'user', content: 'No, use Fahrenheit for the report' },
  { role: 'assistant', content: null, tool_calls: [call('format_report', { cities: ['Paris', 'Oslo'], units: 'imperial' })] },
  { role: 'tool', name: 'format_report', content: 'ok' },
];

let server: RunningModelServer;
let client: OpenAI;

function clientWith(timeout: number): OpenAI {
  return new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'x', maxRetries: 0, timeout });
}

async function askReviewer(prompt: string, c: OpenAI = client) {
  const completion = await c.chat.completions.create({
    model: 'evolution-local-reviewer',
    messages: [
      { role: 'system', content: 'ROLE: skill-reviewer\nExtract reusable skills.' },
      { role: 'user', content: prompt },
    ],
    response_format: { type: 'json_schema', json_schema: { name: 'review_decision', schema: REVIEW_SCHEMA, strict: false } },
  });
  return completion.choices[0].message.content ?? '';
}

async function review(prompt: string) {
  return ReviewDecisionSchema.parse(JSON.parse(await askReviewer(prompt)));
}

async function control(method: string, route: string, body?: unknown) {
  const res = await fetch(`${server.url}${route}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

beforeAll(async () => {
  server = await startModelServer({ host: '127.0.0.1', port: 0 });
  client = clientWith(10_000);
});

afterAll(async () => {
  await server?.close();
});

describe('reviewer', () => {
  it('turns a transcript with 4 tool calls into a create whose steps mention the tools', async () => {
    const decision = await review(reviewerPrompt({ sessionId: 's-create', transcript: WEATHER_TRANSCRIPT }));
    expect(decision.skip_reason).toBe('');
    expect(decision.updates).toEqual([]);
    expect(decision.creates).toHaveLength(1);
    const skill = decision.creates[0];
    expect(skill.name).toBe('geocode-and-get-weather-and-format-report');
    expect(skill.steps).toEqual(['Call `geocode` with {city}.', 'Call `get_weather` with {lat, lon, units}.', 'Call `format_report` with {cities, units}.']);
    expect(skill.description).toContain('Build a weather report for Paris and Oslo');
    expect(skill.pitfalls).toEqual([
      'If `get_weather` fails with "Error: upstream timeout after 5s", retry the call before giving up.',
      'Remember: No, use Fahrenheit for the report',
    ]);
  });

  it('answers the same request identically', async () => {
    const prompt = reviewerPrompt({ sessionId: 's-same', transcript: WEATHER_TRANSCRIPT });
    expect(await askReviewer(prompt)).toBe(await askReviewer(prompt));
  });

  it('quotes a shell command literally, so a dangerous one reaches the candidate', async () => {
    const decision = await review(
      reviewerPrompt({
        sessionId: 's-shell',
        transcript: [
          { role: 'user', content: 'Clean up the build machine' },
          { role: 'assistant', tool_calls: [call('list_files', { path: '/' })] },
          { role: 'assistant', tool_calls: [call('shell', { command: 'rm -rf /' })] },
        ],
      }),
    );
    expect(decision.creates[0].steps).toContain('Call `shell` to run: rm -rf /');
  });

  it('puts a skill whose name already exists into updates', async () => {
    const decision = await review(
      reviewerPrompt({
        sessionId: 's-update',
        transcript: WEATHER_TRANSCRIPT,
        existing: [{ name: 'Geocode-and-get-weather-and-format-report', description: 'old', body_excerpt: '...' }],
      }),
    );
    expect(decision.creates).toEqual([]);
    expect(decision.updates).toHaveLength(1);
    expect(decision.updates[0].name).toBe('Geocode-and-get-weather-and-format-report');
    expect(decision.updates[0].new_spec.name).toBe('Geocode-and-get-weather-and-format-report');
    expect(decision.updates[0].reason).toBe('refined from session demo/alice/s-update');
  });

  it('skips short sessions, honours [[skip]], [[skill:NAME]] and [[delete:NAME]], and learns from a failed outcome', async () => {
    const short = await review(
      reviewerPrompt({
        sessionId: 's-short',
        transcript: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', tool_calls: [call('ping', {})] },
        ],
      }),
    );
    expect(short).toEqual({ skip_reason: 'no reusable multi-step procedure', creates: [], updates: [], deletions: [] });

    const skipped = await review(reviewerPrompt({ sessionId: 's-skip', transcript: [...WEATHER_TRANSCRIPT, { role: 'user', content: '[[skip]]' }] }));
    expect(skipped.creates).toEqual([]);
    expect(skipped.skip_reason).toContain('[[skip]]');

    const hinted = await review(
      reviewerPrompt({
        sessionId: 's-hint',
        transcript: [{ role: 'user', content: 'Weather please [[skill:city-weather]] and drop [[delete:old-weather]]' }, ...WEATHER_TRANSCRIPT.slice(1)],
        outcome: { status: 'fail', score: 0.2, notes: 'Oslo was missing from the report' },
      }),
    );
    expect(hinted.creates[0].name).toBe('city-weather');
    expect(hinted.creates[0].description).not.toContain('[[');
    expect(hinted.deletions).toEqual(['old-weather']);
    expect(hinted.creates[0].pitfalls).toContain('A previous run ended with fail: Oslo was missing from the report');
  });

  it("reads OpenAI-shaped tool calls and works with the client's zod parse() helper", async () => {
    const transcript = [
      { role: 'user', content: 'Deploy the service' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'run_command', arguments: '{"command":"make build"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'build failed: missing GOPATH' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c2', type: 'function', function: { name: 'run_command', arguments: '{"command":"GOPATH=/go make build"}' } }] },
      { role: 'tool', tool_call_id: 'c2', content: 'ok' },
    ];
    const completion = await client.chat.completions.parse({
      model: 'evolution-local-reviewer',
      messages: [{ role: 'user', content: reviewerPrompt({ sessionId: 's-openai-shape', transcript: transcript as Msg[] }) }],
      response_format: zodResponseFormat(ReviewDecisionSchema, 'review_decision'),
    });
    const skill = completion.choices[0].message.parsed!.creates[0];
    expect(skill.name).toBe('run-command');
    expect(skill.steps).toEqual(['Call `run_command` to run: make build', 'Call `run_command` to run: GOPATH=/go make build']);
    expect(skill.pitfalls).toEqual(['If `run_command` fails with "build failed: missing GOPATH", retry the call before giving up.']);
  });

  it('rejects a prompt that breaks the contract with 400', async () => {
    const err = await askReviewer('no sections here').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as BadRequestError).message).toContain('prompt contract violation');
  });
});

describe('reflector', () => {
  const skill = {
    name: 'city-weather',
    description: 'Weather reports for cities.',
    when_to_use: 'When asked for weather.',
    steps: ['Call `geocode` with {city}.', 'Call `get_weather` with {lat, lon}.'],
    pitfalls: ['Retry timeouts.'],
  };
  const records = [
    { caseId: 'c1', input: 'Paris', expected: '...', output: '...', score: 0.4, feedback: 'missing: convert units to Fahrenheit\nmissing: cite the data source.', trace: [] },
    { caseId: 'c2', input: 'Oslo', expected: '...', output: '...', score: 0.5, feedback: 'Mostly fine.\n- missing: cite the data source', trace: [] },
    { caseId: 'c3', input: 'Rome', expected: '...', output: '...', score: 1, feedback: 'perfect', trace: [] },
  ];

  async function reflect(component: string, caseRecords: unknown[] = records) {
    const completion = await client.chat.completions.create({
      model: 'evolution-local-reflector',
      messages: [
        { role: 'system', content: 'ROLE: skill-reflector\nRewrite one component.' },
        { role: 'user', content: ['## Current skill', fenced(skill), '## Component to rewrite', component, '## Case records', fenced(caseRecords)].join('\n\n') },
      ],
      response_format: { type: 'json_schema', json_schema: { name: 'reflection', schema: REFLECTION_SCHEMA, strict: false } },
    });
    return JSON.parse(completion.choices[0].message.content ?? '');
  }

  it('adds the missing phrases to exactly the requested component', async () => {
    const steps = await reflect('steps');
    expect(Object.keys(steps).sort()).toEqual(['component', 'new_value', 'rationale']);
    expect(steps.component).toBe('steps');
    expect(steps.new_value).toEqual([...skill.steps, 'Make sure to convert units to Fahrenheit.', 'Make sure to cite the data source.']);

    const pitfalls = await reflect('pitfalls');
    expect(pitfalls.new_value).toEqual([...skill.pitfalls, 'Do not forget to convert units to Fahrenheit.', 'Do not forget to cite the data source.']);

    const description = await reflect('description');
    expect(description.new_value).toBe('Weather reports for cities. Make sure to cover: convert units to Fahrenheit; cite the data source.');
  });

  it('keeps the current value when no feedback reports anything missing', async () => {
    const unchanged = await reflect('when_to_use', [records[2]]);
    expect(unchanged).toMatchObject({ component: 'when_to_use', new_value: skill.when_to_use });
  });
});

describe('non-strict style (a local model behind an OpenAI-compatible server)', () => {
  const messages = (prompt: string) => [
    { role: 'system' as const, content: 'ROLE: skill-reviewer\nExtract reusable skills.' },
    { role: 'user' as const, content: prompt },
  ];
  const existing = [{ name: 'geocode-and-get-weather-and-format-report', description: 'Weather.', body_excerpt: '' }];

  it('refuses json_schema with a 400 naming response_format; "plain" refuses json_object too', async () => {
    const schema = { type: 'json_schema' as const, json_schema: { name: 'review_decision', schema: REVIEW_SCHEMA } };
    const prompt = reviewerPrompt({ sessionId: 's-refuse', transcript: WEATHER_TRANSCRIPT });
    const refused = await client.chat.completions.create({ model: 'local-nonstrict', messages: messages(prompt), response_format: schema }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BadRequestError);
    expect(refused).toMatchObject({ status: 400, param: 'response_format', code: 'unsupported_response_format' });
    const plain = await client.chat.completions.create({ model: 'local-plain', messages: messages(prompt), response_format: { type: 'json_object' } }).catch((e: unknown) => e);
    expect(plain).toMatchObject({ status: 400, param: 'response_format' });
    const answered = await client.chat.completions.create({ model: 'local-plain', messages: messages(prompt) });
    expect(answered.choices[0]!.message.content).toContain('```json');
  });

  it('answers the same decision as the strict style, fenced in prose, with trailing commas and without the optional keys', async () => {
    const prompt = reviewerPrompt({ sessionId: 's-loose', transcript: WEATHER_TRANSCRIPT, existing });
    const strict = await review(prompt);
    const loose = await client.chat.completions.create({ model: 'evolution-local-reviewer-nonstrict', messages: messages(prompt), response_format: { type: 'json_object' } });
    const text = loose.choices[0]!.message.content ?? '';
    expect(text).toMatch(/^Sure! Here is the review decision:\n\n```json\n\{/);
    expect(text).toMatch(/\n```\n\nLet me know if you want me to adjust anything\.$/);
    expect(text).toMatch(/,\n\s*[}\]]/);
    const body = JSON.parse(text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1).replace(/,(\s*[}\]])/g, '$1')) as Record<string, any>;
    expect(Object.keys(body)).toEqual(['updates']);
    expect(body.updates[0]).toEqual({ name: strict.updates[0]!.name, new_spec: expect.not.objectContaining({ name: expect.anything() }) });
    const { name: _name, ...spec } = strict.updates[0]!.new_spec;
    expect(body.updates[0].new_spec).toEqual(spec);
  });

  it('--style applies to every model, and a reflection leaves out its component and rationale', async () => {
    const loose = await startModelServer({ port: 0, style: 'non-strict' });
    try {
      const c = new OpenAI({ baseURL: `${loose.url}/v1`, apiKey: 'x', maxRetries: 0 });
      const skill = { name: 'k', description: 'd', when_to_use: 'w', steps: ['s'], pitfalls: [] };
      const completion = await c.chat.completions.create({
        model: 'evolution-local-reflector',
        messages: [
          { role: 'system', content: 'ROLE: skill-reflector\nRewrite one component.' },
          {
            role: 'user',
            content: ['## Current skill', fenced(skill), '## Component to rewrite', 'steps', '## Case records', fenced([{ caseId: 'c', feedback: 'missing: say hi' }])].join(
              '\n\n',
            ),
          },
        ],
      });
      const text = completion.choices[0]!.message.content ?? '';
      const body = JSON.parse(text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1).replace(/,(\s*[}\]])/g, '$1')) as unknown;
      expect(body).toEqual({ new_value: ['s', 'Make sure to say hi.'] });
    } finally {
      await loose.close();
    }
  });
});

describe('fault injection', () => {
  const small = (sessionId: string, marker: string) => reviewerPrompt({ sessionId, transcript: [{ role: 'user', content: `weather ${marker}` }, ...WEATHER_TRANSCRIPT.slice(1)] });

  it('[[fault:malformed]] returns content that is not JSON', async () => {
    const content = await askReviewer(small('f-mal', '[[fault:malformed]]'));
    expect(content.length).toBeGreaterThan(0);
    expect(() => JSON.parse(content)).toThrow();
  });

  it('[[fault:http500]] makes the client throw an APIError with status 500', async () => {
    const err = await askReviewer(small('f-500', '[[fault:http500]]')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIError);
    expect((err as APIError).status).toBe(500);
  });

  it('[[fault:slow:MS]] past the client timeout raises APIConnectionTimeoutError; within it, answers normally', async () => {
    const err = await askReviewer(small('f-slow', '[[fault:slow:3000]]'), clientWith(300)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIConnectionTimeoutError);
    const decision = ReviewDecisionSchema.parse(JSON.parse(await askReviewer(small('f-slow-ok', '[[fault:slow:50]]'), clientWith(5_000))));
    expect(decision.creates).toHaveLength(1);
  });

  it('once-faults fail the first request carrying the key, then succeed', async () => {
    const malformedOnce = small('f-once-m', '[[fault:once:malformed:key-m]]');
    const first = await askReviewer(malformedOnce);
    expect(() => JSON.parse(first)).toThrow();
    expect(JSON.parse(await askReviewer(malformedOnce)).creates).toHaveLength(1);

    const http500Once = small('f-once-h', '[[fault:once:http500:key-h]]');
    await expect(askReviewer(http500Once)).rejects.toMatchObject({ status: 500 });
    expect(JSON.parse(await askReviewer(http500Once)).creates).toHaveLength(1);
  });

  it('control route faults the next N matching requests only', async () => {
    const before = (await control('GET', '/_control/stats')).body;
    expect((await control('POST', '/_control/faults', { mode: 'http500', count: 2, match: 'ctl-target' })).status).toBe(200);
    expect((await control('POST', '/_control/faults', { mode: 'nonsense' })).status).toBe(400);

    await expect(askReviewer(small('ctl-other', ''))).resolves.toContain('creates');
    await expect(askReviewer(small('ctl-target', ''))).rejects.toMatchObject({ status: 500 });
    await expect(askReviewer(small('ctl-target', ''))).rejects.toMatchObject({ status: 500 });
    await expect(askReviewer(small('ctl-target', ''))).resolves.toContain('creates');

    await control('POST', '/_control/faults', { mode: 'malformed', count: 5 });
    expect((await control('GET', '/_control/faults')).body.pending).toHaveLength(1);
    expect((await control('DELETE', '/_control/faults')).body).toMatchObject({ ok: true, cleared: 1 });
    await expect(askReviewer(small('ctl-after-clear', ''))).resolves.toContain('creates');

    const after = (await control('GET', '/_control/stats')).body;
    expect(after.faults.http500 - before.faults.http500).toBe(2);
    expect(after.bySession['demo/alice/ctl-target']).toBe(3);
    expect(after.bySession['demo/alice/ctl-other']).toBe(1);
  });

  it('a run fault (--fault) with a rate hits a deterministic fraction of requests', async () => {
    const faulty = await startModelServer({ port: 0, defaultFault: { mode: 'http500', rate: 0.5 } });
    try {
      const c = new OpenAI({ baseURL: `${faulty.url}/v1`, apiKey: 'x', maxRetries: 0, timeout: 5_000 });
      const outcomes: string[] = [];
      for (let i = 0; i < 4; i++) {
        outcomes.push(
          await askReviewer(small('run', ''), c).then(
            () => 'ok',
            (e: APIError) => String(e.status),
          ),
        );
      }
      expect(outcomes).toEqual(['ok', '500', 'ok', '500']);
    } finally {
      await faulty.close();
    }
  });
});

describe('protocol', () => {
  it('counts chat requests by role and by session key', async () => {
    const before = (await control('GET', '/_control/stats')).body;
    await askReviewer(reviewerPrompt({ sessionId: 'stats-1', transcript: WEATHER_TRANSCRIPT }));
    await askReviewer(reviewerPrompt({ sessionId: 'stats-1', transcript: WEATHER_TRANSCRIPT }));
    await askReviewer(reviewerPrompt({ sessionId: 'stats-2', transcript: WEATHER_TRANSCRIPT }));
    await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hello' }] });
    const after = (await control('GET', '/_control/stats')).body;
    expect(after.bySession['demo/alice/stats-1']).toBe(2);
    expect(after.bySession['demo/alice/stats-2']).toBe(1);
    expect(after.byRole.reviewer - before.byRole.reviewer).toBe(3);
    expect(after.byRole.other - before.byRole.other).toBe(1);
  });

  it('serves health and models, and rejects malformed requests with an OpenAI-style 400', async () => {
    expect((await control('GET', '/health')).body).toEqual({ ok: true, build: 'dev' });
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toContain('evolution-local-reviewer');

    const bad = await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', body: '{"model": "m", "messages": [' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_json' });

    const noMessages = await client.chat.completions.create({ model: 'm', messages: [] }).catch((e: unknown) => e);
    expect(noMessages).toBeInstanceOf(BadRequestError);
  });

  it('answers 500 when its own answer would not conform to the requested schema', async () => {
    const err = await client.chat.completions
      .create({
        model: 'm',
        messages: [{ role: 'user', content: reviewerPrompt({ sessionId: 'nonconf', transcript: WEATHER_TRANSCRIPT }) }],
        response_format: {
          type: 'json_schema',
          json_schema: { name: 'review_decision', schema: { type: 'object', required: ['verdict'], properties: { verdict: { type: 'string' } } } },
        },
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIError);
    expect((err as APIError).status).toBe(500);
    expect((err as APIError).message).toContain('model-server bug');
  });
});

describe('CLI', () => {
  it('starts on --port 0, prints the real URL, and exits cleanly on SIGTERM', async () => {
    const root = path.resolve(__dirname, '../..');
    // tsx as a loader in the server's own process: the tsx CLI runs the script in a child and relays signals
    // through a 30 ms handshake that a loaded machine misses (it then exits 143 itself), which would test tsx, not the server.
    const child = spawn(process.execPath, ['--import', 'tsx', 'infra/model-server/main.ts', '--port', '0'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const lines = createInterface({ input: child.stdout! });
      const [line] = (await once(lines, 'line')) as [string];
      const match = /^model-server listening on (http:\/\/127\.0\.0\.1:(\d+))$/.exec(line);
      expect(match).not.toBeNull();
      expect(Number(match![2])).toBeGreaterThan(0);
      const health = await fetch(`${match![1]}/health`);
      expect(await health.json()).toEqual({ ok: true, build: 'dev' });

      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const [code, signal] = (await exited) as [number | null, string | null];
      expect({ code, signal }).toEqual({ code: 0, signal: null });
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }, 60_000);
});
