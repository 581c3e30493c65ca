import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceUnavailableError } from '../../core/errors';
import { createS3Client, createSkillStore, type S3Client } from '../../storage';
import { storageRequestBudgetMs, underClientDeadline, withStorageDeadline } from '../../storage/client-deadline';

// The S3 transport under the client deadline (storage/client-deadline.ts), against a server
// that accepts connections and reads requests but never answers, as a SeaweedFS stopped with
// SIGSTOP behaves: no shared service is needed. client-service-errors.test.ts freezes the real one.
let server: Server;
let endpoint: string;
const sockets = new Set<Socket>();
let connections = 0;

beforeAll(async () => {
  server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('data', () => undefined); // read and say nothing
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((resolve) => server.close(resolve));
});

const settings = () => ({ endpoint, region: 'us-east-1', bucket: 'silent', accessKeyId: 'k', secretAccessKey: 's', forcePathStyle: true });

const outcome = (p: Promise<unknown>) =>
  p.then(
    () => new Error('expected the request to fail'),
    (e: unknown) => e,
  );

function expectNoAnswer(e: unknown): void {
  expect(e).toBeInstanceOf(ServiceUnavailableError);
  expect((e as ServiceUnavailableError).service).toBe('S3');
  expect((e as ServiceUnavailableError).address).toBe(endpoint);
  expect((e as Error).message).toBe(
    `S3 at ${endpoint} cannot be reached (no answer before the deadline): run \`npx evolution infra up\` for the local services, or set S3_ENDPOINT to where it runs`,
  );
}

describe('S3 requests under the client deadline', () => {
  let client: S3Client;
  beforeAll(() => {
    client = createS3Client(settings());
  });
  afterAll(() => client.destroy());

  it('each kind of request to a server that does not answer fails as the one line naming S3 once its share is spent', async () => {
    const deadline = { requestMs: 300 };
    expectNoAnswer(await outcome(withStorageDeadline(deadline, () => client.getObject('silent', 'a.json'))));
    expectNoAnswer(await outcome(withStorageDeadline(deadline, () => client.putObject('silent', 'a.json', '{}', { contentType: 'application/json', ifNoneMatch: '*' }))));
    expectNoAnswer(await outcome(withStorageDeadline(deadline, () => client.headObject('silent', 'a.json'))));
    expectNoAnswer(await outcome(withStorageDeadline(deadline, () => client.deleteObject('silent', 'a.json'))));
    expectNoAnswer(await outcome(withStorageDeadline(deadline, () => client.listObjects('silent', 'a/'))));
  });

  it('a call whose deadline has passed sends nothing', async () => {
    const before = connections;
    expectNoAnswer(await outcome(withStorageDeadline({ requestMs: 10_000, endsAt: Date.now() - 1 }, () => client.getObject('silent', 'b.json'))));
    expect(connections).toBe(before);
  });

  it("the budget: the request's own length, or what is left of the call; none outside a client call", () => {
    expect(storageRequestBudgetMs()).toBeUndefined();
    expect(withStorageDeadline({ requestMs: 3_000 }, () => storageRequestBudgetMs())).toBe(3_000);
    expect(withStorageDeadline({ requestMs: 3_000, endsAt: 10_000 }, () => storageRequestBudgetMs(9_000))).toBe(1_000);
    expect(withStorageDeadline({ requestMs: 3_000, endsAt: 100_000 }, () => storageRequestBudgetMs(9_000))).toBe(3_000);
    // An inner call's deadline replaces the outer one, and ends with it.
    expect(withStorageDeadline({ requestMs: 3_000 }, () => withStorageDeadline({ requestMs: 500 }, () => storageRequestBudgetMs()))).toBe(500);
  });

  it("a store under a per-request client deadline (the CLI's store-only commands) fails its reads in one line", async () => {
    const store = underClientDeadline(createSkillStore(settings(), client), 300);
    expectNoAnswer(await outcome(store.listRevisions('apps/silent', 'skill-1')));
  });
});

describe('S3 requests outside a client call (workers)', () => {
  // A worker's store has no client deadline: a server that stops answering is noticed by the
  // socket going idle (30 s by default; shortened here), not left hanging until the activity's
  // own timeout, with the request's socket held meanwhile.
  it('a request to a server that does not answer fails after the idle timeout, as the one line naming S3', async () => {
    const client = createS3Client(settings(), { maxAttempts: 1, idleTimeoutMs: 500 });
    try {
      const e = await outcome(client.getObject('silent', 'worker.json'));
      expect(e).toBeInstanceOf(ServiceUnavailableError);
      expect((e as ServiceUnavailableError).service).toBe('S3');
      expect((e as Error).message).toContain('(no answer before the timeout)');
    } finally {
      client.destroy();
    }
  }, 20_000);
});
