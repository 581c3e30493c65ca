import type OpenAI from 'openai';
import { z } from 'zod';
import type { SessionEvent } from '../core';

/** The shapes the shipped families cover; a user's family may name any. */
export type FamilyShape = 'multi-step tool workflow' | 'recovery from error' | 'format and quality' | 'negative transfer';

/** One test case: an id and the inputs its task is built from (the seed varies them). */
export const FamilyCaseSchema = z.object({ id: z.string().min(1), inputs: z.record(z.string(), z.unknown()) });
export type FamilyCase = z.infer<typeof FamilyCaseSchema>;

/**
 * A recorded session of the family's task, in compact form: the task, the tool calls with
 * their answers, the final answer, and optionally the user's follow-up (a correction) and
 * the answer to it. The online arm's training stream; the replay phase re-runs its tasks.
 */
export const RecordedSessionSchema = z.object({
  sessionId: z.string().min(1),
  task: z.string().min(1),
  inputs: z.record(z.string(), z.unknown()),
  calls: z.array(z.object({ name: z.string().min(1), arguments: z.record(z.string(), z.unknown()), result: z.string() })),
  answer: z.string(),
  followUp: z.object({ user: z.string().min(1), answer: z.string() }).optional(),
});
export type RecordedSession = z.infer<typeof RecordedSessionSchema>;

/** A family's data file (cases.json): test cases, and the recorded sessions the online arm learns from. */
export const FamilyDataSchema = z.object({
  cases: z.array(FamilyCaseSchema).min(1),
  training: z.array(RecordedSessionSchema).min(1),
});
export type FamilyData = z.infer<typeof FamilyDataSchema>;

/** A task as the agent gets it: the prompt and the inputs written into it. */
export interface Task {
  prompt: string;
  inputs: Record<string, unknown>;
}

/** One tool call the agent made, with the simulated answer. */
export interface ToolCallRecord {
  name: string;
  arguments: string;
  result: string;
}

/** What the grader gets: the final answer and every tool call, in order. */
export interface Episode {
  answer: string;
  calls: ToolCallRecord[];
}

export interface Grade {
  pass: boolean;
  /** 0..1, partial credit. */
  quality: number;
  notes: string[];
}

/** The deterministic tools of one episode (state lives in the object: a new one per case and seed). */
export interface ToolWorld {
  call(name: string, args: Record<string, unknown>): string;
}

/**
 * A task family: data (cases.json) plus this small evaluator module. Everything is a
 * pure function of (case, seed): the tools are simulated, the grader deterministic.
 */
export interface Family {
  name: string;
  shape: FamilyShape;
  description: string;
  /** Whether the skill the training stream teaches is meant to help or to hurt (what the report is checked against). */
  expectedEffect: 'helps' | 'hurts';
  data: FamilyData;
  tools: OpenAI.Chat.Completions.ChatCompletionFunctionTool[];
  task(c: FamilyCase, seed: number): Task;
  world(c: FamilyCase, seed: number): ToolWorld;
  grade(episode: Episode, c: FamilyCase, seed: number): Grade;
}

/** A function tool whose parameters are all strings, described once. */
export function stringTool(name: string, description: string, params: string[]): OpenAI.Chat.Completions.ChatCompletionFunctionTool {
  return {
    type: 'function',
    function: {
      name,
      description,
      parameters: { type: 'object', properties: Object.fromEntries(params.map((p) => [p, { type: 'string' }])), required: params, additionalProperties: false },
    },
  };
}

/** A small deterministic number from a case, a seed and a salt (FNV-1a). */
export function caseHash(caseId: string, seed: number, salt = ''): number {
  let h = 0x811c9dc5;
  for (const ch of `${caseId}|${seed}|${salt}`) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** The prompt every family uses: the task text, then its inputs as a JSON block. */
export function taskPrompt(text: string, inputs: Record<string, unknown>): Task {
  return { prompt: `${text}\n\nInputs:\n\`\`\`json\n${JSON.stringify(inputs)}\n\`\`\``, inputs };
}

export const unknownTool = (name: string) => `error: unknown tool ${name}`;

/** A recorded session as the session events the platform contract submits. */
export function sessionEvents(session: RecordedSession): SessionEvent[] {
  const task = taskPrompt(session.task, session.inputs);
  const events: SessionEvent[] = [{ role: 'user', content: task.prompt }];
  session.calls.forEach((c, i) => {
    const id = `call_${i + 1}`;
    events.push({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.arguments) } }] });
    events.push({ role: 'tool', tool_call_id: id, content: c.result });
  });
  events.push({ role: 'assistant', content: session.answer });
  if (session.followUp) events.push({ role: 'user', content: session.followUp.user }, { role: 'assistant', content: session.followUp.answer });
  return events;
}

/** Reads a family's cases.json (the module passes its own import), with a clear error naming the family. */
export function familyData(name: string, raw: unknown): FamilyData {
  const parsed = FamilyDataSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`family ${name}: cases.json is invalid: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}
