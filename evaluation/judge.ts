import type OpenAI from 'openai';
import { z } from 'zod';
import { structuredCompletion } from '../activities/llm/structured-call';
import type { CaseResult } from '../core/evaluation';
import type { Episode } from './family';

export const JUDGE_SCHEMA_NAME = 'evaluation_judgement';

export const JudgementSchema = z.object({
  quality: z.number().min(0).max(1).describe('0 (useless) to 1 (complete, correct and well written)'),
  reason: z.string().describe('one or two sentences: what made the score'),
});

export const JUDGE_SYSTEM_PROMPT = [
  'ROLE: evaluation-judge',
  'You grade how well an agent did one task. You get the task, the tool calls the agent made with their results, and its final answer.',
  'Score the final answer for the user from 0 to 1: correct, complete, and useful as written. Judge only what is shown.',
].join('\n');

const MAX_TOOL_RESULT = 400;

/**
 * The optional judge: a quality score from a model, asked through the project's one
 * structured-call helper (tolerant parsing, format fallback), beside the grader's
 * deterministic checks. Its answer is zod-validated; a malformed one fails the case's
 * activity, which Temporal retries.
 */
export async function judgeEpisode(opts: { openai: OpenAI; model: string; prompt: string; episode: Episode; signal?: AbortSignal }): Promise<NonNullable<CaseResult['judge']>> {
  const calls = opts.episode.calls.map((c, i) => `${i + 1}. ${c.name}(${c.arguments}) → ${c.result.slice(0, MAX_TOOL_RESULT)}`).join('\n') || '(none)';
  const { value, record } = await structuredCompletion({
    client: opts.openai,
    model: opts.model,
    schemaName: JUDGE_SCHEMA_NAME,
    schema: JudgementSchema,
    signal: opts.signal,
    messages: [
      { role: 'system', content: JUDGE_SYSTEM_PROMPT },
      { role: 'user', content: `## Task\n${opts.prompt}\n\n## Tool calls\n${calls}\n\n## Final answer\n${opts.episode.answer || '(no answer)'}` },
    ],
  });
  return {
    model: opts.model,
    quality: value.quality,
    reason: value.reason.slice(0, 500),
    promptTokens: record.promptTokens ?? 0,
    completionTokens: record.completionTokens ?? 0,
  };
}
