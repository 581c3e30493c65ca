import type { CurationNote } from '../schemas/revision';

/** What an approver reads about a curator proposal beside the held reasons: what it is, and every item a merge drops with its reason. */
export function curationLines(note: CurationNote | undefined): string[] {
  if (!note) return [];
  const what =
    note.kind === 'merge' && note.mergedFrom?.length
      ? `curator merge: ${note.mergedFrom.join(', ')} merged into this skill`
      : note.mergedInto
        ? `curator merge: archived, merged into ${note.mergedInto}`
        : `curator ${note.kind}`;
  return [
    `${what} (run ${note.runId})`,
    ...(note.kind === 'merge' && note.mergedFrom?.length && !note.dropped?.length ? ['merge drops nothing: every step and pitfall of the sources is kept'] : []),
    ...(note.dropped ?? []).map((d) => `merge drops ${d.kind} of ${d.source}: "${d.item}" (reason: ${d.reason})`),
  ];
}
