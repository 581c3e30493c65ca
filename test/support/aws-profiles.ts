import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LOCAL_S3_ROLE_ARN, LOCAL_S3_TEST_IDENTITIES } from '../../infra/s3-auth';
import { REPO_ROOT } from '../../infra/paths';

/** How long the rotating credential_process's credentials live: the SDK refreshes them 5 minutes before that, so 4 s after handing them out. */
export const ROTATING_EXPIRES_IN_MS = 5 * 60_000 + 4_000;

export interface CredentialProcessCall {
  accessKeyId: string;
  at: number;
  /** The process that ran it and its ancestors (the SDK may run it through a shell). */
  callers: number[];
}

/**
 * AWS shared config and credentials files in a temporary directory, with profiles for the
 * local S3 server's test identities (infra/s3-auth.ts):
 *   alt-1     static keys of one identity, from the shared credentials file
 *   rotating  a `credential_process` handing out the two identities in turn, expiring soon
 *   assumer   a role assumed through the local S3 server's STS, from alt-2's keys
 *   wrong     keys the server does not know
 * `env(profile)` is what a process needs to use one of them (and nothing else: no S3 keys).
 */
export function writeAwsProfiles() {
  const dir = mkdtempSync(join(tmpdir(), 'aws-profiles-'));
  const configFile = join(dir, 'config');
  const credentialsFile = join(dir, 'credentials');
  const credentialLog = join(dir, 'credential-process.log');
  const [alt1, alt2] = LOCAL_S3_TEST_IDENTITIES;
  const script = join(REPO_ROOT, 'test', 'support', 'rotating-credential-process.js');
  const rotation = LOCAL_S3_TEST_IDENTITIES.map((id) => `${id.accessKeyId}:${id.secretAccessKey}`).join(',');
  writeFileSync(
    configFile,
    [
      '[profile alt-1]',
      'region = us-east-1',
      '[profile rotating]',
      'region = us-east-1',
      `credential_process = ${process.execPath} ${script} ${credentialLog} ${ROTATING_EXPIRES_IN_MS} ${rotation}`,
      '[profile assumer]',
      'region = us-east-1',
      `role_arn = ${LOCAL_S3_ROLE_ARN}`,
      'source_profile = alt-2',
      'role_session_name = evolution-test',
      '[profile alt-2]',
      'region = us-east-1',
      '[profile wrong]',
      'region = us-east-1',
      '',
    ].join('\n'),
  );
  writeFileSync(
    credentialsFile,
    [
      '[alt-1]',
      `aws_access_key_id = ${alt1.accessKeyId}`,
      `aws_secret_access_key = ${alt1.secretAccessKey}`,
      '[alt-2]',
      `aws_access_key_id = ${alt2.accessKeyId}`,
      `aws_secret_access_key = ${alt2.secretAccessKey}`,
      '[wrong]',
      'aws_access_key_id = EVOLUTIONNOBODY',
      'aws_secret_access_key = not-a-secret-the-server-knows',
      '',
    ].join('\n'),
  );
  return {
    dir,
    configFile,
    credentialsFile,
    /** Every call of the rotating credential_process so far, in order. */
    credentialProcessCalls(): CredentialProcessCall[] {
      try {
        return readFileSync(credentialLog, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as CredentialProcessCall);
      } catch {
        return [];
      }
    },
    env(profile: string): Record<string, string> {
      return { AWS_CONFIG_FILE: configFile, AWS_SHARED_CREDENTIALS_FILE: credentialsFile, AWS_PROFILE: profile, AWS_EC2_METADATA_DISABLED: 'true' };
    },
  };
}

/** Variables through which credentials could reach a process from outside a test's control. */
export const CREDENTIAL_VARIABLES = [
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_PROFILE',
  'AWS_CONFIG_FILE',
  'AWS_SHARED_CREDENTIALS_FILE',
  'AWS_ROLE_ARN',
  'AWS_WEB_IDENTITY_TOKEN_FILE',
  'AWS_CONTAINER_CREDENTIALS_FULL_URI',
  'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI',
] as const;
