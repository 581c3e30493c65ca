import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, posix, relative } from 'node:path';
import { DockerfileParser, type Flag, type From, type Healthcheck, type Instruction, type JSONInstruction } from 'dockerfile-ast';

/**
 * The Dockerfile as data (parsed with dockerfile-ast), and its build run without a Docker
 * engine: each stage's filesystem is a folder, COPY copies (honouring .dockerignore), RUN
 * runs in the stage's working directory when the caller's policy allows it.
 */
export interface DockerStep {
  keyword: string;
  /** Arguments as written (shell form), flags excluded. */
  args: string[];
  /** Exec form (JSON array) of CMD, ENTRYPOINT, COPY, RUN; for HEALTHCHECK, the CMD's array. */
  exec?: string[];
  flags: Record<string, string>;
  /** The arguments' text with line continuations joined. */
  text: string;
}

export interface DockerStage {
  name: string;
  /** `node:26.12.1-trixie-slim` */
  image: string;
  steps: DockerStep[];
}

export function parseDockerfile(text: string): DockerStage[] {
  const file = DockerfileParser.parse(text);
  const stages: DockerStage[] = [];
  for (const instruction of file.getInstructions()) {
    const keyword = instruction.getKeyword();
    if (keyword === 'FROM') {
      const from = instruction as From;
      const tag = from.getImageTag();
      stages.push({ name: from.getBuildStage() ?? String(stages.length), image: `${from.getImageName()}${tag ? `:${tag}` : ''}`, steps: [] });
      continue;
    }
    const stage = stages.at(-1);
    if (!stage) throw new Error(`Dockerfile: ${keyword} before the first FROM`);
    stage.steps.push(step(instruction));
  }
  return stages;
}

function step(instruction: Instruction): DockerStep {
  const keyword = instruction.getKeyword();
  const flags: Record<string, string> = {};
  const withFlags = instruction as Instruction & { getFlags?: () => Flag[] };
  for (const flag of withFlags.getFlags?.() ?? []) flags[flag.getName()] = flag.getValue() ?? '';
  const text = instruction.getArgumentsContent() ?? '';
  const args = instruction
    .getArguments()
    .map((a) => a.getValue())
    .filter((a) => !a.startsWith('--'));
  let exec: string[] | undefined;
  const json = (instruction as JSONInstruction).getJSONStrings?.();
  if (json && json.length > 0) exec = json.map((j) => j.getJSONValue());
  if (keyword === 'HEALTHCHECK' && (instruction as Healthcheck).getSubcommand()?.getValue().toUpperCase() === 'CMD') {
    const rest = text.replace(/^\s*CMD\s+/i, '');
    if (rest.startsWith('[')) exec = JSON.parse(rest) as string[];
  }
  return { keyword, args, flags, text, ...(exec ? { exec } : {}) };
}

/** The `ENV` of a stage, in order (later ones win). */
export function stageEnv(stage: DockerStage): Record<string, string> {
  const env: Record<string, string> = {};
  for (const s of stage.steps.filter((x) => x.keyword === 'ENV')) {
    for (const pair of s.args) {
      const eq = pair.indexOf('=');
      if (eq < 1) throw new Error(`ENV ${pair}: use the KEY=value form`);
      env[pair.slice(0, eq)] = pair.slice(eq + 1);
    }
  }
  return env;
}

/**
 * Whether .dockerignore excludes a context path (posix, relative to the context). Docker's
 * rules for what is used here: patterns anchored at the root, `*` and `?` within one path
 * segment, `**` across segments, and a match on a folder excludes what is inside it.
 */
export function dockerignore(contextDir: string): (path: string) => boolean {
  const file = join(contextDir, '.dockerignore');
  const patterns = existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith('#'))
    : [];
  if (patterns.some((p) => p.startsWith('!'))) throw new Error('.dockerignore: exceptions (!) are not emulated here');
  const regexes = patterns.map((p) => {
    const clean = posix.normalize(p.replace(/^\/+/, ''));
    const source = clean
      .split(/(\*\*|\*|\?)/)
      .map((part) => (part === '**' ? '.*' : part === '*' ? '[^/]*' : part === '?' ? '[^/]' : part.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
      .join('');
    return new RegExp(`^${source}(/.*)?$`);
  });
  return (path) => regexes.some((r) => r.test(path));
}

export interface EmulatedBuild {
  /** Each stage's filesystem root: container path P is at `${root}${P}`. */
  roots: Record<string, string>;
  /** Each stage's last WORKDIR (container path). */
  workdirs: Record<string, string>;
}

/**
 * Runs the stages in order under `outDir/<stage>/`. `run` decides each RUN step: it runs the
 * command itself (in the mapped working directory) or explains why the step is not run here.
 */
export function emulateBuild(opts: {
  stages: DockerStage[];
  contextDir: string;
  outDir: string;
  run: (stage: DockerStage, command: string, cwd: string, env: Record<string, string>) => void;
}): EmulatedBuild {
  const ignored = dockerignore(opts.contextDir);
  const roots: Record<string, string> = {};
  const workdirs: Record<string, string> = {};
  for (const stage of opts.stages) {
    const root = join(opts.outDir, stage.name);
    mkdirSync(root, { recursive: true });
    roots[stage.name] = root;
    let workdir = '/';
    const env: Record<string, string> = {};
    const at = (containerPath: string) => join(root, posix.resolve(workdir, containerPath));
    for (const s of stage.steps) {
      if (s.keyword === 'WORKDIR') {
        workdir = posix.resolve(workdir, s.args[0]!);
        mkdirSync(at('.'), { recursive: true });
      } else if (s.keyword === 'ENV') {
        Object.assign(env, stageEnv({ ...stage, steps: [s] }));
      } else if (s.keyword === 'COPY') {
        const parts = s.exec ?? s.args;
        const sources = parts.slice(0, -1);
        const dest = parts.at(-1)!;
        const from = s.flags.from;
        const intoDir = dest.endsWith('/') || sources.length > 1;
        for (const src of sources) {
          if (!from && ignored(posix.normalize(src))) throw new Error(`COPY ${src}: excluded from the build context by .dockerignore`);
          const source = from ? join(roots[from] ?? fail(`COPY --from=${from}: no such stage before ${stage.name}`), posix.resolve('/', src)) : join(opts.contextDir, src);
          if (!existsSync(source)) throw new Error(`COPY ${src}: not found${from ? ` in stage ${from}` : ' in the build context'}`);
          const target = intoDir && !statSync(source).isDirectory() ? join(at(dest), basename(src)) : at(dest);
          mkdirSync(dirname(target), { recursive: true });
          cpSync(source, target, {
            recursive: true,
            preserveTimestamps: true, // as COPY does
            filter: from ? undefined : (path) => path === source || !ignored(relative(opts.contextDir, path).split('\\').join('/')),
          });
        }
      } else if (s.keyword === 'RUN') {
        opts.run(stage, s.text, at('.'), env);
      }
    }
    workdirs[stage.name] = workdir;
  }
  return { roots, workdirs };
}

function fail(message: string): never {
  throw new Error(message);
}

/** Runs a RUN step's shell command (the image's /bin/sh) with this machine's node and npm on PATH. */
export function runShell(command: string, cwd: string, env: Record<string, string>): void {
  execFileSync('sh', ['-c', command], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
}
