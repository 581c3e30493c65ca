/**
 * How the stand-in answers: like a strict endpoint (json_schema honoured, bare JSON) or
 * like a non-strict local model served through an OpenAI-compatible server.
 *
 * - `strict`: the default.
 * - `non-strict`: refuses `response_format: json_schema` (HTTP 400 naming the parameter),
 *   accepts `json_object` and none, and answers loosely: the JSON in a ```json fence
 *   between two lines of prose, with a trailing comma after every last member, and the
 *   optional keys a careless model leaves out (empty lists, a blank skip_reason, an
 *   update's reason and its new_spec's name, pitfalls when empty; the reflector's
 *   component and rationale).
 * - `plain`: as non-strict, and refuses `json_object` too (plain instructions only).
 *
 * Chosen per request by the model name (a `nonstrict` or `plain` word in it, e.g.
 * `evolution-local-reviewer-nonstrict`), else by the server's `--style`; so one server
 * plays strict and non-strict models side by side.
 */
import { HttpError } from './http-util';

export const ANSWER_STYLES = ['strict', 'non-strict', 'plain'] as const;
export type AnswerStyle = (typeof ANSWER_STYLES)[number];

export function styleOf(model: string, runStyle: AnswerStyle = 'strict'): AnswerStyle {
  if (/(^|[^a-z])plain([^a-z]|$)/i.test(model)) return 'plain';
  if (/(^|[^a-z])non-?strict([^a-z]|$)/i.test(model)) return 'non-strict';
  return runStyle;
}

/** The 400 a non-strict endpoint answers a response format it does not support with. */
export function refusedFormat(style: AnswerStyle, formatType: string | undefined): HttpError | undefined {
  if (style === 'strict' || formatType === undefined || formatType === 'text') return undefined;
  if (formatType === 'json_schema' || (style === 'plain' && formatType === 'json_object')) {
    return new HttpError(
      400,
      `response_format type '${formatType}' is not supported by this model (local stand-in, ${style} style)`,
      'invalid_request_error',
      'unsupported_response_format',
      'response_format',
    );
  }
  return undefined;
}

/** Leaves out what a careless model leaves out of a reviewer decision. */
export function looseReviewDecision(decision: {
  skip_reason: string;
  creates: { pitfalls: string[] }[];
  updates: { name: string; new_spec: { name: string; pitfalls: string[] }; reason: string }[];
  deletions: string[];
}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (decision.skip_reason) out.skip_reason = decision.skip_reason;
  if (decision.creates.length) out.creates = decision.creates.map(withoutEmptyPitfalls);
  if (decision.updates.length) {
    out.updates = decision.updates.map(({ name, new_spec }) => {
      const { name: _sameName, ...spec } = withoutEmptyPitfalls(new_spec);
      return { name, new_spec: spec };
    });
  }
  if (decision.deletions.length) out.deletions = decision.deletions;
  return out;
}

/** A reflection without the keys a careless model leaves out (the component it was asked for, the rationale). */
export function looseReflection(reflection: { component: string; new_value: string | string[]; rationale: string }): Record<string, unknown> {
  return { new_value: reflection.new_value };
}

function withoutEmptyPitfalls<T extends { pitfalls: string[] }>(spec: T): Omit<T, 'pitfalls'> & { pitfalls?: string[] } {
  if (spec.pitfalls.length) return spec;
  const { pitfalls: _none, ...rest } = spec;
  return rest;
}

/** Pretty JSON with a trailing comma after every last member, fenced, between two lines of prose. */
export function looseText(value: unknown, what: string): string {
  const lines = JSON.stringify(value, null, 2).split('\n');
  const withCommas = lines.map((line, i) => {
    const next = lines[i + 1]?.trim() ?? '';
    const closesNext = next.startsWith('}') || next.startsWith(']');
    const opens = line.endsWith('{') || line.endsWith('[');
    return closesNext && !opens ? `${line},` : line;
  });
  return `Sure! Here is the ${what}:\n\n\`\`\`json\n${withCommas.join('\n')}\n\`\`\`\n\nLet me know if you want me to adjust anything.`;
}
