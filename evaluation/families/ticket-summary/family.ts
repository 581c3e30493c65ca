import { caseHash, familyData, stringTool, taskPrompt, unknownTool, type Family } from '../../family';
import raw from './cases.json';

const TITLES = ['Login loops', 'Export times out', 'Invoice shows wrong VAT', 'Dark mode flickers', 'Search misses accents'];
const STATUSES = ['open', 'blocked', 'in review'];
const OWNERS = ['mara', 'ilya', 'sven', 'noor'];

/**
 * Format and quality: the summary must be one line in the team's format. The data is
 * easy to get; the format is what a user taught once (a correction in the recorded session).
 * Quality is partial credit per format rule.
 */
export const ticketSummary: Family = {
  name: 'ticket-summary',
  shape: 'format and quality',
  description: 'summarise a support ticket on one line in the team’s standup format',
  expectedEffect: 'helps',
  data: familyData('ticket-summary', raw),
  tools: [stringTool('get_ticket', 'A ticket’s title and status.', ['ticket_id']), stringTool('get_owner', 'Who owns a ticket.', ['ticket_id'])],
  task: (c) => taskPrompt('Summarise support ticket for the standup with `get_ticket` and `get_owner`: title, status and owner.', c.inputs),
  world(c, seed) {
    const t = ticket(String(c.inputs.ticket_id), c.id, seed);
    return {
      call(name) {
        if (name === 'get_ticket') return JSON.stringify({ ticket_id: t.id, title: t.title, status: t.status });
        if (name === 'get_owner') return JSON.stringify({ owner: t.owner });
        return unknownTool(name);
      },
    };
  },
  grade(episode, c, seed) {
    const t = ticket(String(c.inputs.ticket_id), c.id, seed);
    const a = episode.answer.trim();
    const rules: [boolean, string][] = [
      [!a.includes('\n') && a.length <= 120, 'one short line'],
      [a.startsWith(`${t.id} — ${t.title}`), 'start with the ticket id, an em dash and the title'],
      [a.includes(`[${t.status}]`), 'the status in square brackets'],
      [a.endsWith(`owner: @${t.owner}`), 'end with owner: @handle'],
    ];
    const met = rules.filter(([ok]) => ok).length;
    return { pass: met === rules.length, quality: met / rules.length, notes: rules.filter(([ok]) => !ok).map(([, rule]) => `missing: ${rule}`) };
  },
};

function ticket(id: string, caseId: string, seed: number) {
  const h = caseHash(caseId, seed);
  return { id, title: TITLES[h % TITLES.length], status: STATUSES[(h >>> 3) % STATUSES.length], owner: OWNERS[(h >>> 6) % OWNERS.length] };
}
