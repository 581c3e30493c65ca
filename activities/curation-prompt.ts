import type OpenAI from 'openai';
import type { SkillSpec } from '../core';

/**
 * The consolidation prompt (contract with infra/model-server/consolidator.ts): a first system
 * line `ROLE: skill-consolidator`; the user message has the sections `## Kept skill` and
 * `## Near-duplicate`, each one fenced JSON SkillSpec.
 */
export function consolidationMessages(keep: SkillSpec, absorb: SkillSpec): OpenAI.Chat.Completions.ChatCompletionMessageParam[] {
  const fenced = (spec: SkillSpec) => ['```json', JSON.stringify(spec, null, 2), '```'].join('\n');
  return [
    {
      role: 'system',
      content: [
        'ROLE: skill-consolidator',
        "You merge two near-duplicate agent skills into one. The merged skill keeps the kept skill's name.",
        'Keep every step and every pitfall of both skills: combine items that say the same thing, reword only to merge.',
        'If an item must go (wrong, obsolete, contradicted by the other skill), list it under "dropped" with the exact item text and the reason.',
        'An item left out without a reason refuses the merge.',
      ].join('\n'),
    },
    { role: 'user', content: ['## Kept skill', fenced(keep), '', '## Near-duplicate', fenced(absorb)].join('\n') },
  ];
}
