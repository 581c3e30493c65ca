/**
 * Names where the S3 credentials came from, for error messages ("S3 refused the credentials
 * from profile `ci` (InvalidAccessKeyId) …"): from the explicit S3_* keys, or from the feature
 * ids the AWS SDK's providers stamp on the credentials they resolve (`$source`).
 */

/** The SDK's credential feature ids (@aws-sdk/types AwsSdkCredentialsFeatures), those that say where credentials came from. */
type CredentialFeature =
  | 'CREDENTIALS_CODE'
  | 'CREDENTIALS_ENV_VARS'
  | 'CREDENTIALS_ENV_VARS_STS_WEB_ID_TOKEN'
  | 'CREDENTIALS_STS_ASSUME_ROLE'
  | 'CREDENTIALS_STS_ASSUME_ROLE_WEB_ID'
  | 'CREDENTIALS_PROFILE'
  | 'CREDENTIALS_PROFILE_SOURCE_PROFILE'
  | 'CREDENTIALS_PROFILE_STS_WEB_ID_TOKEN'
  | 'CREDENTIALS_PROFILE_SSO'
  | 'CREDENTIALS_SSO'
  | 'CREDENTIALS_PROFILE_SSO_LEGACY'
  | 'CREDENTIALS_SSO_LEGACY'
  | 'CREDENTIALS_PROFILE_PROCESS'
  | 'CREDENTIALS_PROCESS'
  | 'CREDENTIALS_HTTP'
  | 'CREDENTIALS_IMDS'
  | 'CREDENTIALS_PROFILE_LOGIN'
  | 'CREDENTIALS_LOGIN';

export const STATIC_KEYS_SOURCE = 'S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY';

/**
 * `features`: the credentials' `$source` (feature id → code); `profile`: the profile the chain
 * read (AWS_PROFILE, else `default`). Most specific first: a role assumed through a profile is
 * named as that, not as the profile's static keys it started from.
 */
export function describeCredentialSource(features: Partial<Record<string, string>> | undefined, profile: string | undefined): string {
  const has = (...ids: CredentialFeature[]) => ids.some((id) => features?.[id] !== undefined);
  const named = `profile \`${profile ?? 'default'}\``;
  if (has('CREDENTIALS_PROFILE_PROCESS', 'CREDENTIALS_PROCESS')) return `the credential_process of ${named}`;
  if (has('CREDENTIALS_PROFILE_SSO', 'CREDENTIALS_SSO', 'CREDENTIALS_PROFILE_SSO_LEGACY', 'CREDENTIALS_SSO_LEGACY')) return `SSO (${named})`;
  if (has('CREDENTIALS_PROFILE_LOGIN', 'CREDENTIALS_LOGIN')) return `the console login session of ${named}`;
  if (has('CREDENTIALS_ENV_VARS_STS_WEB_ID_TOKEN')) return 'the web identity token of AWS_WEB_IDENTITY_TOKEN_FILE and AWS_ROLE_ARN (IRSA)';
  if (has('CREDENTIALS_PROFILE_STS_WEB_ID_TOKEN')) return `the web identity token of ${named}`;
  if (has('CREDENTIALS_STS_ASSUME_ROLE', 'CREDENTIALS_PROFILE_SOURCE_PROFILE')) return `the role assumed by ${named}`;
  if (has('CREDENTIALS_STS_ASSUME_ROLE_WEB_ID')) return 'a web identity role';
  if (has('CREDENTIALS_PROFILE')) return named;
  if (has('CREDENTIALS_ENV_VARS')) return 'AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY';
  if (has('CREDENTIALS_HTTP')) return 'the container credentials endpoint (ECS, EKS Pod Identity)';
  if (has('CREDENTIALS_IMDS')) return 'the EC2 instance metadata service';
  if (has('CREDENTIALS_CODE')) return STATIC_KEYS_SOURCE;
  return profile ? `the AWS SDK's credential chain (${named})` : "the AWS SDK's default credential chain";
}

/** S3 error codes that refuse the credentials themselves (not what they may do). */
export const REFUSED_CREDENTIAL_CODES: ReadonlySet<string> = new Set([
  'InvalidAccessKeyId',
  'SignatureDoesNotMatch',
  'ExpiredToken',
  'InvalidToken',
  'TokenRefreshRequired',
  'InvalidSecurity',
  'AuthorizationHeaderMalformed',
]);
