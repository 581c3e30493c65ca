import type { SkillSpec } from '../schemas/skill';

/** An item of a source skill the merged skill leaves out, and why (shown to the approver). */
export interface DroppedItem {
  item: string;
  reason: string;
}

export interface MissingItem {
  source: string;
  kind: 'step' | 'pitfall';
  item: string;
}

export interface PreservationCheck {
  ok: boolean;
  /** Items of a source neither in the merged skill nor listed as dropped with a reason: why a merge is refused. */
  missing: MissingItem[];
  /** Items dropped with a reason (what the approver reads). */
  dropped: (DroppedItem & { source: string; kind: 'step' | 'pitfall' })[];
}

/** Case, whitespace, quotes and trailing punctuation do not count as a change of content. */
export function normalizeItem(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[`'"“”‘’]/g, '')
    .replace(/\s+/g, ' ')
    .replace(/[\s.;:,!]+$/, '')
    .trim();
}

/**
 * The deterministic content-preservation check of a consolidation: every step and pitfall
 * of every source appears in the merged skill (as an item, or inside a merged item that
 * combines several) or is listed in `dropped` with a non-empty reason. Anything else is
 * missing, and the merge is refused.
 */
export function checkPreservation(sources: readonly SkillSpec[], merged: SkillSpec, dropped: readonly DroppedItem[]): PreservationCheck {
  const kept = [...merged.steps, ...merged.pitfalls].map(normalizeItem);
  const reasons = new Map<string, string>();
  for (const d of dropped) if (d.reason.trim()) reasons.set(normalizeItem(d.item), d.reason.trim());
  const missing: MissingItem[] = [];
  const listed: PreservationCheck['dropped'] = [];
  for (const source of sources) {
    const items: [MissingItem['kind'], string][] = [
      ...source.steps.map((s) => ['step', s] as [MissingItem['kind'], string]),
      ...source.pitfalls.map((p) => ['pitfall', p] as [MissingItem['kind'], string]),
    ];
    for (const [kind, item] of items) {
      const n = normalizeItem(item);
      if (n === '' || kept.some((k) => k === n || k.includes(n))) continue;
      const reason = reasons.get(n);
      if (reason) listed.push({ source: source.name, kind, item, reason });
      else missing.push({ source: source.name, kind, item });
    }
  }
  return { ok: missing.length === 0, missing, dropped: listed };
}
