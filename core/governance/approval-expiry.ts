/**
 * What an approval timeout does (the approval workflow's `expiryAction`). A high-risk revision
 * is rejected whatever the setting: it never reaches publication without a person. Deviation
 * from the reference, which always promotes: the default setting is `reject`, because an
 * expired approval means nobody looked (docs/security.md). No setting (governance recorded by
 * a job before the setting existed) keeps what that code did: promote.
 */
export function approvalExpiryAction(riskTier: 'low' | 'high' | undefined, setting: 'promote' | 'reject' | undefined): 'promote' | 'reject' {
  if (riskTier === 'high') return 'reject';
  return setting ?? 'promote';
}
