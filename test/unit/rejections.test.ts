import { describe, expect, it } from 'vitest';
import { addRejection, MAX_REJECTIONS_PER_SCOPE, rejectionNote, rejectionsFor, rejectionsOfSkill, type RejectionNote } from '../../core/governance/rejections';
import type { Revision } from '../../core';

const revision = (id: string, skillId: string, action: Revision['action'] = 'update'): Revision =>
  ({
    id,
    skillId,
    scopeKey: 'apps/a',
    scope: { mode: 'app', app: 'a' },
    action,
    status: 'pending_approval',
    spec: { name: skillId, description: 'd', when_to_use: 'w', steps: Array.from({ length: 10 }, (_, i) => `step ${i}`), pitfalls: ['p'] },
    source: 'reviewer',
    jobId: 'j',
    reason: '',
    gates: [],
    shadowBypassed: false,
    createdAt: '2026-12-01T00:00:00.000Z',
    updatedAt: '2026-12-01T00:00:00.000Z',
    history: [],
  }) as Revision;

const note = (id: string, skillId: string, action: Revision['action'] = 'update'): RejectionNote =>
  rejectionNote(revision(id, skillId, action), { reviewer: 'ana', comment: `no ${id}`, at: '2026-12-01T00:00:00.000Z' });

describe('rejection notes', () => {
  it('abridge the proposal, redact and bound the comment', () => {
    const n = rejectionNote(revision('r1', 'deploy'), { reviewer: 'ana', comment: `never with api_key=sk-${'a'.repeat(40)} ${'x'.repeat(500)}`, at: 't' });
    expect(n.proposed!.steps).toHaveLength(6);
    expect(n.comment).not.toContain('sk-aaaa');
    expect(n.comment.length).toBeLessThanOrEqual(301);
  });

  it('are kept once per revision, newest first, bounded', () => {
    let notes: RejectionNote[] = [];
    for (let i = 0; i < MAX_REJECTIONS_PER_SCOPE + 5; i++) notes = addRejection(notes, note(`r${i}`, 's')).notes;
    expect(notes).toHaveLength(MAX_REJECTIONS_PER_SCOPE);
    expect(notes[0]!.revisionId).toBe(`r${MAX_REJECTIONS_PER_SCOPE + 4}`);
    expect(addRejection(notes, note(`r${MAX_REJECTIONS_PER_SCOPE + 4}`, 's'))).toMatchObject({ changed: false });
  });

  it('shown to a reviewer: those of the skills it may change (by id or name), then rejected creates; to a reflector: its skill only', () => {
    const notes = [note('u1', 'deploy'), note('c1', 'brand-new', 'create'), note('u2', 'other'), note('u3', 'Deploy')];
    expect(rejectionsFor(notes, [{ name: 'DEPLOY' }]).map((n) => n.revisionId)).toEqual(['u1', 'u3', 'c1']);
    expect(rejectionsFor(notes, [{ skillId: 'other', name: 'x' }]).map((n) => n.revisionId)).toEqual(['u2', 'c1']);
    expect(rejectionsOfSkill(notes, 'deploy').map((n) => n.revisionId)).toEqual(['u1']);
  });
});
