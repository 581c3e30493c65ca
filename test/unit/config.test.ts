import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../core';

describe('parseConfig', () => {
  it('gives working local defaults', () => {
    const c = parseConfig({});
    expect(c.temporal.address).toBe('127.0.0.1:7233');
    expect(c.governance.approvalTimeoutMs).toBeUndefined();
    expect(c.governance.minToolCalls).toBe(4);
    expect(c.governance.effectivenessThreshold).toBe(0.8);
  });

  it('parses durations and booleans', () => {
    const c = parseConfig({ EVOLUTION_APPROVAL_TIMEOUT: '72h', EVOLUTION_SHADOW_MODE: 'yes', EVOLUTION_MIN_TOOL_CALLS: '-1' });
    expect(c.governance.approvalTimeoutMs).toBe(72 * 3600 * 1000);
    expect(c.governance.shadowMode).toBe(true);
    expect(c.governance.minToolCalls).toBe(-1);
  });

  it('session idle time and worker workflow cache size are configurable', () => {
    expect(parseConfig({}).runtime).toEqual({
      sessionIdleTimeoutMs: 10 * 60_000,
      maxCachedWorkflows: 200,
      storageOutageToleranceMs: 24 * 3_600_000,
      clientConnectTimeoutMs: 10_000,
    });
    expect(parseConfig({ EVOLUTION_CLIENT_CONNECT_TIMEOUT: '3s' }).runtime.clientConnectTimeoutMs).toBe(3_000);
    expect(parseConfig({ EVOLUTION_SESSION_IDLE_TIMEOUT: '90s', EVOLUTION_WORKER_CACHE_SIZE: '0' }).runtime).toMatchObject({ sessionIdleTimeoutMs: 90_000, maxCachedWorkflows: 0 });
    expect(() => parseConfig({ EVOLUTION_SESSION_IDLE_TIMEOUT: 'none' })).toThrow(/EVOLUTION_SESSION_IDLE_TIMEOUT="none": must be a positive duration/);
    expect(() => parseConfig({ EVOLUTION_WORKER_CACHE_SIZE: '-5' })).toThrow(/EVOLUTION_WORKER_CACHE_SIZE="-5": must be 0 or more/);
  });

  it('names every bad variable in one error', () => {
    let err: unknown;
    try {
      parseConfig({ EVOLUTION_MIN_TOOL_CALLS: 'four', S3_ENDPOINT: 'nope', EVOLUTION_HUMAN_GATE: 'sometimes' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const msg = (err as Error).message;
    expect(msg).toContain('EVOLUTION_MIN_TOOL_CALLS="four": must be an integer');
    expect(msg).toContain('S3_ENDPOINT="nope": must be a URL');
    expect(msg).toContain('EVOLUTION_HUMAN_GATE="sometimes"');
  });

  describe('S3: the standard AWS variables, the S3_* names that win over them, and the credential chain', () => {
    it('no S3 variables: AWS S3 itself, keys and region from the SDK (the chain, AWS_REGION or the profile)', () => {
      expect(parseConfig({}).s3).toEqual({ bucket: 'evolution', forcePathStyle: false });
    });

    it('AWS_ENDPOINT_URL_S3, AWS_REGION and AWS_PROFILE; path-style by default against a custom endpoint', () => {
      expect(parseConfig({ AWS_ENDPOINT_URL_S3: 'https://s3.internal:9000', AWS_REGION: 'eu-west-1', AWS_PROFILE: 'ci' }).s3).toEqual({
        endpoint: 'https://s3.internal:9000',
        region: 'eu-west-1',
        profile: 'ci',
        bucket: 'evolution',
        forcePathStyle: true,
      });
      expect(parseConfig({ AWS_ENDPOINT_URL: 'http://127.0.0.1:9000' }).s3.endpoint).toBe('http://127.0.0.1:9000');
      expect(parseConfig({ AWS_ENDPOINT_URL: 'http://a:1', AWS_ENDPOINT_URL_S3: 'http://b:2' }).s3.endpoint).toBe('http://b:2');
      expect(parseConfig({ AWS_ENDPOINT_URL_S3: 'http://b:2', S3_FORCE_PATH_STYLE: 'false' }).s3.forcePathStyle).toBe(false);
    });

    it('S3_ENDPOINT and S3_REGION win over the AWS_* variables other AWS tools share', () => {
      const s3 = parseConfig({ S3_ENDPOINT: 'http://local:8333', AWS_ENDPOINT_URL_S3: 'https://elsewhere', S3_REGION: 'us-west-2', AWS_REGION: 'eu-west-1' }).s3;
      expect(s3).toMatchObject({ endpoint: 'http://local:8333', region: 'us-west-2' });
    });

    it('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are both set or neither', () => {
      expect(parseConfig({ S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' }).s3).toMatchObject({ accessKeyId: 'k', secretAccessKey: 's' });
      expect(() => parseConfig({ S3_ACCESS_KEY_ID: 'k' })).toThrow(
        /S3_ACCESS_KEY_ID is set but S3_SECRET_ACCESS_KEY is not: set both, or neither to use the AWS SDK's credential chain/,
      );
      expect(() => parseConfig({ S3_SECRET_ACCESS_KEY: 's' })).toThrow(/S3_SECRET_ACCESS_KEY is set but S3_ACCESS_KEY_ID is not/);
      expect(() => parseConfig({ AWS_ENDPOINT_URL_S3: 'not a url' })).toThrow(/AWS_ENDPOINT_URL_S3="not a url": must be a URL/);
    });
  });
});
