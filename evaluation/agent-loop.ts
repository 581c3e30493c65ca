import type OpenAI from 'openai';
import type { SkillLoadTool } from '../client/skill-load-tool';
import type { Episode, Family, FamilyCase, ToolCallRecord } from './family';

export const AGENT_SYSTEM_PROMPT = [
  'ROLE: evaluation-agent',
  'You are an agent doing one task with the tools given. When a skill listed by skill_load covers the task, load it first and follow it.',
  'Finish with a short final answer for the user.',
].join('\n');

const MAX_TURNS = 16;

export interface EpisodeResult extends Episode {
  skillLoaded: string[];
  turns: number;
  promptTokens: number;
  completionTokens: number;
}

/**
 * Our agent loop: the family's task, its simulated tools and (when skills are offered)
 * `skill_load`, against any OpenAI-compatible chat model, until the model answers
 * without a tool call (or MAX_TURNS, which ends the episode with no answer).
 */
export async function runEpisode(opts: {
  openai: OpenAI;
  model: string;
  family: Family;
  testCase: FamilyCase;
  seed: number;
  prompt?: string;
  skills?: SkillLoadTool;
  signal?: AbortSignal;
}): Promise<EpisodeResult> {
  const { family, testCase, seed } = opts;
  const world = family.world(testCase, seed);
  const tools = [...family.tools, ...(opts.skills ? [await opts.skills.definition()] : [])];
  const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
    { role: 'system', content: AGENT_SYSTEM_PROMPT },
    { role: 'user', content: opts.prompt ?? family.task(testCase, seed).prompt },
  ];
  const calls: ToolCallRecord[] = [];
  const skillLoaded: string[] = [];
  let promptTokens = 0;
  let completionTokens = 0;
  for (let turn = 1; turn <= MAX_TURNS; turn++) {
    const completion = await opts.openai.chat.completions.create({ model: opts.model, messages, tools, temperature: 0 }, { signal: opts.signal });
    promptTokens += completion.usage?.prompt_tokens ?? 0;
    completionTokens += completion.usage?.completion_tokens ?? 0;
    const message = completion.choices[0]?.message;
    const toolCalls = (message?.tool_calls ?? []).filter((c) => c.type === 'function');
    if (!message || toolCalls.length === 0) {
      return { answer: message?.content ?? '', calls, skillLoaded, turns: turn, promptTokens, completionTokens };
    }
    messages.push({ role: 'assistant', content: message.content ?? null, tool_calls: toolCalls });
    for (const call of toolCalls) {
      const { name, arguments: argsText } = call.function;
      let result: string;
      if (opts.skills && name === 'skill_load') {
        result = await opts.skills.handle(argsText);
        if (!result.startsWith('error')) skillLoaded.push(safeName(argsText));
      } else {
        result = world.call(name, parseArgs(argsText));
        calls.push({ name, arguments: argsText, result });
      }
      messages.push({ role: 'tool', tool_call_id: call.id, content: result });
    }
  }
  return { answer: '', calls, skillLoaded, turns: MAX_TURNS, promptTokens, completionTokens };
}

function parseArgs(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text || '{}');
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const safeName = (argsText: string) => String(parseArgs(argsText).name ?? '');
