import { optimizableSpecProblems } from '../schemas/gepa';
import { SKILL_COMPONENTS, SkillSpecSchema, type SkillComponent, type SkillSpec } from '../schemas/skill';
import { shortHash } from '../skills/hash';

/** Round-robin order of the components reflection edits: steps → pitfalls → when_to_use → description. */
export const COMPONENT_ORDER: readonly SkillComponent[] = SKILL_COMPONENTS;

const LIST_COMPONENTS: ReadonlySet<SkillComponent> = new Set(['steps', 'pitfalls']);

export function isListComponent(component: SkillComponent): component is 'steps' | 'pitfalls' {
  return LIST_COMPONENTS.has(component);
}

/** The component a cursor points at (cursor counts up forever; it wraps). */
export function componentAt(cursor: number): SkillComponent {
  const n = COMPONENT_ORDER.length;
  return COMPONENT_ORDER[((cursor % n) + n) % n];
}

export function nextComponentCursor(cursor: number): number {
  return (cursor + 1) % COMPONENT_ORDER.length;
}

/** The current value of one component (a copy for list components). */
export function componentValue(spec: SkillSpec, component: SkillComponent): string | string[] {
  switch (component) {
    case 'steps':
      return [...spec.steps];
    case 'pitfalls':
      return [...spec.pitfalls];
    case 'when_to_use':
      return spec.when_to_use;
    case 'description':
      return spec.description;
  }
}

export type ApplyComponentResult = { ok: true; spec: SkillSpec } | { ok: false; reason: string };

/**
 * A copy of `spec` with ONLY `component` replaced by `value`. Text is trimmed and
 * blank list entries dropped; the resulting spec must still be a valid,
 * optimizable skill, otherwise the reason says why.
 */
export function applyComponent(spec: SkillSpec, component: SkillComponent, value: unknown): ApplyComponentResult {
  const child: SkillSpec = { ...spec, steps: [...spec.steps], pitfalls: [...spec.pitfalls] };
  if (isListComponent(component)) {
    if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) {
      return { ok: false, reason: `${component} must be a list of strings` };
    }
    child[component] = value.map((v) => v.trim()).filter((v) => v !== '');
  } else {
    if (typeof value !== 'string') return { ok: false, reason: `${component} must be a string` };
    child[component] = value.trim();
  }
  const parsed = SkillSpecSchema.safeParse(child);
  if (!parsed.success) {
    return { ok: false, reason: parsed.error.issues.map((i) => `${i.path.join('.') || 'spec'}: ${i.message}`).join('; ') };
  }
  const problems = optimizableSpecProblems(parsed.data);
  if (problems.length > 0) return { ok: false, reason: problems.join('; ') };
  return { ok: true, spec: parsed.data };
}

/** Canonical JSON of a spec (fixed key order), the input of its fingerprint. */
export function canonicalSpecJson(spec: SkillSpec): string {
  return JSON.stringify([spec.name, spec.description, spec.when_to_use, spec.steps, spec.pitfalls]);
}

/** Content fingerprint for duplicate detection: 16 hex digits of SHA-256 over the canonical JSON. */
export function specFingerprint(spec: SkillSpec): string {
  return shortHash(canonicalSpecJson(spec), 16);
}
