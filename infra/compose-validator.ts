import { spawnSync } from 'node:child_process';
import { installDebianPackages } from './debian-packages';

/**
 * A command that can run `config` on docker-compose.yml without a Docker engine:
 * `docker compose` when the plugin exists, else Debian's `docker-compose` (installed
 * with apt-get when absent: this machine has the docker client but no compose plugin).
 */
export function composeCommand(log: (line: string) => void = () => {}): string[] {
  if (spawnSync('docker', ['compose', 'version'], { stdio: 'ignore' }).status === 0) return ['docker', 'compose'];
  if (spawnSync('docker-compose', ['version'], { stdio: 'ignore' }).status === 0) return ['docker-compose'];
  installDebianPackages(['docker-compose'], log);
  return ['docker-compose'];
}
