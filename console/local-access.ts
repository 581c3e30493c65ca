import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { startConsole, type RunningConsole } from './server';
import type { ConsoleDeps } from './read-model';
import { tokenSha256, type Role } from './users';

/**
 * A console for one local user (the demo's): a fresh token whose hash is written to
 * `usersFile`, served on `port` (or any free port when it is taken).
 */
export async function startLocalConsole(
  deps: ConsoleDeps,
  opts: { usersFile: string; name: string; role?: Role; scopes: string[]; host?: string; port?: number },
): Promise<RunningConsole & { token: string; usersFile: string }> {
  const token = randomBytes(24).toString('base64url');
  const users = [{ name: opts.name, role: opts.role ?? 'approver', scopes: opts.scopes, tokenSha256: tokenSha256(token) }];
  mkdirSync(dirname(opts.usersFile), { recursive: true });
  writeFileSync(opts.usersFile, `${JSON.stringify(users, null, 2)}\n`, { mode: 0o600 });
  const settings = { host: opts.host ?? '127.0.0.1', port: opts.port ?? 8080, users };
  let running: RunningConsole;
  try {
    running = await startConsole(deps, settings);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
    running = await startConsole(deps, { ...settings, port: 0 });
  }
  return { ...running, token, usersFile: opts.usersFile };
}
