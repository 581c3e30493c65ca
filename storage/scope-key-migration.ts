import { z } from 'zod';
import { idSegment, safeSegment, scopeKey, ScopeSchema, type Scope } from '../core';
import { mapLimit } from '../core/concurrency';
import { sameJson } from './canonical-json';
import { InvalidStorageRequestError, PreconditionConflictError } from './errors';
import { revisionLocatorKey } from './keys';
import { compactJson, indentedJson, type ObjectStore } from './object-store';

/**
 * Moves what was stored under the scope-key mapping before issue 31 to the one-to-one
 * mapping (core idSegment). The old mapping kept any safe-looking id verbatim, so an id that
 * starts with `id-` (`id-42`, or a user who named themselves after someone's hash) sat beside
 * the hashed ids. Under the new mapping such an id is hashed; hashed ids keep their segment.
 *
 * What moves: every object under `scopes/{key}/` whose app or user segment is such an id
 * (revisions, pointers, SKILL.md, audit, cursors, job outcomes, the scope index), every
 * session folder of such a session id, every `experiments/{id}/` folder of such an experiment
 * id, and the revision locators (`revisions-by-id/`) of moved revisions. JSON content that
 * names the old scope key as a whole string is rewritten to the new key; job and revision ids
 * (which name the workflows that made them) are left as they are.
 *
 * An old segment shaped exactly like a hash (`id-` and 16 hex) is either a hash or a literal
 * id spelled like one: the revisions of the scope (each carries its scope's ids) decide; with
 * revisions pointing both ways the scope is reported as collided and left alone, and without
 * revisions it is assumed to be a hash (reported as unverified). The same holds for an
 * experiment by its experiment.json.
 *
 * Each object is copied with a create-only write and the old one deleted only once every copy
 * of its group exists, so a run can stop anywhere and run again; an object already at the new
 * key with other content is a conflict that leaves the whole group in place.
 */

/** The old mapping of one id: safe ids verbatim, anything else hashed. Only the migration uses it. */
export function legacySegment(id: string): string {
  return safeSegment(id);
}

/** The scope key under the mapping before issue 31. Only the migration (and its tests) use it. */
export function legacyScopeKey(scope: Scope): string {
  if (scope.mode === 'none') return 'global';
  if (scope.mode === 'app') return `apps/${legacySegment(scope.app ?? '')}`;
  return `users/${legacySegment(scope.app ?? '')}/${legacySegment(scope.user ?? '')}`;
}

const HASH_SHAPED = /^id-[0-9a-f]{16}$/;
const RESERVED = 'id-';
const ROOTS = ['scopes/', 'experiments/'] as const;

export type MoveStatus = 'moved' | 'would-move' | 'conflict' | 'collided';

export interface ScopeKeyMove {
  kind: 'scope' | 'session' | 'experiment';
  /** Old and new key prefix, e.g. `scopes/users/shop/id-42/` → `scopes/users/shop/id-{hash}/`. */
  from: string;
  to: string;
  objects: number;
  status: MoveStatus;
  /** Why a group did not move (conflicting keys, or the scopes its revisions name). */
  detail?: string;
}

export interface ScopeKeyMigrationReport {
  dryRun: boolean;
  /** Objects listed under the scanned prefixes. */
  scanned: number;
  moves: ScopeKeyMove[];
  /** Hash-shaped segments with no stored ids to tell: assumed to be hashes and left in place. */
  unverified: string[];
  /** Scope keys whose workflows (sessions, approvals, index) were started under the old key. */
  oldScopeKeys: string[];
}

export interface MigrationOptions {
  dryRun: boolean;
  /** Key prefixes to scan, each under `scopes/` or `experiments/` (default: both whole trees). */
  under?: string[];
}

const RevisionScopeSchema = z.looseObject({ id: z.string(), scopeKey: z.string(), scope: ScopeSchema });
const ExperimentIdSchema = z.looseObject({ experimentId: z.string() });
const LocatorSchema = z.looseObject({ scopeKey: z.string(), skillId: z.string() });

interface Group {
  kind: ScopeKeyMove['kind'];
  from: string;
  to: string;
  oldScopeKey?: string;
  newScopeKey?: string;
  /** Old key → new key of every object of the group. */
  keys: Map<string, string>;
}

export async function migrateScopeKeys(objects: ObjectStore, opts: MigrationOptions): Promise<ScopeKeyMigrationReport> {
  const roots = opts.under?.length ? opts.under : [...ROOTS];
  for (const root of roots)
    if (!ROOTS.some((r) => root.startsWith(r)) || root.includes('..'))
      throw new InvalidStorageRequestError(`--under must be a key prefix under scopes/ or experiments/, got ${JSON.stringify(root)}`);
  const keys = [...new Set((await Promise.all(roots.map((r) => objects.list(r)))).flat())].sort();

  const report: ScopeKeyMigrationReport = { dryRun: opts.dryRun, scanned: keys.length, moves: [], unverified: [], oldScopeKeys: [] };
  const groups = [...(await scopeGroups(objects, keys, report)), ...(await experimentGroups(objects, keys, report))];
  for (const group of groups) {
    const move: ScopeKeyMove = { kind: group.kind, from: group.from, to: group.to, objects: group.keys.size, status: opts.dryRun ? 'would-move' : 'moved' };
    if (group.to === group.from) {
      move.status = 'collided';
      move.detail = 'its revisions name different scopes; nothing moved (see docs/security.md)';
    } else if (!opts.dryRun) {
      const conflicts = await moveGroup(objects, group);
      if (conflicts.length) {
        move.status = 'conflict';
        move.detail = `already at the new key with other content: ${conflicts.slice(0, 5).join(', ')}${conflicts.length > 5 ? ', …' : ''}; nothing deleted`;
      }
    }
    report.moves.push(move);
  }
  return report;
}

const SCOPE_KEY_OF = /^scopes\/(global|apps\/[^/]+|users\/[^/]+\/[^/]+)\/(.*)$/;

async function scopeGroups(objects: ObjectStore, keys: string[], report: ScopeKeyMigrationReport): Promise<Group[]> {
  const byScope = new Map<string, string[]>();
  for (const key of keys) {
    const m = SCOPE_KEY_OF.exec(key);
    if (!m) continue;
    const list = byScope.get(m[1]!) ?? [];
    list.push(m[2]!);
    byScope.set(m[1]!, list);
  }
  const groups: Group[] = [];
  for (const [oldKey, rests] of byScope) {
    const target = await targetScopeKey(objects, oldKey, rests, report);
    if (target === 'collided') {
      groups.push({ kind: 'scope', from: `scopes/${oldKey}/`, to: `scopes/${oldKey}/`, keys: new Map() });
      continue;
    }
    if (target !== oldKey) {
      report.oldScopeKeys.push(oldKey);
      const moved = new Map(rests.map((r) => [`scopes/${oldKey}/${r}`, `scopes/${target}/${sessionRemapped(r)}`]));
      groups.push({ kind: 'scope', from: `scopes/${oldKey}/`, to: `scopes/${target}/`, oldScopeKey: oldKey, newScopeKey: target, keys: moved });
      continue;
    }
    // The scope stays; sessions of ids spelled `id-…` move within it.
    const bySession = new Map<string, Map<string, string>>();
    for (const rest of rests) {
      const session = /^sessions\/([^/]+)\//.exec(rest)?.[1];
      if (!session?.startsWith(RESERVED)) continue;
      if (HASH_SHAPED.test(session)) {
        if (!report.unverified.includes(`scopes/${oldKey}/sessions/${session}/`)) report.unverified.push(`scopes/${oldKey}/sessions/${session}/`);
        continue;
      }
      const sessionKeys = bySession.get(session) ?? new Map<string, string>();
      sessionKeys.set(`scopes/${oldKey}/${rest}`, `scopes/${oldKey}/${sessionRemapped(rest)}`);
      bySession.set(session, sessionKeys);
    }
    for (const [session, sessionKeys] of bySession)
      groups.push({ kind: 'session', from: `scopes/${oldKey}/sessions/${session}/`, to: `scopes/${oldKey}/sessions/${idSegment(session)}/`, keys: sessionKeys });
  }
  return groups;
}

/** A path inside a scope with a session id the old mapping kept verbatim (`id-…`, not hash-shaped) re-mapped; a cursor holds no session id to tell a hash-shaped one by. */
function sessionRemapped(rest: string): string {
  const m = /^sessions\/([^/]+)\/(.*)$/.exec(rest);
  if (!m || !m[1]!.startsWith(RESERVED) || HASH_SHAPED.test(m[1]!)) return rest;
  return `sessions/${idSegment(m[1]!)}/${m[2]}`;
}

/**
 * Where a scope stored under the old mapping belongs now: from its revisions' scopes when
 * a segment is hash-shaped, else from the key alone ('collided' when the revisions disagree).
 */
async function targetScopeKey(objects: ObjectStore, oldKey: string, rests: string[], report: ScopeKeyMigrationReport): Promise<string | 'collided'> {
  const segments = oldKey.split('/').slice(1);
  if (!segments.some((s) => s.startsWith(RESERVED))) return oldKey;
  const byKey = [oldKey.split('/')[0], ...segments.map((s) => (s.startsWith(RESERVED) && !HASH_SHAPED.test(s) ? idSegment(s) : s))].join('/');
  if (!segments.some((s) => HASH_SHAPED.test(s))) return byKey;

  const revisionKeys = rests.filter((r) => /^skills\/[^/]+\/revisions\/[^/]+\.json$/.test(r)).map((r) => `scopes/${oldKey}/${r}`);
  const wanted = new Set<string>();
  await mapLimit(revisionKeys, 16, async (key) => {
    const rev = await objects.getJson(key, RevisionScopeSchema);
    if (rev && legacyScopeKey(rev.value.scope) === oldKey) wanted.add(scopeKey(rev.value.scope));
  });
  if (wanted.size > 1) return 'collided';
  if (wanted.size === 1) return [...wanted][0]!;
  report.unverified.push(`scopes/${oldKey}/`);
  return byKey;
}

async function experimentGroups(objects: ObjectStore, keys: string[], report: ScopeKeyMigrationReport): Promise<Group[]> {
  const byExperiment = new Map<string, string[]>();
  for (const key of keys) {
    const segment = /^experiments\/([^/]+)\//.exec(key)?.[1];
    if (segment?.startsWith(RESERVED)) byExperiment.set(segment, [...(byExperiment.get(segment) ?? []), key]);
  }
  const groups: Group[] = [];
  for (const [segment, experimentKeys] of byExperiment) {
    const from = `experiments/${segment}/`;
    let literal = !HASH_SHAPED.test(segment);
    if (!literal) {
      const stored = await objects.getJson(`${from}experiment.json`, ExperimentIdSchema);
      if (!stored) report.unverified.push(from);
      literal = stored?.value.experimentId === segment;
    }
    const to = `experiments/${idSegment(segment)}/`;
    if (literal) groups.push({ kind: 'experiment', from, to, keys: new Map(experimentKeys.map((k) => [k, to + k.slice(from.length)])) });
  }
  return groups;
}

/** Revisions first and the pointers and index last, so a reader of the new key never sees a pointer without its revision. */
function copyOrder(key: string): number {
  if (/\/revisions\/[^/]+\.json$/.test(key)) return 0;
  if (key.endsWith('/active.json') || key.endsWith('/SKILL.md')) return 2;
  if (key.endsWith('/index.json')) return 3;
  return 1;
}

/** Copies every object of the group (create-only), re-points the locators, then deletes the old objects. Returns conflicting keys. */
async function moveGroup(objects: ObjectStore, group: Group): Promise<string[]> {
  const ordered = [...group.keys.keys()].sort((a, b) => copyOrder(a) - copyOrder(b) || (a < b ? -1 : 1));
  const conflicts: string[] = [];
  const revisionIds: string[] = [];
  for (const oldKey of ordered) {
    const newKey = group.keys.get(oldKey)!;
    const got = await objects.getBytes(oldKey);
    if (!got) continue; // deleted by an earlier run after its copy
    const body = rewritten(oldKey, got.value, group);
    if (group.oldScopeKey && /\/revisions\/[^/]+\.json$/.test(oldKey) && typeof body === 'string') {
      const id = (JSON.parse(body) as { id?: unknown }).id;
      if (typeof id === 'string') revisionIds.push(id);
    }
    try {
      await objects.putCreateOnly(newKey, body);
    } catch (error) {
      if (!(error instanceof PreconditionConflictError)) throw error;
      const there = await objects.getBytes(newKey);
      if (!there || !sameContent(newKey, there.value, body)) conflicts.push(newKey);
    }
  }
  if (conflicts.length) return conflicts;
  if (group.oldScopeKey && group.newScopeKey) await mapLimit(revisionIds, 16, (id) => repointLocator(objects, id, group.oldScopeKey!, group.newScopeKey!));
  await mapLimit(ordered, 16, (key) => objects.delete(key));
  return [];
}

async function repointLocator(objects: ObjectStore, revisionId: string, oldScopeKey: string, newScopeKey: string): Promise<void> {
  const key = revisionLocatorKey(revisionId);
  const stored = await objects.getJson(key, LocatorSchema);
  if (!stored || stored.value.scopeKey !== oldScopeKey) return;
  await objects.putIfMatch(key, { ...stored.value, scopeKey: newScopeKey }, stored.etag);
}

/** JSON with every string equal to the old scope key replaced by the new one; other objects as they are. */
function rewritten(key: string, bytes: Uint8Array, group: Group): string | Uint8Array {
  if (!key.endsWith('.json') && !key.endsWith('.md')) return bytes;
  const text = new TextDecoder('utf-8').decode(bytes);
  if (!key.endsWith('.json') || !group.oldScopeKey || !text.includes(JSON.stringify(group.oldScopeKey))) return text;
  const from = group.oldScopeKey;
  const to = group.newScopeKey!;
  const replace = (v: unknown): unknown =>
    v === from ? to : Array.isArray(v) ? v.map(replace) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, replace(x)])) : v;
  const value = replace(JSON.parse(text));
  // In the form it was stored in: a scope's index and usage summary are compact (see compactJson).
  return /^[[{]\n/.test(text) ? indentedJson(value) : compactJson(value as object);
}

function sameContent(key: string, stored: Uint8Array, body: string | Uint8Array): boolean {
  const text = new TextDecoder('utf-8').decode(stored);
  const mine = typeof body === 'string' ? body : new TextDecoder('utf-8').decode(body);
  if (text === mine) return true;
  if (!key.endsWith('.json')) return false;
  try {
    return sameJson(JSON.parse(text), JSON.parse(mine));
  } catch {
    return false;
  }
}
