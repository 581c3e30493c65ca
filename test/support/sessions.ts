import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../infra/paths';
import type { SessionEvent } from '../../core';

/** The example sessions in examples/sessions (also used by the demo and the README). */
export function exampleSession(name: 'weather-report' | 'weather-report-followup' | 'dangerous-cleanup' | 'small-talk'): SessionEvent[] {
  return JSON.parse(readFileSync(join(REPO_ROOT, 'examples', 'sessions', `${name}.json`), 'utf8')) as SessionEvent[];
}

/** The weather session with every reviewer answer delayed by `ms` (the model stand-in's [[fault:slow:MS]] marker). */
export function slowReviewSession(ms: number): SessionEvent[] {
  return exampleSession('weather-report').map((e, i) => (i === 0 ? { ...e, content: `${e.content as string} [[fault:slow:${ms}]]` } : e));
}
