import { binaryPath } from './binaries';
import { localS3Settings } from './services';
import { readState, type InfraState } from './state';

/**
 * The environment variables that point the worker, client, tests and demo at the
 * local services. Real deployments set these variables themselves.
 */
export function infraEnv(state: InfraState = readState()): Record<string, string> {
  const env: Record<string, string> = { TEMPORAL_TEST_SERVER_PATH: binaryPath('temporal-test-server') };
  const { temporal, s3, model } = state.services;
  if (temporal) {
    env.TEMPORAL_ADDRESS = temporal.endpoint;
    if (temporal.extra?.ui) env.TEMPORAL_UI_URL = temporal.extra.ui;
  }
  if (s3) {
    const { accessKeyId, secretAccessKey, bucket } = localS3Settings();
    Object.assign(env, { S3_ENDPOINT: s3.endpoint, S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey, S3_BUCKET: bucket, S3_FORCE_PATH_STYLE: 'true' });
  }
  if (model) env.OPENAI_BASE_URL = model.endpoint;
  return env;
}
