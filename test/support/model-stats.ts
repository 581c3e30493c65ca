/**
 * The local model server's control routes (infra/model-server/README.md). Tests share one
 * server, so they never reset it: they read per-session counters and add faults that
 * match only their own unique text.
 */
function controlBase(baseURL: string): string {
  return baseURL.replace(/\/v1\/?$/, '');
}

/** Reviewer calls so far for one session (`app/user/sessionId`); 0 when never called. */
export async function reviewerCalls(baseURL: string, session: { app: string; user: string; sessionId: string }): Promise<number> {
  const res = await fetch(`${controlBase(baseURL)}/_control/stats`);
  if (!res.ok) throw new Error(`model server stats: HTTP ${res.status}`);
  const stats = (await res.json()) as { bySession: Record<string, number> };
  return stats.bySession[`${session.app}/${session.user}/${session.sessionId}`] ?? 0;
}

/** Faults the next `count` chat requests whose text contains `match` (which must be unique to the test). */
export async function injectFault(baseURL: string, fault: { mode: 'malformed' | 'http500' | 'slow'; count: number; match: string; delayMs?: number }): Promise<void> {
  const res = await fetch(`${controlBase(baseURL)}/_control/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(fault) });
  if (!res.ok) throw new Error(`model server faults: HTTP ${res.status} ${await res.text()}`);
}

/** The text of the last reviewer request for one session (`app/user/sessionId`), or of the last reflector request for a skill name. */
export async function lastPrompt(baseURL: string, key: string): Promise<string | undefined> {
  const res = await fetch(`${controlBase(baseURL)}/_control/prompts?key=${encodeURIComponent(key)}`);
  if (res.status === 404) return undefined;
  if (!res.ok) throw new Error(`model server prompts: HTTP ${res.status}`);
  return ((await res.json()) as { prompt: string }).prompt;
}
