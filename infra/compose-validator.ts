import { execFileSync, spawnSync } from 'node:child_process';

/**
 * A command that can run `config` on docker-compose.yml without a Docker engine:
 * `docker compose` when the plugin exists, else Debian's `docker-compose` (installed
 * with apt-get when absent: this machine has the docker client but no compose plugin).
 */
export function composeCommand(log: (line: string) => void = () => {}): string[] {
  if (spawnSync('docker', ['compose', 'version'], { stdio: 'ignore' }).status === 0) return ['docker', 'compose'];
  if (spawnSync('docker-compose', ['version'], { stdio: 'ignore' }).status === 0) return ['docker-compose'];
  log('installing docker-compose from Debian packages (to validate docker-compose.yml) …');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'ignore', env });
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'docker-compose'], { stdio: 'ignore', env });
  return ['docker-compose'];
}
