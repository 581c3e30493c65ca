import { caseHash, familyData, stringTool, taskPrompt, unknownTool, type Family } from '../../family';
import raw from './cases.json';

/**
 * Recovery from error: the report service times out a few times before it answers (how
 * many depends on case and seed; sometimes more often than anyone retries). The recorded
 * session retried; the skill learned from it says to.
 */
export const flakyReport: Family = {
  name: 'flaky-report',
  shape: 'recovery from error',
  description: 'fetch a revenue report from a service that times out before it answers',
  expectedEffect: 'helps',
  data: familyData('flaky-report', raw),
  tools: [stringTool('fetch_report', 'Fetch a quarterly revenue report.', ['report_id']), stringTool('publish_summary', 'Publish the summary of a fetched report.', ['report_id'])],
  task: (c) => taskPrompt('Fetch the quarterly revenue report with `fetch_report` and tell me its revenue.', c.inputs),
  world(c, seed) {
    let failuresLeft = timeouts(c.id, seed);
    return {
      call(name, args) {
        if (name === 'fetch_report') {
          if (failuresLeft-- > 0) return 'error: upstream timeout, try again';
          return JSON.stringify({ report_id: args.report_id, revenue: revenue(c.id, seed) });
        }
        if (name === 'publish_summary') return JSON.stringify({ published: true });
        return unknownTool(name);
      },
    };
  },
  grade(episode, c, seed) {
    const reported = episode.answer.includes(String(revenue(c.id, seed)));
    const published = episode.calls.some((k) => k.name === 'publish_summary');
    return {
      pass: reported,
      quality: (reported ? 0.75 : 0) + (published ? 0.25 : 0),
      notes: [...(reported ? [] : ['missing: retry fetch_report after a timeout and report the revenue']), ...(published ? [] : ['missing: publish the summary'])],
    };
  },
};

/** 1 or 2 timeouts mostly; one instance in five times out 3 times, more than 3 attempts survive. */
const timeouts = (caseId: string, seed: number) => (caseHash(caseId, seed, 'timeouts') % 5 === 0 ? 3 : 1 + (caseHash(caseId, seed) % 2));
const revenue = (caseId: string, seed: number) => 10_000 + (caseHash(caseId, seed, 'revenue') % 90_000);
