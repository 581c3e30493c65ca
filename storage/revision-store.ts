import { z } from 'zod';
import { learningJobTagOf, RevisionSchema, revisionStatus, scopeKey as scopeKeyOf, type ActivePointer, type Revision, type RevisionStatus } from '../core';
import type { RevisionRef } from '../core/governance/types';
import { illegalTransitionMessage, judgeTransition } from '../core/revision-lifecycle';
import { sameJson } from './canonical-json';
import { retryOnConflict } from './cas-retry';
import { IllegalTransitionError, InvalidStorageRequestError, NotFoundError } from './errors';
import { parseInput } from './input';
import { revisionKey, revisionLocatorKey, revisionsPrefix, skillsPrefix } from './keys';
import { mapLimit } from '../core/concurrency';
import type { RevisionLocation } from './job-outcome-store';
import type { ObjectStore } from './object-store';
import { putOnce } from './put-once';

/** Fields a status transition may change; everything else is immutable content (invariant 3). */
export const MUTABLE_REVISION_FIELDS = ['status', 'updatedAt', 'history', 'gates', 'human', 'shadowBypassed', 'promotedAt'] as const;

export type RevisionPatch = Partial<Pick<Revision, 'gates' | 'human' | 'shadowBypassed' | 'promotedAt'>>;

export interface Transition {
  to: RevisionStatus;
  reason: string;
  /** From the workflow (deterministic), so a retried activity writes the same history entry. */
  at: string;
  patch?: RevisionPatch;
}

const RevisionLocatorSchema = z.object({ scopeKey: z.string(), skillId: z.string() });

const READ_CONCURRENCY = 8;

export interface CreateRevisionOptions {
  /**
   * The caller records the outcome of the learning job that made this revision next, in the
   * same activity (its last write): that outcome finds the revision by bare id, so no locator
   * is written. The id's uniqueness rests on its job's (learningRevisionIdFor hashes the scope
   * key and the job id). Only for ids learningRevisionIdFor makes.
   */
  locatedByJobOutcome?: boolean;
}

/**
 * `pointerOf` reads a skill's pointer: every listing reports the status derived from it
 * (core `revisionStatus`), never a stored copy kept in sync. `locateThroughJobOutcome` finds a
 * revision that has no locator (CreateRevisionOptions).
 */
export function revisionStore(
  objects: ObjectStore,
  pointerOf: (scopeKey: string, skillId: string) => Promise<ActivePointer | undefined>,
  locateThroughJobOutcome: (revisionId: string) => Promise<RevisionLocation | undefined>,
) {
  /** `read`: the skill's pointer as the caller has just read it (no read then). */
  async function withStatus(scopeKey: string, skillId: string, revisions: Revision[], read?: { pointer: ActivePointer | undefined }): Promise<Revision[]> {
    if (revisions.length === 0) return revisions;
    const pointer = read ? read.pointer : await pointerOf(scopeKey, skillId);
    return revisions.map((r) => ({ ...r, status: revisionStatus(pointer, r) }));
  }

  /** The stored revision: its `status` is the stored decision (see revisionStatus for the status). */
  async function readRevision(scopeKey: string, skillId: string, revisionId: string): Promise<Revision | undefined> {
    return (await objects.getJson(revisionKey(scopeKey, skillId, revisionId), RevisionSchema))?.value;
  }

  /** Claims the revision id globally, so the same id can never name two revisions. */
  async function writeLocator(rev: Revision): Promise<void> {
    const key = revisionLocatorKey(rev.id);
    const locator = { scopeKey: rev.scopeKey, skillId: rev.skillId };
    await putOnce(objects, key, locator, {
      schema: RevisionLocatorSchema,
      conflict: (existing) => `revision id ${rev.id} already belongs to skill ${existing.skillId} in ${existing.scopeKey}`,
    });
  }

  /**
   * Create-only. Writing the same revision again (a retried activity) returns the stored
   * one, even if it has moved on in its lifecycle; different content under the same id
   * is a non-retryable conflict.
   */
  async function createRevision(input: z.input<typeof RevisionSchema>, options: CreateRevisionOptions = {}): Promise<Revision> {
    const rev = parseInput(RevisionSchema, input, `revision ${String((input as { id?: unknown })?.id)}`);
    if (scopeKeyOf(rev.scope) !== rev.scopeKey) {
      throw new InvalidStorageRequestError(`revision ${rev.id} has scopeKey ${rev.scopeKey}, but its scope maps to ${scopeKeyOf(rev.scope)}`);
    }
    if (options.locatedByJobOutcome && !learningJobTagOf(rev.id)) {
      throw new InvalidStorageRequestError(
        `revision ${rev.id} is not a learning job's revision id (rev-{scope tag}-{job tag}-{n}): only those are located through their job's outcome`,
      );
    }
    const key = revisionKey(rev.scopeKey, rev.skillId, rev.id);
    if (!options.locatedByJobOutcome) await writeLocator(rev);
    return putOnce(objects, key, rev, {
      schema: RevisionSchema,
      same: (stored, written) => sameJson(immutableContent(stored), immutableContent(written)),
      conflict: () => `revision ${rev.id} already exists at ${key} with different content (revisions are immutable)`,
    });
  }

  /** Oldest first (by createdAt, then id), each with its derived status (one pointer read, unless the caller has just read it). */
  async function listRevisions(scopeKey: string, skillId: string, read?: { pointer: ActivePointer | undefined }): Promise<Revision[]> {
    const keys = (await objects.list(revisionsPrefix(scopeKey, skillId))).filter((k) => k.endsWith('.json'));
    const revisions = await mapLimit(keys, READ_CONCURRENCY, async (k) => (await objects.getJson(k, RevisionSchema))?.value);
    return withStatus(scopeKey, skillId, revisions.filter((r): r is Revision => r !== undefined).sort(byCreation), read);
  }

  /** Key segments of the skills of a scope (equal to the skill ids, which are safe slugs). */
  async function listSkillIds(scopeKey: string): Promise<string[]> {
    return objects.listChildren(skillsPrefix(scopeKey));
  }

  /** Every revision of the scope in one of `statuses`, oldest first (a scan; fine at this size). */
  async function listRevisionsByStatus(scopeKey: string, statuses: readonly RevisionStatus[]): Promise<Revision[]> {
    const skillIds = await listSkillIds(scopeKey);
    const perSkill = await mapLimit(skillIds, READ_CONCURRENCY, (id) => listRevisions(scopeKey, id));
    return perSkill
      .flat()
      .filter((r) => statuses.includes(r.status))
      .sort(byCreation);
  }

  /** By bare id, with its derived status: through its job's outcome (a learning job's last revision), else its locator. */
  async function findRevision(revisionId: string): Promise<Revision | undefined> {
    const location = (await locateThroughJobOutcome(revisionId)) ?? (await objects.getJson(revisionLocatorKey(revisionId), RevisionLocatorSchema))?.value;
    if (!location) return undefined;
    const rev = await readRevision(location.scopeKey, location.skillId, revisionId);
    return rev && (await withStatus(rev.scopeKey, rev.skillId, [rev]))[0];
  }

  /**
   * Moves a revision along the lifecycle by read + If-Match write, re-reading on a lost
   * race. Already applied (same status, or this exact history entry present) is a no-op
   * that returns the stored revision, so retried activities succeed; an illegal move is
   * a non-retryable IllegalTransitionError.
   */
  async function transitionRevision(ref: RevisionRef, transition: Transition): Promise<Revision> {
    const key = revisionKey(ref.scopeKey, ref.skillId, ref.revisionId);
    return retryOnConflict(async () => {
      const stored = await objects.getJson(key, RevisionSchema);
      if (!stored) throw new NotFoundError(key, `revision ${ref.revisionId}`);
      const rev = stored.value;
      if (alreadyApplied(rev, transition)) return rev;
      if (judgeTransition(rev.status, transition.to) === 'illegal') {
        throw new IllegalTransitionError(illegalTransitionMessage(rev.id, rev.status, transition.to));
      }
      const next = parseInput(
        RevisionSchema,
        {
          ...rev,
          ...transition.patch,
          status: transition.to,
          updatedAt: transition.at,
          promotedAt: transition.patch?.promotedAt ?? (transition.to === 'active' ? transition.at : rev.promotedAt),
          history: [...rev.history, { from: rev.status, to: transition.to, at: transition.at, reason: transition.reason }],
        },
        `transition of revision ${rev.id} to ${transition.to}`,
      );
      await objects.putIfMatch(key, next, stored.etag);
      return next;
    });
  }

  return { createRevision, readRevision, listRevisions, listSkillIds, listRevisionsByStatus, findRevision, transitionRevision };
}

export type RevisionStore = ReturnType<typeof revisionStore>;

function immutableContent(rev: Revision): Partial<Revision> {
  const content: Partial<Revision> = { ...rev };
  for (const field of MUTABLE_REVISION_FIELDS) delete content[field];
  return content;
}

/**
 * A retry of a transition that succeeded may find the revision moved on since
 * (e.g. active, then archived): its history entry, not the status, proves it was done.
 */
function alreadyApplied(rev: Revision, t: Transition): boolean {
  if (rev.status === t.to) return true;
  return rev.history.some((h) => h.to === t.to && h.at === t.at && h.reason === t.reason);
}

function byCreation(a: Revision, b: Revision): number {
  const time = (Date.parse(a.createdAt) || 0) - (Date.parse(b.createdAt) || 0);
  if (time !== 0) return time;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
