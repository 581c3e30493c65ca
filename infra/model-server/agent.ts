/**
 * Deterministic stand-in for the AGENT model of `evolution evaluate`. It is not a model: it
 * follows written instructions literally, so an evaluation against it proves the harness's
 * machinery (skills reach the agent, change what it does, and the grader sees it), not
 * that skills help a real model. Same conversation ⇒ same answer.
 *
 * Contract (evaluation/agent-loop.ts writes its requests to match):
 *  - Role: a first system message starting with `ROLE: evaluation-agent`.
 *  - The first user message is the task; its first ```json block holds the task's inputs.
 *  - `tools`: the family's tools (function tools with JSON-Schema `properties`) and, when
 *    skills are offered, `skill_load`, whose description lists `- name: description`.
 *
 * Policy, applied to the conversation so far:
 *  1. Skill: when `skill_load` lists skills and none was loaded yet, it loads the listed
 *     skill sharing the most words (4+ letters) with the task, if it shares at least two.
 *  2. Plan: with a loaded skill, the tools its lines name as "Call `tool`", in order;
 *     without one, the family tools the task names (in backticks), in order.
 *  3. Calls: the next planned tool not yet answered without an error, its arguments the
 *     task inputs of the same names. A tool answer that starts with "error" ends the run
 *     with a failure answer, unless the loaded skill says to retry that tool (the
 *     reviewer's "If `tool` fails …, retry the call") — then up to 3 attempts.
 *  4. Answer: with a loaded skill that says to answer as `TEMPLATE`, the template with
 *     every `{key}` taken from the JSON objects the tools returned; otherwise "Result: "
 *     and those objects merged into one JSON object.
 */
import { messageText, type ChatMessage, type ChatRequest } from './chat-request';
import { contractViolation } from './prompt-sections';

export interface AgentToolCall {
  id: string;
  name: string;
  arguments: string;
}

export type AgentTurn = { kind: 'tool_call'; call: AgentToolCall } | { kind: 'answer'; content: string };

interface FunctionTool {
  name: string;
  description: string;
  parameters: string[];
}

interface PastCall {
  name: string;
  args: string;
  result?: string;
}

const MAX_ATTEMPTS = 3;
const SKILL_LOAD = 'skill_load';

export function agentTurn(request: ChatRequest): AgentTurn {
  const tools = functionTools(request);
  const task = request.messages.find((m) => m.role === 'user');
  if (!task) throw contractViolation('the evaluation agent needs a user message with the task');
  const taskText = messageText(task);
  const inputs = taskInputs(taskText);
  const calls = pastCalls(request.messages);
  const nextId = `call_${calls.length + 1}`;

  const skillLoad = tools.find((t) => t.name === SKILL_LOAD);
  const loads = calls.filter((c) => c.name === SKILL_LOAD);
  const skill = loads.map((c) => c.result ?? '').find((r) => r && !r.startsWith('error'));
  if (skillLoad && loads.length === 0) {
    const pick = bestSkill(skillLoad.description, taskText);
    if (pick) return { kind: 'tool_call', call: { id: nextId, name: SKILL_LOAD, arguments: JSON.stringify({ name: pick }) } };
  }

  const familyTools = tools.filter((t) => t.name !== SKILL_LOAD);
  const plan = skill ? toolsNamedBy(skill, /Call `([^`]+)`/g) : toolsNamedBy(taskText, /`([^`]+)`/g);
  const planned = plan.filter((name) => familyTools.some((t) => t.name === name));
  const retryable = new Set(skill ? toolsNamedBy(skill, /If `([^`]+)` fails[^\n]*retry/gi) : []);

  let step = 0;
  let attempts = 0;
  const work = calls.filter((c) => c.name !== SKILL_LOAD);
  for (const call of work) {
    if (call.name !== planned[step]) continue;
    attempts++;
    if (!isError(call.result)) {
      step++;
      attempts = 0;
    } else if (!retryable.has(call.name) || attempts >= MAX_ATTEMPTS) {
      return { kind: 'answer', content: `I could not complete the task: \`${call.name}\` answered ${oneLine(call.result ?? '')}` };
    }
  }
  if (step < planned.length) {
    const tool = familyTools.find((t) => t.name === planned[step]) as FunctionTool;
    const args = Object.fromEntries(tool.parameters.filter((p) => p in inputs).map((p) => [p, inputs[p]]));
    return { kind: 'tool_call', call: { id: nextId, name: tool.name, arguments: JSON.stringify(args) } };
  }

  const facts = Object.assign({}, ...work.filter((c) => !isError(c.result)).map((c) => jsonObject(c.result)));
  const template = skill ? /answer as `([^`]+)`/i.exec(skill)?.[1] : undefined;
  if (template) return { kind: 'answer', content: template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in facts ? String(facts[key]) : whole)) };
  return { kind: 'answer', content: `Result: ${JSON.stringify(facts)}` };
}

function functionTools(request: ChatRequest): FunctionTool[] {
  const raw = (request as { tools?: unknown }).tools;
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((t) => {
    const fn = (t as { function?: { name?: unknown; description?: unknown; parameters?: { properties?: unknown } } }).function;
    if (!fn || typeof fn.name !== 'string') return [];
    const props = fn.parameters?.properties;
    return [{ name: fn.name, description: typeof fn.description === 'string' ? fn.description : '', parameters: props && typeof props === 'object' ? Object.keys(props) : [] }];
  });
}

function taskInputs(text: string): Record<string, unknown> {
  const block = /```json\s*\n([\s\S]*?)```/.exec(text)?.[1];
  if (!block) return {};
  try {
    const value: unknown = JSON.parse(block);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    throw contractViolation("the task's ```json inputs block is not JSON");
  }
}

function pastCalls(messages: ChatMessage[]): PastCall[] {
  const calls: (PastCall & { id?: string })[] = [];
  for (const m of messages) {
    if (m.role === 'assistant') {
      const toolCalls = (m as { tool_calls?: { id?: string; function?: { name?: string; arguments?: string } }[] }).tool_calls ?? [];
      for (const c of toolCalls) calls.push({ id: c.id, name: c.function?.name ?? '', args: c.function?.arguments ?? '' });
    } else if (m.role === 'tool') {
      const id = (m as { tool_call_id?: string }).tool_call_id;
      const call = calls.find((c) => c.id === id && c.result === undefined);
      if (call) call.result = messageText(m);
    }
  }
  return calls;
}

const words = (text: string) => new Set((text.toLowerCase().match(/[a-z]{4,}/g) ?? []).filter((w) => w !== 'skill'));

function bestSkill(description: string, task: string): string | undefined {
  const taskWords = words(task);
  let best: { name: string; overlap: number } | undefined;
  for (const line of description.split('\n')) {
    const m = /^- ([^:]+): (.*)$/.exec(line.trim());
    if (!m) continue;
    const overlap = [...words(`${m[1].replace(/-/g, ' ')} ${m[2]}`)].filter((w) => taskWords.has(w)).length;
    if (overlap >= 2 && (!best || overlap > best.overlap)) best = { name: m[1], overlap };
  }
  return best?.name;
}

function toolsNamedBy(text: string, pattern: RegExp): string[] {
  const names: string[] = [];
  for (const m of text.matchAll(pattern)) if (!names.includes(m[1])) names.push(m[1]);
  return names;
}

const isError = (result: string | undefined) => result === undefined || /^\s*\{?\s*"?error/i.test(result);

function jsonObject(text: string | undefined): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text ?? '');
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, 160);
