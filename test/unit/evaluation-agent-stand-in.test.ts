import { describe, expect, it } from 'vitest';
import { agentTurn } from '../../infra/model-server/agent';
import { parseChatRequest } from '../../infra/model-server/chat-request';
import { FAMILIES } from '../../evaluation/families';

const tool = (name: string, params: string[], description = '') => ({
  type: 'function',
  function: { name, description, parameters: { type: 'object', properties: Object.fromEntries(params.map((p) => [p, { type: 'string' }])) } },
});

const request = (messages: unknown[], tools: unknown[]) => parseChatRequest({ model: 'evolution-local-agent', messages, tools });

describe('the stand-in agent', () => {
  const task = { role: 'user', content: 'Fetch the quarterly revenue report with `fetch_report`.\n\nInputs:\n```json\n{"report_id":"Q1"}\n```' };
  const system = { role: 'system', content: 'ROLE: evaluation-agent' };

  it('without a skill calls the tool the task names, with the inputs of the same name, and gives up on an error', () => {
    const tools = [tool('fetch_report', ['report_id'])];
    const first = agentTurn(request([system, task], tools));
    expect(first).toEqual({ kind: 'tool_call', call: { id: 'call_1', name: 'fetch_report', arguments: '{"report_id":"Q1"}' } });
    const failed = agentTurn(
      request(
        [
          system,
          task,
          { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'fetch_report', arguments: '{}' } }] },
          { role: 'tool', tool_call_id: 'call_1', content: 'error: timeout' },
        ],
        tools,
      ),
    );
    expect(failed.kind).toBe('answer');
    expect(failed.kind === 'answer' && failed.content).toContain('could not complete');
  });

  it('loads the listed skill that shares the task’s words, then follows its steps and retries what it says to retry', () => {
    const skillLoad = tool('skill_load', ['name'], 'Load … Available skills:\n- fetch-report: Fetch the quarterly revenue report Q4\n- other: unrelated things');
    const tools = [tool('fetch_report', ['report_id']), tool('publish_summary', ['report_id']), skillLoad];
    expect(agentTurn(request([system, task], tools))).toEqual({ kind: 'tool_call', call: { id: 'call_1', name: 'skill_load', arguments: '{"name":"fetch-report"}' } });
    const skill =
      '# fetch-report\n1. Call `fetch_report` with {report_id}.\n2. Call `publish_summary` with {report_id}.\n- If `fetch_report` fails with "error: timeout", retry the call before giving up.';
    const history: unknown[] = [
      system,
      task,
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'skill_load', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: skill },
    ];
    const add = (id: string, name: string, result: string) =>
      history.push(
        { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name, arguments: '{}' } }] },
        { role: 'tool', tool_call_id: id, content: result },
      );
    add('call_2', 'fetch_report', 'error: timeout');
    expect(agentTurn(request(history, tools))).toMatchObject({ kind: 'tool_call', call: { name: 'fetch_report' } });
    add('call_3', 'fetch_report', '{"revenue":42}');
    expect(agentTurn(request(history, tools))).toMatchObject({ kind: 'tool_call', call: { name: 'publish_summary' } });
    add('call_4', 'publish_summary', '{"published":true}');
    expect(agentTurn(request(history, tools))).toEqual({ kind: 'answer', content: 'Result: {"revenue":42,"published":true}' });
  });
});

describe('the shipped families', () => {
  it('are deterministic per case and seed, and grade the recorded procedure as passing where the skill is meant to help', () => {
    expect(FAMILIES.map((f) => f.shape)).toEqual(['multi-step tool workflow', 'recovery from error', 'format and quality', 'negative transfer']);
    for (const family of FAMILIES) {
      const c = family.data.cases[0];
      expect(family.task(c, 3)).toEqual(family.task(c, 3));
      const a = family.world(c, 3);
      const b = family.world(c, 3);
      for (const t of family.tools) expect(a.call(t.function.name, c.inputs)).toBe(b.call(t.function.name, c.inputs));
      expect(family.grade({ answer: '', calls: [] }, c, 3).pass).toBe(false);
    }
  });
});
