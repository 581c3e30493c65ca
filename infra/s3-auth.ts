import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Who the local S3 server (SeaweedFS) lets in: the store's own identity (the config's local
 * defaults, overridable by S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY), two more identities that
 * tests hand out through AWS profiles and a rotating `credential_process`, and an STS (SeaweedFS's
 * own AssumeRole on the S3 port) whose role any of them may assume for session credentials.
 */
export const LOCAL_S3_TEST_IDENTITIES = [
  { name: 'evolution-alt-1', accessKeyId: 'EVOLUTIONALT1', secretAccessKey: 'evolution-alt-1-secret' },
  { name: 'evolution-alt-2', accessKeyId: 'EVOLUTIONALT2', secretAccessKey: 'evolution-alt-2-secret' },
] as const;

/** The role SeaweedFS's STS hands out session credentials for (AssumeRole, signed by any identity above). */
export const LOCAL_S3_ROLE_ARN = 'arn:aws:iam::role/EvolutionLocalRole';

const ACTIONS = ['Read', 'Write', 'List', 'Tagging'];

/** The `-s3.config` identities file. */
export function localS3Identities(store: { accessKeyId: string; secretAccessKey: string }): object {
  return {
    identities: [
      { name: 'evolution', credentials: [{ accessKey: store.accessKeyId, secretKey: store.secretAccessKey }], actions: ['Admin', ...ACTIONS] },
      ...LOCAL_S3_TEST_IDENTITIES.map((id) => ({ name: id.name, credentials: [{ accessKey: id.accessKeyId, secretKey: id.secretAccessKey }], actions: ACTIONS })),
    ],
  };
}

/** The `-s3.iam.config` file: the STS (its signing key is the data directory's own) and the role it grants. */
export function localS3IamConfig(signingKey: string): object {
  return {
    sts: { tokenDuration: '1h', maxSessionLength: '12h', issuer: 'evolution-local-sts', signingKey },
    policy: { defaultEffect: 'Deny' },
    roles: [
      {
        roleName: 'EvolutionLocalRole',
        roleArn: LOCAL_S3_ROLE_ARN,
        trustPolicy: { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: { AWS: '*' }, Action: ['sts:AssumeRole'] }] },
        attachedPolicies: ['EvolutionLocalStore'],
      },
    ],
    policies: [
      {
        name: 'EvolutionLocalStore',
        document: { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: ['s3:*'], Resource: ['arn:aws:s3:::*', 'arn:aws:s3:::*/*'] }] },
      },
    ],
  };
}

/**
 * Writes both files into the server's data directory (the signing key is made once and kept,
 * so session credentials outlive a restart) and returns their paths.
 */
export function writeLocalS3Auth(dataDir: string, store: { accessKeyId: string; secretAccessKey: string }): { identities: string; iam: string } {
  const keyFile = join(dataDir, 'sts-signing-key');
  if (!existsSync(keyFile)) writeFileSync(keyFile, randomBytes(32).toString('base64'), { mode: 0o600 });
  const identities = join(dataDir, 'identities.json');
  const iam = join(dataDir, 'iam.json');
  writeFileSync(identities, JSON.stringify(localS3Identities(store)));
  writeFileSync(iam, JSON.stringify(localS3IamConfig(readFileSync(keyFile, 'utf8').trim())));
  return { identities, iam };
}

/** Whether the running server was started with the files this code would write (else it is restarted). */
export function localS3AuthCurrent(dataDir: string | undefined, store: { accessKeyId: string; secretAccessKey: string }): boolean {
  if (!dataDir) return false;
  try {
    const key = readFileSync(join(dataDir, 'sts-signing-key'), 'utf8').trim();
    return (
      readFileSync(join(dataDir, 'identities.json'), 'utf8') === JSON.stringify(localS3Identities(store)) &&
      readFileSync(join(dataDir, 'iam.json'), 'utf8') === JSON.stringify(localS3IamConfig(key))
    );
  } catch {
    return false;
  }
}
