import { describe, expect, it } from 'vitest';
import { ServiceUnavailableError } from '../../core/errors';
import { explainUnreachable, hostPortOf } from '../../runtime/reachability';
import { isTransientServiceError } from '../../storage/network-errors';
import { parseConfig } from '../../core';
import { S3ResponseError } from '../../storage/s3-client';

const config = parseConfig({ TEMPORAL_ADDRESS: 'temporal.internal:7233', S3_ENDPOINT: 'http://127.0.0.1:8333', OPENAI_BASE_URL: 'https://api.example.com/v1' });
const netError = (code: string, address: string, port: number) => Object.assign(new Error(`connect ${code} ${address}:${port}`), { code, address, port });

describe('unreachable services', () => {
  it('reads host and port from host:port and from URLs', () => {
    expect(hostPortOf('temporal.internal:7233')).toEqual({ host: 'temporal.internal', port: 7233 });
    expect(hostPortOf('http://127.0.0.1:8333')).toEqual({ host: '127.0.0.1', port: 8333 });
    expect(hostPortOf('https://api.example.com/v1')).toEqual({ host: 'api.example.com', port: 443 });
    expect(hostPortOf('[::1]:7233')).toEqual({ host: '::1', port: 7233 });
  });

  it('names the configured service a raw network error is about, in one line', () => {
    const e = explainUnreachable(netError('ECONNREFUSED', '127.0.0.1', 8333), config);
    expect(e).toBeInstanceOf(ServiceUnavailableError);
    expect(e!.message).toBe(
      'S3 at http://127.0.0.1:8333 cannot be reached (ECONNREFUSED): run `npx evolution infra up` for the local services, or set S3_ENDPOINT to where it runs',
    );
    const wrapped = new Error('request failed', { cause: netError('ETIMEDOUT', '10.0.0.7', 443) });
    expect(explainUnreachable(wrapped, config)).toBeUndefined(); // an address we were not configured with
    expect(explainUnreachable(new Error('boom'), config)).toBeUndefined();
  });

  it('tells transient service failures from other errors', () => {
    expect(isTransientServiceError(netError('ECONNREFUSED', '127.0.0.1', 1))).toBe(true);
    expect(isTransientServiceError(new S3ResponseError(503, 'SlowDown', undefined, 'S3 GET b/k: HTTP 503 SlowDown'))).toBe(true);
    expect(isTransientServiceError(new S3ResponseError(400, 'RequestTimeout', undefined, 'S3 PUT b/k: HTTP 400 RequestTimeout'))).toBe(true);
    expect(isTransientServiceError(new S3ResponseError(403, 'AccessDenied', undefined, 'S3 GET b/k: HTTP 403 AccessDenied'))).toBe(false);
    expect(isTransientServiceError(new TypeError('bug'))).toBe(false);
  });
});
