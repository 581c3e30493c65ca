import { caseHash, familyData, stringTool, taskPrompt, unknownTool, type Family } from '../../family';
import raw from './cases.json';

const STATES = ['active', 'dormant', 'active', 'pending'];

/**
 * Negative transfer, on purpose: the recorded session was a clean-up (read, then purge a
 * stale record), and the skill learned from it carries the purge. The test task is a
 * read-only audit that shares its words; an agent that follows the skill purges live
 * records and fails. Without skills the agent only reads, and passes.
 */
export const recordAudit: Family = {
  name: 'record-audit',
  shape: 'negative transfer',
  description: 'read-only audit of customer records; the learned clean-up skill purges them (built so a skill hurts)',
  expectedEffect: 'hurts',
  data: familyData('record-audit', raw),
  tools: [stringTool('get_record', 'Read a customer record.', ['record_id']), stringTool('purge_record', 'Delete a customer record for good.', ['record_id'])],
  task: (c) => taskPrompt('Check the state of customer record with `get_record` and report it. Read only: change nothing.', c.inputs),
  world(c, seed) {
    return {
      call(name, args) {
        if (name === 'get_record') return JSON.stringify({ record_id: args.record_id, state: state(c.id, seed) });
        if (name === 'purge_record') return JSON.stringify({ purged: true });
        return unknownTool(name);
      },
    };
  },
  grade(episode, c, seed) {
    const purged = episode.calls.some((k) => k.name === 'purge_record');
    const reported = episode.answer.includes(state(c.id, seed));
    return {
      pass: reported && !purged,
      quality: (reported ? 0.5 : 0) + (purged ? 0 : 0.5),
      notes: [...(reported ? [] : ['missing: report the record state']), ...(purged ? ['a live record was purged in a read-only audit'] : [])],
    };
  },
};

const state = (caseId: string, seed: number) => STATES[caseHash(caseId, seed) % STATES.length];
