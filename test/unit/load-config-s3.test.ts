import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../runtime/config';

/** What `evolution infra up` gives a process that sets nothing itself. */
const localServices = () => ({
  S3_ENDPOINT: 'http://127.0.0.1:8333',
  S3_ACCESS_KEY_ID: 'evolution',
  S3_SECRET_ACCESS_KEY: 'evolution-secret',
  S3_BUCKET: 'evolution',
  S3_FORCE_PATH_STYLE: 'true',
});

describe('loadConfig: the local S3 server as a fallback', () => {
  it('is used when the environment names no S3', () => {
    expect(loadConfig({}, localServices).s3).toEqual({
      endpoint: 'http://127.0.0.1:8333',
      accessKeyId: 'evolution',
      secretAccessKey: 'evolution-secret',
      bucket: 'evolution',
      forcePathStyle: true,
    });
  });

  it('an endpoint named by AWS_ENDPOINT_URL_S3 (or AWS_ENDPOINT_URL) replaces it, keys and all: the credential chain signs', () => {
    for (const name of ['AWS_ENDPOINT_URL_S3', 'AWS_ENDPOINT_URL']) {
      const s3 = loadConfig({ [name]: 'https://s3.internal', AWS_PROFILE: 'ci' }, localServices).s3;
      expect(s3).toEqual({ endpoint: 'https://s3.internal', bucket: 'evolution', profile: 'ci', forcePathStyle: true });
    }
  });

  it('EVOLUTION_IGNORE_LOCAL_INFRA=1 leaves only what the environment says', () => {
    expect(loadConfig({ EVOLUTION_IGNORE_LOCAL_INFRA: '1', AWS_REGION: 'eu-west-1' }, localServices).s3).toEqual({
      region: 'eu-west-1',
      bucket: 'evolution',
      forcePathStyle: false,
    });
  });
});
