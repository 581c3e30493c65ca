import { argsAt, programName, type Pipeline, type ShellCommand } from './shell-words';

/**
 * The shell rules of the safety gate, over the commands parseShell read from normalised
 * text. Each rule looks at a bounded window of words per command (MAX_ARGS), so a rule
 * costs linear time in the text; none is a regular expression over the whole text.
 */

export interface ShellFinding {
  label: string;
}

/** Top-level system directories whose recursive deletion breaks the machine (the reference's rule, and a few more); /tmp is scratch space. */
export const SYSTEM_DIRECTORIES = [
  'home',
  'usr',
  'etc',
  'var',
  'bin',
  'sbin',
  'boot',
  'lib',
  'lib32',
  'lib64',
  'opt',
  'root',
  'srv',
  'sys',
  'proc',
  'dev',
  'run',
  'mnt',
  'media',
  'snap',
  'Users',
  'System',
  'Library',
  'Applications',
] as const;
const SYSTEM = new Set<string>(SYSTEM_DIRECTORIES);

const SHELLS = new Set([
  'sh',
  'bash',
  'zsh',
  'ksh',
  'mksh',
  'pdksh',
  'dash',
  'ash',
  'fish',
  'csh',
  'tcsh',
  'yash',
  'rbash',
  'pwsh',
  'powershell',
  'powershell.exe',
  'cmd',
  'cmd.exe',
  '$SHELL',
  '$BASH',
  'iex',
  'Invoke-Expression',
]);
const INTERPRETER =
  /^(?:python[\d.]{0,8}|pypy[\d.]{0,8}|perl[\d.]{0,8}|ruby[\d.]{0,8}|node|nodejs|deno|bun|php[\d.]{0,8}|lua[\d.]{0,8}|luajit|tclsh|wish|Rscript|osascript|jshell|groovy|irb|ts-node|tsx)$/;
/** Programs that run text they are given as code: shells, interpreters, and the shell's own eval/source. */
export const runsCode = (name: string) => SHELLS.has(name) || INTERPRETER.test(name) || name === 'eval' || name === 'source' || name === '.';

const DOWNLOADERS = new Set([
  'curl',
  'wget',
  'wget2',
  'fetch',
  'aria2c',
  'axel',
  'lwp-request',
  'lwp-download',
  'GET',
  'http',
  'https',
  'xh',
  'httpie',
  'iwr',
  'irm',
  'Invoke-WebRequest',
  'Invoke-RestMethod',
  'Start-BitsTransfer',
  'bitsadmin',
  'certutil',
  'tftp',
  'nc',
  'ncat',
  'netcat',
  'socat',
]);
const downloads = (name: string) => DOWNLOADERS.has(name);

/** A path that stands for /, a home directory or a top-level system directory, however spelled. */
export function isProtectedPath(word: string): boolean {
  let end = word.length;
  // Trailing /, /* and /. add nothing: rm -rf /etc/ and /etc/* remove /etc's contents.
  while (end > 0 && (word[end - 1] === '/' || word[end - 1] === '*' || (word[end - 1] === '.' && word[end - 2] === '/'))) end--;
  const p = word.slice(0, end);
  if (p === '' || p === '~' || p === '$HOME' || p === '$USERPROFILE' || p === '$env:USERPROFILE') return word.length > 0 && (word[0] === '/' || p !== '');
  if (/^~[a-z_][\w.-]{0,31}$/.test(p)) return true; // ~alice: another user's home
  return p[0] === '/' && !p.includes('/', 1) && SYSTEM.has(p.slice(1));
}

const RECURSIVE_FLAG = /^(?:-[a-zA-Z]*[rR][a-zA-Z]*|--recursive)$/;
const operands = (args: readonly string[]) => args.filter((a) => !a.startsWith('-'));

function recursiveDeletion(args: readonly string[]): boolean {
  return args.some((a) => RECURSIVE_FLAG.test(a)) && operands(args).some(isProtectedPath);
}

/** find PATHS… -delete, or -exec rm/shred/unlink on a protected path. */
function findDeletion(args: readonly string[]): boolean {
  const paths: string[] = [];
  for (const a of args) {
    if (a.startsWith('-') || a === '!') break;
    paths.push(a);
  }
  if (!paths.some(isProtectedPath)) return false;
  return args.some(
    (a, i) => a === '-delete' || ((a === '-exec' || a === '-execdir' || a === '-ok' || a === '-okdir') && /^(?:rm|shred|unlink|rmdir)$/.test(programName(args[i + 1] ?? ''))),
  );
}

const OPEN_MODE = /^(?:0?[0-7]?777|[augo]*\+[rwxX]*w[rwxX]*|a=rwx|ugo=rwx)$/;

function ownershipOrModeOfProtected(args: readonly string[], chmod: boolean): string | undefined {
  const targets = operands(args).slice(1);
  if (!targets.some(isProtectedPath)) return undefined;
  if (chmod && operands(args).some((a) => OPEN_MODE.test(a))) return 'chmod 777 /';
  return args.some((a) => RECURSIVE_FLAG.test(a)) ? 'recursive chmod/chown of /, a home or a system directory' : undefined;
}

const DEVICE = /^\/dev\/(?!null$|zero$|stdout$|stderr$|stdin$|full$|random$|urandom$|tty$|fd\/)/;

const DEVICE_TOOLS = new Set(['wipefs', 'shred', 'blkdiscard', 'sgdisk', 'fdisk', 'parted']);
const MKFS = /^(?:mkfs(?:\.\w{1,16})?|mke2fs|mkswap)$/;

/** One pass over the words: each program of interest looks at its own bounded window. */
function destructive(command: ShellCommand): string[] {
  const found: string[] = [];
  const { programs } = command;
  for (let k = 0; k < programs.length; k++) {
    const p = programs[k];
    if (p === 'rm' || p === 'rmdir' || p === 'unlink') {
      if (recursiveDeletion(argsAt(command, k))) found.push('rm -rf of /, a home or a system directory');
    } else if (p === 'find') {
      if (findDeletion(argsAt(command, k))) found.push('find … -delete on /, a home or a system directory');
    } else if (p === 'dd') {
      if (argsAt(command, k).some((a) => a.startsWith('of=') && DEVICE.test(a.slice(3)))) found.push('dd of=/dev/...');
    } else if (DEVICE_TOOLS.has(p)) {
      if (argsAt(command, k).some((a) => DEVICE.test(a))) found.push('wipe or repartition a device');
    } else if (p === 'chmod' || p === 'chown' || p === 'chgrp') {
      const label = ownershipOrModeOfProtected(argsAt(command, k), p === 'chmod');
      if (label) found.push(label);
    } else if (p === '--no-preserve-root') {
      found.push('rm --no-preserve-root');
    } else if (MKFS.test(p)) {
      found.push('mkfs');
    }
  }
  return found;
}

/** The files a download writes (curl -o F / -O, wget URL / -O F, > F, | tee F), by basename. */
function downloadedFiles(pipeline: Pipeline): string[] {
  const files: string[] = [];
  let downloaded = false;
  for (const command of pipeline) {
    if (downloaded && command.name === 'tee') files.push(...operands(command.words.slice(command.at + 1)));
    for (let k = 0; k < command.programs.length; k++) {
      const program = command.programs[k];
      if (!downloads(program)) continue;
      downloaded = true;
      const args = argsAt(command, k);
      const urls = args.filter((a) => /^(?:https?|ftp):\/./.test(a)).map(urlBasename);
      let named = false;
      for (let i = 0; i < args.length; i++) {
        const a = args[i];
        const next = args[i + 1];
        if (a.startsWith('--output=') || a.startsWith('--output-document=') || a.startsWith('-OutFile=')) {
          files.push(a.slice(a.indexOf('=') + 1));
          named = true;
        } else if ((a === '--output' || a === '--output-document' || a === '-OutFile' || a === '--out' || a === '--download') && next) {
          files.push(next);
          named = true;
        } else if (program === 'wget' ? /^-[a-zA-Z]*O$/.test(a) : /^-[a-zA-Z]*o$/.test(a)) {
          if (next && next !== '-') files.push(next);
          named = true;
        } else if (program === 'wget' && /^-[a-zA-Z]*O./.test(a)) {
          if (a.slice(a.indexOf('O') + 1) !== '-') files.push(a.slice(a.indexOf('O') + 1));
          named = true;
        } else if (program !== 'wget' && (/^-[a-zA-Z]*O[a-zA-Z]*$/.test(a) || a === '--remote-name' || a === '--remote-name-all')) {
          files.push(...urls);
          named = true;
        } else if (a === '>' || a === '>>') {
          if (next) files.push(next);
          named = true;
        } else if (/^\d?>>?[^>&(]/.test(a)) {
          files.push(a.replace(/^\d?>>?/, ''));
          named = true;
        }
      }
      if (program === 'wget' && !named) files.push(...urls);
    }
  }
  return files.map(programName).filter((f) => f !== '' && f !== 'null' && f !== '-');
}

function urlBasename(url: string): string {
  return programName(url.replace(/[?#].*$/, ''));
}

const RUN_WORDS = /^(?:run|execute|exec|then|start|launch|invoke|sudo|nohup|and)$/i;
const EXECUTABLE_MODE = /^(?:[ugoa]*\+[rwX]*x[rwX]*|[0-7]?[1357][0-7]{2}|[0-7]?[0-7][1357][0-7]|[0-7]?[0-7]{2}[1357])$/;

/** Runs one of `files` (by basename): as the program, after a shell or interpreter or "run", or made executable with chmod +x. */
function runsFile(command: ShellCommand, files: ReadonlySet<string>): boolean {
  if (files.has(command.name)) return true;
  const { words } = command;
  for (let k = 0; k < words.length; k++) {
    if (!files.has(command.programs[k])) continue;
    const before = command.programs.slice(Math.max(0, k - 4), k);
    if (before.some(runsCode)) return true;
    if (k > 0 && RUN_WORDS.test(words[k - 1]) && /^(?:\.{0,2}\/|~\/|\/)/.test(words[k])) return true;
    if (before.includes('chmod') && words.slice(Math.max(0, k - 3), k).some((a) => EXECUTABLE_MODE.test(a))) return true;
  }
  return false;
}

export function shellFindings(pipelines: readonly Pipeline[]): string[] {
  const found = new Set<string>();
  const downloadedSoFar = new Set<string>();
  for (const pipeline of pipelines) {
    for (const command of pipeline) for (const label of destructive(command)) found.add(label);

    // download | … | shell or interpreter
    const firstDownload = pipeline.findIndex((c) => c.programs.some(downloads));
    if (firstDownload >= 0 && pipeline.slice(firstDownload + 1).some((c) => runsCode(c.name))) found.add('download piped to a shell or interpreter');
    // decode | … | shell or interpreter
    const firstDecode = pipeline.findIndex(decodes);
    if (firstDecode >= 0 && pipeline.slice(firstDecode + 1).some((c) => runsCode(c.name))) found.add('decoded text run by a shell or interpreter');

    for (const command of pipeline) {
      // eval "$(curl …)", source <(curl …), bash -c "$(wget …)", python <(curl …)
      if (command.feeds !== undefined && runsCode(command.feeds)) {
        if (command.programs.some(downloads)) found.add('download run by a shell or interpreter');
        if (decodes(command)) found.add('decoded text run by a shell or interpreter');
      }
      // eval/sh -c with a downloader on its own command line: `eval curl …`, sh -c `curl …`
      if (
        (command.name === 'eval' || (runsCode(command.name) && command.words.slice(command.at + 1, command.at + 5).some((a) => a === '-c' || a === '-e' || a === '-Command'))) &&
        command.programs.some(downloads)
      ) {
        found.add('download run by a shell or interpreter');
      }
      if (downloadedSoFar.size > 0 && runsFile(command, downloadedSoFar)) found.add('download saved to a file and then run');
    }
    for (const f of downloadedFiles(pipeline)) downloadedSoFar.add(f);
  }
  return [...found];
}

/** base64 -d, xxd -r, openssl … -d, uudecode, printf of hex escapes: text that becomes code only when decoded. */
function decodes(command: ShellCommand): boolean {
  const { programs } = command;
  for (let k = 0; k < programs.length; k++) {
    const name = programs[k];
    if (!DECODERS.has(name)) continue;
    const args = argsAt(command, k).slice(0, 8);
    if ((name === 'base64' || name === 'basenc' || name === 'base32' || name === 'gbase64') && args.some((a) => /^(?:-[a-zA-Z]*[dD][a-zA-Z]*|--decode)$/.test(a))) return true;
    if (name === 'xxd' && args.some((a) => /^-[a-zA-Z]*r[a-zA-Z]*$/.test(a) || a === '--revert')) return true;
    if (name === 'openssl' && args.includes('-d')) return true;
    if (name === 'uudecode' || (name === 'certutil' && args.some((a) => /^-decode(?:hex)?$/i.test(a)))) return true;
    if ((name === 'printf' || name === 'echo') && args.some((a) => /(?:x[0-9a-fA-F]{2}){3}|(?:[0-3][0-7]{2}){3}/.test(a))) return true;
  }
  return false;
}

const DECODERS = new Set(['base64', 'basenc', 'base32', 'gbase64', 'xxd', 'openssl', 'uudecode', 'certutil', 'printf', 'echo']);

export { SHELLS, DOWNLOADERS };
