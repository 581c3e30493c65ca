/**
 * A deliberately rough reading of normalised text (normaliseGateText: quotes already gone)
 * as shell: commands, the pipelines they form, and the command a `$( … )` or `<( … )`
 * feeds. Prose reads as commands too, which is what a gate wants: a step that says
 * "then curl the script | sh" is judged like the command. One pass over the characters,
 * so linear in the text whatever it holds.
 */

export interface ShellCommand {
  /** The program: the basename of the first word after assignments and wrappers (sudo, env, xargs…). */
  name: string;
  /** The index of the program in `words` (after assignments and wrappers). */
  at: number;
  /** Every word of the command line, wrappers included ("run rm -rf /" names rm only here). */
  words: string[];
  /** programName of each word, computed once. */
  programs: string[];
  /** Inside `$( … )` or `<( … )`: the program whose command line it is part of (eval, bash, diff…). */
  feeds?: string;
}

/** How many words after a program a rule looks at: keeps every rule linear in the text. */
export const MAX_ARGS = 64;

/** The basename of a program word: /usr/bin/sudo → sudo. */
export function programName(word: string): string {
  const slash = word.lastIndexOf('/');
  return slash >= 0 && slash < word.length - 1 ? word.slice(slash + 1) : word;
}

/**
 * The words after the program at index `k` of a command line: at most MAX_ARGS, and never
 * past the next word naming the same program (so "rm rm rm …" costs linear time).
 */
export function argsAt(command: ShellCommand, k: number): string[] {
  const { words, programs } = command;
  let end = k + 1;
  while (end < words.length && end <= k + MAX_ARGS && programs[end] !== programs[k]) end++;
  return words.slice(k + 1, end);
}

/** Commands joined by `|`, in order. */
export type Pipeline = ShellCommand[];

const MAX_NESTING = 32;

export function parseShell(text: string): Pipeline[] {
  const pipelines: Pipeline[] = [];
  let words: string[] = [];
  let pipeline: Pipeline = [];
  let wordStart = -1;
  const frames: Array<{ words: string[]; pipeline: Pipeline; feeds: string }> = [];
  const feeds = () => frames[frames.length - 1]?.feeds;

  const endWord = (i: number) => {
    if (wordStart >= 0) words.push(text.slice(wordStart, i));
    wordStart = -1;
  };
  const endCommand = () => {
    if (words.length === 0) return;
    const command = commandOf(words, feeds());
    if (command) pipeline.push(command);
    words = [];
  };
  const endPipeline = () => {
    endCommand();
    if (pipeline.length) pipelines.push(pipeline);
    pipeline = [];
  };

  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const next = text[i + 1];
    if (c === ' ' || c === '\t') {
      endWord(i);
    } else if (c === '\n' || c === ';') {
      endWord(i);
      endPipeline();
    } else if (c === '|') {
      endWord(i);
      if (next === '|') {
        endPipeline();
        i++;
      } else {
        endCommand();
        if (next === '&') i++;
      }
    } else if (c === '&' && text[i - 1] !== '>' && next !== '>') {
      endWord(i);
      endPipeline();
      if (next === '&') i++;
    } else if (next === '(' && (c === '$' || c === '<' || c === '>') && frames.length < MAX_NESTING) {
      // $( … ), <( … ), >( … ): a command line of its own, feeding the command around it.
      endWord(i);
      frames.push({ words, pipeline, feeds: programAfterWrappers(words) ?? '' });
      words = [];
      pipeline = [];
      i++;
    } else if (c === '(') {
      endWord(i);
      endPipeline();
    } else if (c === ')') {
      endWord(i);
      endPipeline();
      const frame = frames.pop();
      if (frame) {
        words = frame.words;
        pipeline = frame.pipeline;
        words.push('$()');
      }
    } else if (wordStart < 0) {
      wordStart = i;
    }
  }
  endWord(text.length);
  while (frames.length) {
    endPipeline();
    const frame = frames.pop()!;
    words = frame.words;
    pipeline = frame.pipeline;
  }
  endPipeline();
  return pipelines;
}

/** Words a command line starts with that hand the rest to another program; the values are their options that take an argument. */
const WRAPPERS: Record<string, readonly string[]> = {
  sudo: ['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-U', '-T', '--user', '--group'],
  doas: ['-u', '-C'],
  pkexec: ['--user'],
  run0: ['--user', '-u'],
  env: ['-u', '-C', '--unset', '--chdir'],
  nice: ['-n', '--adjustment'],
  ionice: ['-c', '-n', '-p'],
  stdbuf: ['-i', '-o', '-e'],
  timeout: ['-s', '-k', '--signal', '--kill-after'],
  xargs: ['-I', '-i', '-n', '-P', '-L', '-l', '-d', '-E', '-e', '-s', '-a', '--max-args', '--max-procs', '--delimiter', '--arg-file'],
  nohup: [],
  exec: ['-a'],
  command: [],
  builtin: [],
  time: [],
  busybox: [],
  setsid: [],
  then: [],
  do: [],
  else: [],
  elif: [],
  if: [],
  while: [],
  until: [],
  '!': [],
  '{': [],
  '}': [],
};

/** Markdown list and prompt markers before a command: `- rm …`, `1. rm …`, `$ rm …`. */
const MARKER = /^(?:\d{1,3}[.)]|[-*+>$#%])$/;

function commandOf(words: string[], feeds: string | undefined): ShellCommand | undefined {
  const i = programIndex(words);
  if (i >= words.length) return undefined;
  // Most words hold no slash: then each word is its own program name, and no copy is made.
  const programs = words.some((w) => w.includes('/')) ? words.map(programName) : words;
  const command: ShellCommand = { name: programs[i], at: i, words, programs };
  if (feeds !== undefined) command.feeds = feeds;
  return command;
}

function programAfterWrappers(words: readonly string[]): string | undefined {
  const i = programIndex(words);
  return i < words.length ? programName(words[i]) : undefined;
}

/** The index of the program: after assignments, list markers and wrappers with their options. */
function programIndex(words: readonly string[]): number {
  let i = 0;
  while (i < words.length) {
    const w = words[i];
    if ((w.length <= 4 && MARKER.test(w)) || (w.includes('=') && /^[A-Za-z_]\w{0,63}=/.test(w))) {
      i++;
      continue;
    }
    const valueOptions = Object.hasOwn(WRAPPERS, w) ? WRAPPERS[w] : undefined;
    if (!valueOptions) break;
    i++;
    while (i < words.length && words[i].startsWith('-') && words[i].length > 1) {
      i += valueOptions.includes(words[i]) ? 2 : 1;
    }
    // timeout's duration, a sudo/env assignment after the options
    if (w === 'timeout' && i < words.length && /^\d/.test(words[i])) i++;
  }
  return i;
}
