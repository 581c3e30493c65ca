import { spawnSync } from 'node:child_process';

/** Where our own apt-get runs wait for each other (test files install packages concurrently). */
const LOCK_FILE = '/tmp/skill-evolution-apt.lock';
/** How long an install waits for another apt-get or dpkg (ours or not) to finish. */
const LOCK_WAIT_SECONDS = 900;

/**
 * Installs Debian packages with apt-get, one installer at a time on the machine: our callers
 * (the browser test, the compose validator, the local cluster's PostgreSQL) serialise on a
 * flock, and apt itself waits for any other holder of its locks instead of failing with
 * exit 100. The package lists are refreshed only when an install does not find a package.
 */
export function installDebianPackages(packages: readonly string[], log: (line: string) => void = () => {}): void {
  if (process.getuid?.() !== 0) throw new Error(`${packages.join(', ')} not installed: run \`sudo apt-get install -y ${packages.join(' ')}\` first`);
  log(`installing ${packages.join(', ')} from Debian packages …`);
  const lockOption = `-oDPkg::Lock::Timeout=${LOCK_WAIT_SECONDS}`;
  const install = `apt-get install -y -q --no-install-recommends ${lockOption} ${packages.join(' ')}`;
  const script = `${install} || { apt-get update -q ${lockOption} && ${install}; }`;
  const r = spawnSync('flock', ['-w', String(LOCK_WAIT_SECONDS), LOCK_FILE, 'sh', '-c', script], {
    encoding: 'utf8',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    timeout: 2 * LOCK_WAIT_SECONDS * 1000,
  });
  if (r.status !== 0) {
    const tail = `${r.stderr ?? ''}${r.stdout ?? ''}`.trim().split('\n').slice(-3).join(' | ');
    throw new Error(`apt-get install ${packages.join(' ')} failed (exit ${r.status ?? r.signal}): ${tail || r.error?.message || 'no output'}`);
  }
}
