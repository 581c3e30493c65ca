import type OpenAI from 'openai';
import { redactOutcome, type Outcome } from '../../core';
import type { RejectionNote } from '../../core/governance/rejections';

export interface ReviewerPromptInput {
  session: { app: string; user: string; sessionId: string };
  /** Already bounded and redacted (see core/learning/transcript). */
  transcript: unknown[];
  existingSkills: { name: string; description: string; body_excerpt: string }[];
  outcome?: Outcome;
  /** Changes approvers rejected for the skills shown (and rejected creates), with their comments. */
  rejected?: RejectionNote[];
}

const SYSTEM = `ROLE: skill-reviewer
You review a finished segment of an AI agent's session and decide whether it revealed a
reusable method worth keeping as a Skill (a procedure: when to use it, ordered steps,
pitfalls). Prefer updating an existing skill over creating a near-duplicate. Never invent
steps the agent did not execute. Never include secrets, credentials or destructive commands.
When a session outcome is given and it failed, capture what went wrong as pitfalls.
Changes listed under "Rejected changes" were refused by a human approver: do not propose
them again; address the approver's comment or leave the skill as it is.
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
  if (input.rejected?.length) {
    parts.push(
      section(
        'Rejected changes',
        input.rejected.map((r) => ({
          skill: r.name,
          action: r.action,
          rejected_at: r.rejectedAt,
          approver: r.reviewer,
          comment: r.comment,
          ...(r.proposed ? { proposed: r.proposed } : {}),
        })),
      ),
    );
  }
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: parts.join('\n\n') },
  ];
}
