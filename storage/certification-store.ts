import { z } from 'zod';
import type { CertificationCheck } from '../core/gepa/recertification';
import { certificationKey, certificationsPrefix } from './keys';
import { mapLimit } from '../core/concurrency';
import type { ObjectStore } from './object-store';

const VersionsSchema = z.object({ evaluatorVersion: z.string().optional(), modelVersion: z.string().optional() });

export const CertificationCheckSchema = z.object({
  scopeKey: z.string(),
  skillId: z.string(),
  revisionId: z.string(),
  verdict: z.enum(['current', 'recertified', 'stale', 'regressed']),
  reason: z.string(),
  checkedAt: z.string(),
  certified: VersionsSchema,
  current: VersionsSchema.optional(),
  baselineHoldoutScore: z.number().optional(),
  candidateHoldoutScore: z.number().optional(),
  delta: z.number().optional(),
  caseCount: z.number().int().optional(),
  proposedRollbackTo: z.string().optional(),
}) satisfies z.ZodType<CertificationCheck>;

/**
 * The latest re-certification check of each optimized revision, beside its scope. One
 * writer (the re-certification workflow, one run at a time: its schedule skips overlaps)
 * rewrites an object whole, so the write is unconditional and a retry writes the same.
 */
export function certificationStore(objects: ObjectStore) {
  async function writeCertificationCheck(check: CertificationCheck): Promise<void> {
    await objects.put(certificationKey(check.scopeKey, check.revisionId), CertificationCheckSchema.parse(check));
  }

  async function readCertificationCheck(scopeKey: string, revisionId: string): Promise<CertificationCheck | undefined> {
    return (await objects.getJson(certificationKey(scopeKey, revisionId), CertificationCheckSchema))?.value;
  }

  /** Every check of a scope: one per optimized revision ever checked, so as many as its GEPA submissions, not its history. */
  async function listCertificationChecks(scopeKey: string): Promise<CertificationCheck[]> {
    const keys = await objects.list(certificationsPrefix(scopeKey));
    const checks = await mapLimit(keys, 8, async (k) => (await objects.getJson(k, CertificationCheckSchema))?.value);
    return checks.filter((c): c is CertificationCheck => c !== undefined);
  }

  return { writeCertificationCheck, readCertificationCheck, listCertificationChecks };
}
