import type OpenAI from 'openai';
import type { Case, EvaluateActivityInput, Evaluation, EvaluatorDescription } from '../core';
import { SkillLoadTool } from '../client/skill-load-tool';
import { pinnedSkills } from './pinned-skills';
import { runEpisode } from './agent-loop';
import type { Family } from './family';

/** A dataset case of a family: which case, which seed. */
export const datasetCase = (caseId: string, seed: number): Case => ({ id: `${caseId}@${seed}`, input: { caseId, seed }, critical: false });

export interface EvaluatorUsage {
  modelCalls: number;
  promptTokens: number;
  completionTokens: number;
}

/**
 * The family's evaluator behind the evaluator contract (docs/evaluator-contract.md): each
 * case runs our agent with the candidate as its one skill; the score is the grader's
 * quality, the feedback its notes (`missing: …` lines, what the reflector acts on).
 */
export function familyEvaluatorActivities(opts: { family: Family; openai: OpenAI; agentModel: string; usage: EvaluatorUsage }) {
  const { family } = opts;
  return {
    async describeEvaluator(): Promise<EvaluatorDescription> {
      return { evaluatorVersion: `evolution-evaluate/${family.name}@1`, modelVersion: opts.agentModel };
    },
    async evaluateCandidate(input: EvaluateActivityInput): Promise<Evaluation[]> {
      const skills = new SkillLoadTool(pinnedSkills([{ spec: input.spec }]));
      const out: Evaluation[] = [];
      for (const c of input.cases) {
        const { caseId, seed } = c.input as { caseId: string; seed: number };
        const testCase = family.data.cases.find((x) => x.id === caseId);
        if (!testCase) throw new Error(`family ${family.name} has no case ${caseId}`);
        const episode = await runEpisode({ openai: opts.openai, model: opts.agentModel, family, testCase, seed, skills });
        opts.usage.modelCalls += episode.turns;
        opts.usage.promptTokens += episode.promptTokens;
        opts.usage.completionTokens += episode.completionTokens;
        const grade = family.grade(episode, testCase, seed);
        out.push({
          caseId: c.id,
          score: grade.quality,
          feedback: grade.notes.join('\n'),
          output: episode.answer.slice(0, 500),
          tokens: episode.promptTokens + episode.completionTokens,
        });
      }
      return out;
    },
  };
}
