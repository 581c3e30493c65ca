import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findPython } from './binaries';
import { withDirLock } from './lock';
import { cacheDir } from './paths';

/**
 * A Python virtual environment with a pinned requirements file installed from PyPI, built
 * once per machine into the binaries cache (keyed by the file's content, so a changed pin
 * builds a new one). Returns its python. Used for the Python example evaluator.
 */
export function ensurePythonVenv(name: string, requirementsFile: string, log: (line: string) => void = () => {}): string {
  const requirements = readFileSync(requirementsFile, 'utf8');
  const dir = join(cacheDir(), 'venv', `${name}-${createHash('sha256').update(requirements).digest('hex').slice(0, 12)}`);
  const python = join(dir, 'bin', 'python');
  const complete = join(dir, 'complete');
  if (existsSync(complete)) return python;
  return withDirLock(join(cacheDir(), 'locks', `venv-${name}`), () => {
    if (existsSync(complete)) return python;
    log(`creating the ${name} Python environment (${requirements.trim().split('\n').join(', ')}; one-time, cached in ${dir}) …`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(join(cacheDir(), 'venv'), { recursive: true });
    try {
      execFileSync(findPython(), ['-m', 'venv', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
      execFileSync(python, ['-m', 'pip', 'install', '--disable-pip-version-check', '-q', '-r', requirementsFile], { stdio: ['ignore', 'ignore', 'pipe'] });
    } catch (e) {
      rmSync(dir, { recursive: true, force: true });
      const stderr = String((e as { stderr?: Buffer }).stderr ?? '')
        .trim()
        .split('\n')
        .slice(-5)
        .join('\n');
      throw new Error(`cannot build the ${name} Python environment: ${stderr || (e as Error).message}`);
    }
    writeFileSync(complete, requirements);
    return python;
  });
}
