import type { AnswerRepair } from './repairs';

export type JsonFromText = { ok: true; value: unknown; repairs: AnswerRepair[] } | { ok: false; error: string };

const FENCE = /```[\w-]*[^\S\n]*\n?([\s\S]*?)```/g;

/**
 * The JSON object in a model's answer, as non-strict models write it: bare, inside a
 * Markdown code fence, wrapped in prose, with trailing commas. Each tolerance used is
 * returned as a repair. Nothing else is guessed: an object that never closes (a truncated
 * answer) or any other syntax error stays an error, with JSON.parse's message.
 */
export function jsonFromModelText(content: string): JsonFromText {
  const text = content.trim();
  const direct = tryParse(text);
  if (direct.ok) return { ok: true, value: direct.value, repairs: [] };

  const repairs: AnswerRepair[] = [];
  let candidate = text;
  const fenced = [...text.matchAll(FENCE)].find((m) => m[1]!.includes('{'));
  if (fenced) {
    repairs.push({ kind: 'code_fence' });
    candidate = fenced[1]!.trim();
    if (text.replace(fenced[0], '').trim() !== '') repairs.push({ kind: 'prose_around_json' });
  }
  const object = firstBalancedObject(candidate);
  if (object !== undefined && object.trim() !== candidate) {
    if (!repairs.some((r) => r.kind === 'prose_around_json')) repairs.push({ kind: 'prose_around_json' });
    candidate = object;
  }
  const parsed = tryParse(candidate);
  if (parsed.ok) return { ok: true, value: parsed.value, repairs };

  const withoutTrailingCommas = dropTrailingCommas(candidate);
  if (withoutTrailingCommas !== candidate) {
    const again = tryParse(withoutTrailingCommas);
    if (again.ok) return { ok: true, value: again.value, repairs: [...repairs, { kind: 'trailing_comma' }] };
  }
  return { ok: false, error: object === undefined && candidate.includes('{') ? `${parsed.error} (the JSON object never closes)` : parsed.error };
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
}

/** The first `{…}` whose braces balance, skipping braces inside strings; undefined when none closes. */
export function firstBalancedObject(text: string): string | undefined {
  const start = text.indexOf('{');
  if (start < 0) return undefined;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) return text.slice(start, i + 1);
  }
  return undefined;
}

/** Drops each comma (outside strings) that is followed, after whitespace, by `}` or `]`. */
export function dropTrailingCommas(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (inString) {
      out += ch;
      if (ch === '\\' && i + 1 < text.length) out += text[++i];
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    if (ch === ',') {
      let j = i + 1;
      while (j < text.length && /\s/.test(text[j]!)) j++;
      if (text[j] === '}' || text[j] === ']') continue;
    }
    out += ch;
  }
  return out;
}
