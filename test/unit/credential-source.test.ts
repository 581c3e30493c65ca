import { describe, expect, it } from 'vitest';
import { describeCredentialSource, STATIC_KEYS_SOURCE } from '../../storage/credential-source';

describe('describeCredentialSource (from the feature ids the AWS SDK stamps on resolved credentials)', () => {
  it('names each source of the default chain, the profile where one was read', () => {
    expect(describeCredentialSource({ CREDENTIALS_ENV_VARS: 'g' }, undefined)).toBe('AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY');
    expect(describeCredentialSource({ CREDENTIALS_PROFILE: 'n' }, 'ci')).toBe('profile `ci`');
    expect(describeCredentialSource({ CREDENTIALS_PROFILE: 'n' }, undefined)).toBe('profile `default`');
    expect(describeCredentialSource({ CREDENTIALS_PROFILE_PROCESS: 'v', CREDENTIALS_PROCESS: 'w' }, 'vault')).toBe('the credential_process of profile `vault`');
    expect(describeCredentialSource({ CREDENTIALS_PROFILE_SSO: 'r', CREDENTIALS_SSO: 's' }, 'dev')).toBe('SSO (profile `dev`)');
    expect(describeCredentialSource({ CREDENTIALS_ENV_VARS_STS_WEB_ID_TOKEN: 'h', CREDENTIALS_STS_ASSUME_ROLE_WEB_ID: 'k' }, undefined)).toBe(
      'the web identity token of AWS_WEB_IDENTITY_TOKEN_FILE and AWS_ROLE_ARN (IRSA)',
    );
    expect(describeCredentialSource({ CREDENTIALS_HTTP: 'z' }, undefined)).toBe('the container credentials endpoint (ECS, EKS Pod Identity)');
    expect(describeCredentialSource({ CREDENTIALS_IMDS: '0' }, undefined)).toBe('the EC2 instance metadata service');
    expect(describeCredentialSource({ CREDENTIALS_CODE: 'e' }, undefined)).toBe(STATIC_KEYS_SOURCE);
  });

  it('a role assumed through a profile is named as that, not as the static keys it started from', () => {
    expect(describeCredentialSource({ CREDENTIALS_PROFILE_SOURCE_PROFILE: 'o', CREDENTIALS_PROFILE: 'n', CREDENTIALS_STS_ASSUME_ROLE: 'i' }, 'deploy')).toBe(
      'the role assumed by profile `deploy`',
    );
  });

  it('before any credentials were resolved: the chain, and the profile it will read', () => {
    expect(describeCredentialSource(undefined, undefined)).toBe("the AWS SDK's default credential chain");
    expect(describeCredentialSource(undefined, 'ci')).toBe("the AWS SDK's credential chain (profile `ci`)");
  });
});
