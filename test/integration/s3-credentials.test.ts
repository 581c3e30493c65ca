import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fromTemporaryCredentials } from '@aws-sdk/credential-providers';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createS3Client, S3CredentialsError, S3ResponseError, type S3Client, type S3Settings } from '../../storage';
import { LOCAL_S3_ROLE_ARN, LOCAL_S3_TEST_IDENTITIES } from '../../infra/s3-auth';
import { CREDENTIAL_VARIABLES, ROTATING_EXPIRES_IN_MS, writeAwsProfiles } from '../support/aws-profiles';
import { realServices, uniqueName } from '../support/infra';
import { forwardRequest } from '../../bench/support/s3-counting-proxy';

/**
 * The S3 client with no keys of its own, through the AWS SDK's default credential chain,
 * against the local S3 server (SeaweedFS) with its test identities and STS (infra/s3-auth.ts).
 * A proxy in front of the server records which access key signed each request.
 */

let local: S3Settings;
let recorder: Awaited<ReturnType<typeof keyRecordingProxy>>;
let profiles: ReturnType<typeof writeAwsProfiles>;
const savedEnv: Record<string, string | undefined> = {};
const clients: S3Client[] = [];

/** Settings with no keys: the SDK's chain finds the credentials (through the recording proxy). */
function chainSettings(profile?: string): S3Settings {
  return { endpoint: recorder.endpoint, region: 'us-east-1', bucket: local.bucket, forcePathStyle: true, ...(profile ? { profile } : {}) };
}

function client(settings: S3Settings): S3Client {
  const c = createS3Client(settings);
  clients.push(c);
  return c;
}

/** A write and a read back through `c`; returns the access keys that signed them. */
async function roundTrip(c: S3Client): Promise<string[]> {
  const from = recorder.keys().length;
  const key = `s3-credentials/${uniqueName('k')}.txt`;
  await c.putObject(local.bucket, key, 'ok', { contentType: 'text/plain' });
  const got = await c.getObject(local.bucket, key);
  expect(got.notModified ? undefined : Buffer.from(got.body).toString()).toBe('ok');
  return recorder.keys().slice(from);
}

beforeAll(async () => {
  local = (await realServices(['s3'])).s3;
  recorder = await keyRecordingProxy(local.endpoint!);
  profiles = writeAwsProfiles();
  // This file's process sees no credentials but the ones each test gives it.
  for (const name of [...CREDENTIAL_VARIABLES, 'AWS_EC2_METADATA_DISABLED', 'AWS_ENDPOINT_URL_STS']) savedEnv[name] = process.env[name];
  for (const name of CREDENTIAL_VARIABLES) delete process.env[name];
  Object.assign(process.env, { AWS_CONFIG_FILE: profiles.configFile, AWS_SHARED_CREDENTIALS_FILE: profiles.credentialsFile, AWS_EC2_METADATA_DISABLED: 'true' });
  // SeaweedFS serves its STS (AssumeRole) on the S3 port; the SDK's STS client goes there.
  process.env.AWS_ENDPOINT_URL_STS = local.endpoint;
});

afterEach(() => {
  for (const c of clients.splice(0)) c.destroy();
  for (const name of ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_PROFILE']) delete process.env[name];
});

afterAll(async () => {
  for (const [name, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await recorder?.close();
});

describe('S3 credentials from the AWS SDK provider chain (no S3 keys configured)', () => {
  beforeEach(() => expect(process.env.S3_ACCESS_KEY_ID).toBeUndefined());

  it('a named profile of the shared credentials file (AWS_PROFILE)', async () => {
    process.env.AWS_PROFILE = 'alt-1';
    const c = client(chainSettings());
    expect(await roundTrip(c)).toEqual([LOCAL_S3_TEST_IDENTITIES[0].accessKeyId, LOCAL_S3_TEST_IDENTITIES[0].accessKeyId]);
    expect(c.credentialSource()).toBe('profile `alt-1`');
  });

  it('an expiring credential_process: refreshed before expiry, mid-run, while requests keep working', async () => {
    const c = client(chainSettings('rotating'));
    const calls0 = profiles.credentialProcessCalls().length;
    const used: string[] = [];
    // A request every 300 ms for 3 credential lifetimes (each set is refreshed 4 s after it was handed out).
    const until = Date.now() + 3 * (ROTATING_EXPIRES_IN_MS - 5 * 60_000) + 1_000;
    while (Date.now() < until) {
      used.push(...(await roundTrip(c)));
      await new Promise((r) => setTimeout(r, 300));
    }
    const calls = profiles.credentialProcessCalls().slice(calls0);
    expect(calls.length).toBeGreaterThanOrEqual(3);
    // Each key the process handed out signed requests, in the order it handed them out, every one accepted.
    const runs = used.filter((key, i) => key !== used[i - 1]);
    expect(runs.length).toBeGreaterThanOrEqual(3);
    expect(runs).toEqual(calls.slice(0, runs.length).map((call) => call.accessKeyId));
    expect(new Set(used)).toEqual(new Set(LOCAL_S3_TEST_IDENTITIES.map((id) => id.accessKeyId)));
    expect(c.credentialSource()).toBe('the credential_process of profile `rotating`');
  });

  it("session credentials from the local S3 server's own STS: a role assumed through a profile (role_arn + source_profile)", async () => {
    const c = client(chainSettings('assumer'));
    const keys = await roundTrip(c);
    expect(keys).toHaveLength(2);
    // SeaweedFS's STS issues ASIA… keys with a session token (a JWT it signed); the server accepted both.
    for (const key of keys) expect(key).toMatch(/^ASIA/);
    expect(recorder.sessionTokens().at(-1)).toMatch(/^eyJ/);
    expect(c.credentialSource()).toBe('the role assumed by profile `assumer`');
  });

  it('session credentials in the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN); a token the server did not issue is refused', async () => {
    const [alt1] = LOCAL_S3_TEST_IDENTITIES;
    const session = await fromTemporaryCredentials({
      params: { RoleArn: LOCAL_S3_ROLE_ARN, RoleSessionName: 'evolution-env-test', DurationSeconds: 900 },
      masterCredentials: { accessKeyId: alt1.accessKeyId, secretAccessKey: alt1.secretAccessKey },
      clientConfig: { region: 'us-east-1' },
    })();
    expect(session.sessionToken).toBeTruthy();
    Object.assign(process.env, { AWS_ACCESS_KEY_ID: session.accessKeyId, AWS_SECRET_ACCESS_KEY: session.secretAccessKey, AWS_SESSION_TOKEN: session.sessionToken });
    const c = client(chainSettings());
    expect(await roundTrip(c)).toEqual([session.accessKeyId, session.accessKeyId]);
    expect(recorder.sessionTokens().at(-1)).toBe(session.sessionToken);
    expect(c.credentialSource()).toBe('AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY');

    process.env.AWS_SESSION_TOKEN = `${session.sessionToken!.slice(0, -4)}AAAA`;
    const forged = client(chainSettings());
    const error = await forged.getObject(local.bucket, 'any/key.json').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(S3ResponseError);
    expect(error).toMatchObject({ status: 403 });
    expect((error as Error).message).toMatch(/^S3 refused the credentials from AWS_ACCESS_KEY_ID \/ AWS_SECRET_ACCESS_KEY \(\w+\) at GET /);
  });

  it('a wrong key is refused in one line naming the credential source', async () => {
    const c = client(chainSettings('wrong'));
    const error = await c.getObject(local.bucket, 'any/key.json').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(S3ResponseError);
    expect(error).toMatchObject({ status: 403, code: 'InvalidAccessKeyId' });
    const message = (error as Error).message;
    expect(message).toMatch(new RegExp(`^S3 refused the credentials from profile \`wrong\` \\(InvalidAccessKeyId\\) at GET ${local.bucket}/any/key\\.json: \\S`));
    expect(message).not.toContain('\n');
  });

  it('no credentials anywhere: an S3CredentialsError naming where they were looked for', async () => {
    const c = client(chainSettings('no-such-profile'));
    const requests = recorder.keys().length;
    const error = await c.getObject(local.bucket, 'any/key.json').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(S3CredentialsError);
    expect((error as Error).message).toMatch(/^S3 credentials: none could be loaded from the AWS SDK's credential chain \(profile `no-such-profile`\): \S/);
    expect((error as Error).message).not.toContain('\n');
    expect(recorder.keys().length).toBe(requests);
  });
});

/** A proxy that forwards every request unchanged and records the access key (and session token) that signed it. */
async function keyRecordingProxy(target: string) {
  const upstream = new URL(target);
  const keys: string[] = [];
  const tokens: string[] = [];
  const server: Server = createServer((req, res) => {
    keys.push(/Credential=([^/]+)\//.exec(req.headers.authorization ?? '')?.[1] ?? '');
    const token = req.headers['x-amz-security-token'];
    if (typeof token === 'string') tokens.push(token);
    forwardRequest(upstream, req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    keys: () => [...keys],
    sessionTokens: () => [...tokens],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
