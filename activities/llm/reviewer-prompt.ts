import type OpenAI from 'openai';
import { redactOutcome, type Outcome } from '../../core';

export interface ReviewerPromptInput {
  session: { app: string; user: string; sessionId: string };
  /** Already bounded and redacted (see core/learning/transcript). */
  transcript: unknown[];
  existingSkills: { name: string; description: string; body_excerpt: string }[];
  outcome?: Outcome;
}

const SYSTEM = `ROLE: skill-reviewer
You review a finished segment of an AI agent's session and decide whether it revealed a
reusable method worth keeping as a Skill (a procedure: when to use it, ordered steps,
pitfalls). Prefer updating an existing skill over creating a near-duplicate. Never invent
steps the agent did not execute. Never include secrets, credentials or destructive commands.
When a session outcome is given and it failed, capture what went wrong as pitfalls.
If nothing reusable happened, answer with a non-empty skip_reason and empty lists.
Answer only with JSON matching the schema: {skip_reason, creates, updates, deletions}.`;

function section(title: string, value: unknown): string {
  return `## ${title}\n\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;
}

/** The reviewer prompt; its section layout is the contract the local model server parses. */
export function reviewerMessages(input: ReviewerPromptInput): OpenAI.Chat.Completions.ChatCompletionMessageParam[] {
  const parts = [section('Session', input.session), section('Transcript', input.transcript), section('Existing skills', input.existingSkills)];
  // Redacted again here: a segment started without the client never passed its redaction.
  if (input.outcome) parts.push(section('Session outcome', redactOutcome(input.outcome)));
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: parts.join('\n\n') },
  ];
}
