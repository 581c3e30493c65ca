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
    expect(parseConfig({}).runtime).toEqual({ sessionIdleTimeoutMs: 10 * 60_000, maxCachedWorkflows: 200 });
    expect(parseConfig({ EVOLUTION_SESSION_IDLE_TIMEOUT: '90s', EVOLUTION_WORKER_CACHE_SIZE: '0' }).runtime).toEqual({ sessionIdleTimeoutMs: 90_000, maxCachedWorkflows: 0 });
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
});
