import type { SkillSpec } from '../../schemas/skill';
import { normaliseGateText } from './normalise';
import { skillText } from './safety';
import { parseShell } from './shell-words';
import { PROMPT_INJECTION } from './text-rules';
import type { GateCandidate } from './types';

/**
 * The risk tier of a candidate, from its diff against the skill as published: deterministic,
 * no model call. A candidate is high-risk when it ADDS something an agent could act on
 * beyond the task: a shell command, a URL, a path outside the working directory, or text
 * addressed to the model. Deletions of a published skill are high-risk too. Text the
 * published revision already had adds no risk: an update that rewords a step keeps its tier.
 *
 * The tier does not judge (the safety gate does that); it decides who must look: the human
 * gate holds high-risk learned candidates for a person under every policy except `none`,
 * and an approval timeout never publishes one (docs/security.md).
 */

export interface RiskReport {
  tier: 'low' | 'high';
  /** What the diff adds, one reason per kind (at most a few examples each). */
  reasons: string[];
}

const MAX_EXAMPLES = 3;

/** Programs whose mention anywhere in a step reads as a command to run. */
const COMMANDS = new Set([
  'sudo',
  'su',
  'doas',
  'sh',
  'bash',
  'zsh',
  'ksh',
  'dash',
  'fish',
  'pwsh',
  'powershell',
  'iex',
  'eval',
  'rm',
  'rmdir',
  'dd',
  'chmod',
  'chown',
  'chgrp',
  'mkfs',
  'umount',
  'pkill',
  'killall',
  'curl',
  'wget',
  'nc',
  'ncat',
  'netcat',
  'socat',
  'ssh',
  'scp',
  'sftp',
  'rsync',
  'ftp',
  'telnet',
  'openssl',
  'gpg',
  'base64',
  'xxd',
  'python',
  'python2',
  'python3',
  'perl',
  'ruby',
  'node',
  'deno',
  'bun',
  'php',
  'lua',
  'osascript',
  'pip',
  'pip3',
  'npm',
  'npx',
  'pnpm',
  'yarn',
  'gem',
  'cargo',
  'go',
  'apt',
  'apt-get',
  'yum',
  'dnf',
  'apk',
  'brew',
  'snap',
  'git',
  'docker',
  'podman',
  'kubectl',
  'helm',
  'terraform',
  'aws',
  'gcloud',
  'az',
  'systemctl',
  'crontab',
  'launchctl',
  'xargs',
  'tar',
  'unzip',
  'unset',
  'truncate',
  'shred',
  'iptables',
  'ufw',
  'useradd',
  'visudo',
]);
/** English words that are also programs: a command only as the first word of a command line ("find . -name x", not "find the file"). */
const COMMANDS_AT_START = new Set([
  'cmd',
  'exec',
  'source',
  'mv',
  'cp',
  'ln',
  'mount',
  'kill',
  'shutdown',
  'reboot',
  'service',
  'find',
  'make',
  'env',
  'export',
  'alias',
  'set',
  'tee',
  'passwd',
  'go',
  'snap',
  'apt',
]);

const URL = /\b(?:https?|ftps?|sftp|wss?|file|ssh|git|s3|gs):\/\/[^\s<>()[\]{}|]{1,2048}|\bwww\.[\w-]{1,63}\.[\w.-]{1,253}/gi;
/** A path outside the working directory: absolute, in a home directory, or climbing out with ../ */
const OUTSIDE_PATH = /(?:^|[\s=:,;(])((?:\/|~\/|~[a-z_][\w-]{0,31}\/?|\$HOME\/?|\$USERPROFILE|[A-Za-z]:\\|(?:\.\.\/){1,64})[\w.~@%+/-]{0,512})/g;
/** Phrases addressed to the model rather than to the task. */
const TO_THE_MODEL =
  /\b(?:you\s{1,4}are\s{1,4}(?:an?\s{1,4})?(?:ai|assistant|language\s{1,4}model|llm|chatbot|agent)\b|as\s{1,4}an?\s{1,4}(?:ai|assistant|llm|language\s{1,4}model)\b|(?:the|this)\s{1,4}(?:assistant|language\s{1,4}model|llm)\b|system\s{1,4}(?:prompt|message)|your\s{1,4}(?:instructions|guidelines|rules|prompt|system|training|programming)\b|from\s{1,4}now\s{1,4}on\b|(?:ignore|disregard|override|forget)\s{1,4}(?:all|any|the|your|previous|prior|above)\b|pretend\s{1,4}(?:to\s{1,4}be|you)\b|act\s{1,4}as\s{1,4}(?:an?\s{1,4})?(?:admin|root|developer|system)\b|(?:reply|respond|answer)\s{1,4}only\s{1,4}with\b|do\s{1,4}not\s{1,4}(?:tell|inform|mention)\b|dont\s{1,4}(?:tell|inform|mention)\b|the\s{1,4}user\s{1,4}(?:must|should)\s{1,4}not\s{1,4}(?:know|see)\b)/gi;

interface Features {
  commands: Set<string>;
  urls: Set<string>;
  paths: Set<string>;
  toTheModel: Set<string>;
}

function features(spec: SkillSpec | undefined): Features {
  const f: Features = { commands: new Set(), urls: new Set(), paths: new Set(), toTheModel: new Set() };
  if (!spec) return f;
  const text = normaliseGateText(skillText(spec));
  for (const m of text.matchAll(URL)) f.urls.add(m[0].replace(/[.,;:!?]+$/, ''));
  const withoutUrls = text.replace(URL, ' ');
  for (const m of withoutUrls.matchAll(OUTSIDE_PATH)) {
    const path = m[1].replace(/[.,;:!?]+$/, '').replace(/(.)\/+$/, '$1');
    if (path.length > 1) f.paths.add(path);
  }
  for (const pipeline of parseShell(text)) {
    for (const command of pipeline) {
      command.programs.forEach((program, k) => {
        if (COMMANDS.has(program) || (k === command.at && COMMANDS_AT_START.has(program))) {
          f.commands.add(
            command.words
              .slice(k, k + 2)
              .map((w) => w.replace(/[.,;:!?]+$/, ''))
              .join(' '),
          );
        }
      });
    }
  }
  for (const m of text.matchAll(TO_THE_MODEL)) f.toTheModel.add(m[0].toLowerCase().replace(/\s+/g, ' '));
  for (const rule of PROMPT_INJECTION) if (rule.test(text)) f.toTheModel.add(rule.label);
  return f;
}

function added(now: Set<string>, before: Set<string>): string[] {
  return [...now].filter((x) => !before.has(x));
}

function describe(kind: string, items: string[]): string {
  const shown = items.slice(0, MAX_EXAMPLES).map((i) => JSON.stringify(i.length > 80 ? `${i.slice(0, 77)}...` : i));
  const more = items.length > MAX_EXAMPLES ? ` and ${items.length - MAX_EXAMPLES} more` : '';
  return `adds ${kind}: ${shown.join(', ')}${more}`;
}

/** `published`: the spec of the skill's active revision (undefined for a create, or when unknown: everything counts as added). */
export function classifyRisk(candidate: GateCandidate, published?: SkillSpec): RiskReport {
  if (candidate.action === 'delete') return { tier: 'high', reasons: [`deletes the published skill "${candidate.targetName}"`] };
  if (!candidate.spec) return { tier: 'high', reasons: ['no spec to classify'] };
  const now = features(candidate.spec);
  const before = features(published);
  const reasons: string[] = [];
  const kinds: Array<[keyof Features, string]> = [
    ['commands', 'a shell command'],
    ['urls', 'a URL'],
    ['paths', 'a path outside the working directory'],
    ['toTheModel', 'text addressed to the model'],
  ];
  for (const [key, kind] of kinds) {
    const items = added(now[key], before[key]);
    if (items.length) reasons.push(describe(kind, items));
  }
  return { tier: reasons.length ? 'high' : 'low', reasons };
}
