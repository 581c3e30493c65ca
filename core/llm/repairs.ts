import { z } from 'zod';

/**
 * What was done to make a model's answer usable, recorded on the call that got it (a
 * learning job's outcome, a reflection record), so an operator sees which endpoints need
 * help and how much. Each kind is something the reference implementation tolerates too.
 */
export const ANSWER_REPAIR_KINDS = [
  /** The endpoint refused `response_format: json_schema`; the answer came in `json_object` mode, the schema in the prompt. */
  'format_json_object',
  /** The endpoint refused every response format; the answer came from plain instructions (the schema in the prompt). */
  'format_plain',
  /** The JSON was inside a Markdown code fence. */
  'code_fence',
  /** Text before or after the JSON object was dropped. */
  'prose_around_json',
  /** A comma before a closing `}` or `]` was dropped. */
  'trailing_comma',
  /** An optional key was missing and took its default (the path says which). */
  'missing_optional_key',
  /** An update's `new_spec` had no name and took the update's (the reference does the same). */
  'update_name_for_new_spec',
  /** A reflection answer did not say which component it rewrote; it is the one requested. */
  'requested_component',
] as const;
export type AnswerRepairKind = (typeof ANSWER_REPAIR_KINDS)[number];

export const AnswerRepairSchema = z.object({
  kind: z.enum(ANSWER_REPAIR_KINDS),
  path: z.string().optional().describe('Where in the answer, e.g. updates[0].new_spec.name.'),
});
export type AnswerRepair = z.infer<typeof AnswerRepairSchema>;

/** The response format a structured call was answered in, most to least constrained. */
export const RESPONSE_FORMAT_LEVELS = ['json_schema', 'json_object', 'plain'] as const;
export type ResponseFormatLevel = (typeof RESPONSE_FORMAT_LEVELS)[number];

/** The next, less constrained level after an endpoint refused `level` (undefined: none left). */
export function nextFormatLevel(level: ResponseFormatLevel): ResponseFormatLevel | undefined {
  return RESPONSE_FORMAT_LEVELS[RESPONSE_FORMAT_LEVELS.indexOf(level) + 1];
}

/** The repair a call records for answering at `level` (none for json_schema). */
export function formatRepair(level: ResponseFormatLevel): AnswerRepair | undefined {
  if (level === 'json_object') return { kind: 'format_json_object' };
  if (level === 'plain') return { kind: 'format_plain' };
  return undefined;
}

const FORMAT_WORDS = /response[_ ]format|json[_ ]schema|json[_ ]object|structured[_ ]output|guided[_ ]json|grammar/i;

/**
 * Whether an HTTP error from a model endpoint is a refusal of the requested response
 * format, rather than of the request as a whole: a client-error status (400, 404, 415, 422,
 * 501) whose message or `param` names the response format. Servers word this differently
 * (vLLM, llama.cpp, LM Studio, Groq, …); all name the parameter or the format.
 */
export function isResponseFormatRefusal(error: { status?: number; message?: string; param?: string | null }): boolean {
  if (error.status === undefined || ![400, 404, 415, 422, 501].includes(error.status)) return false;
  return (error.param ?? '').startsWith('response_format') || FORMAT_WORDS.test(error.message ?? '');
}

/** How one model answer was obtained: recorded beside what it produced (a learning job's outcome, a reflection record). */
export const ModelAnswerRecordSchema = z.object({
  format: z.enum(RESPONSE_FORMAT_LEVELS).describe('The response format the answer came in: json_schema unless the endpoint refused it.'),
  repairs: z.array(AnswerRepairSchema).describe('What was done to make the answer usable; empty for a strict answer.'),
  promptTokens: z.number().int().nonnegative().optional(),
  completionTokens: z.number().int().nonnegative().optional(),
});
export type ModelAnswerRecord = z.infer<typeof ModelAnswerRecordSchema>;
