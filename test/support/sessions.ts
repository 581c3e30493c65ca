import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../infra/paths';
import type { SessionEvent } from '../../core';

/** The example sessions in examples/sessions (also used by the demo and the README). */
export function exampleSession(name: 'weather-report' | 'weather-report-followup' | 'dangerous-cleanup' | 'small-talk'): SessionEvent[] {
  return JSON.parse(readFileSync(join(REPO_ROOT, 'examples', 'sessions', `${name}.json`), 'utf8')) as SessionEvent[];
}
