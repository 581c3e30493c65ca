import { argsAt, type Pipeline } from './shell-words';

/**
 * The safety gate's rules over normalised text (normaliseGateText): paths, credentials sent
 * over the network, and text aimed at the model rather than the task. Every expression
 * starts at a distinctive token and repeats at most a bounded number of times, so a match
 * attempt costs a bounded number of steps and a scan is linear in the text.
 */

export interface TextRule {
  label: string;
  test: (text: string) => boolean;
}

const rule = (label: string, pattern: RegExp): TextRule => ({ label, test: (t) => pattern.test(t) });

export const SENSITIVE_PATHS: TextRule[] = [
  rule('write through ../..', /\b(?:write|save|copy|mv|cp|move|overwrite)\b[^.\n]{0,40}\.\.[/\\]\.\./i),
  // Starts only at the first ../ of a run, so a long run of ../ is read once, not once per ../.
  rule('../.. into a system directory', /(?<!\.\.[/\\])(?:\.\.[/\\]){2,}(?:etc|root|home|proc|sys|var|usr|bin|boot|dev)\b/),
  rule('/etc/passwd', /\/etc\/passwd\b/),
  rule('/etc/shadow', /\/etc\/shadow\b/),
  rule('/etc/sudoers', /\/etc\/sudoers\b/),
  rule('SSH private key', /\.ssh\/id_(?:rsa|ed25519|ecdsa|dsa)\b/),
  rule('/root/.ssh', /\/root\/\.ssh\b/),
  rule('cloud credentials file', /\.aws\/credentials\b|\.config\/gcloud\/[\w.-]{0,64}credentials/),
];

/** A home directory however spelled (after normalisation: ${HOME} is $HOME). */
const HOME = String.raw`(?:~|\$HOME|\$USERPROFILE|\/root|\/home\/[\w.-]{1,64}|\/Users\/[\w.-]{1,64})`;
/** Files that hold credentials: cloud, ssh, netrc, docker, kube, package registries, git, databases, .env. */
const CREDENTIAL_FILE = new RegExp(
  String.raw`${HOME}\/(?:\.aws|\.ssh|\.netrc|_netrc|\.docker\/config\.json|\.docker|\.kube|\.config\/gcloud|\.azure|\.gnupg|\.git-credentials|\.npmrc|\.pypirc|\.pgpass|\.my\.cnf|\.vault-token|\.terraform\.d|\.config\/gh)\b` +
    String.raw`|(?:^|[\s\/=@<(:,])\.env(?:\.[\w-]{1,32})?(?=$|[\s,;:)|&>])` +
    String.raw`|\bKUBECONFIG\b|\bAWS_SHARED_CREDENTIALS_FILE\b|\/var\/run\/secrets\/kubernetes\.io`,
  'm',
);

const SEND_FLAG =
  /^(?:-d|--data(?:-\w{1,12})?(?:=.*)?|-F|--form(?:-string)?(?:=.*)?|-T|--upload-file(?:=.*)?|--json(?:=.*)?|-X(?:POST|PUT|PATCH)?|--request(?:=.*)?|--post-data(?:=.*)?|--post-file(?:=.*)?|--body-data(?:=.*)?|--body-file(?:=.*)?|--method=(?:POST|PUT|PATCH)|-Body|-InFile|-Method|-d.+|-F.+|-T.+)$/i;
const RAW_SENDERS = new Set(['nc', 'ncat', 'netcat', 'socat', 'telnet', 'mail', 'mailx', 'sendmail', 'mutt', 'ftp', 'tftp', 'sftp']);
const COPY_TO_HOST = new Set(['scp', 'rsync', 'rclone']);
const HTTP_CLIENTS = new Set(['curl', 'wget', 'wget2', 'http', 'https', 'xh', 'httpie', 'iwr', 'irm', 'Invoke-WebRequest', 'Invoke-RestMethod']);
/** Sending said in words or library calls: "post the file to https://…", requests.post(…). */
const SEND_IN_WORDS =
  /\b(?:post|posts|posting|send|sends|sending|upload|uploads|uploading|transmit|forward|submit|email|mail|exfiltrate|beacon)\b[^\n]{0,120}?(?:https?:\/\/|\bftp:\/\/|\bwebhook\b|\bendpoint\b|\bserver\b|\bpastebin\b|\b[\w-]{1,63}\.(?:com|net|org|io|sh|xyz|ru|cn|me|dev|app)\b)|\b(?:requests|httpx|axios|session|urllib3?)\.(?:post|put|patch|request)\b|\bmethod\s{0,4}[:=]\s{0,4}(?:POST|PUT)\b|\/dev\/(?:tcp|udp)\//i;

/** Does the text send something over the network (an upload, a raw socket, a copy to a host, a request with a computed part)? */
export function sendsOverNetwork(text: string, pipelines: readonly Pipeline[]): boolean {
  if (SEND_IN_WORDS.test(text)) return true;
  for (const pipeline of pipelines) {
    for (const command of pipeline) {
      if (command.feeds !== undefined && HTTP_CLIENTS.has(command.feeds)) return true; // curl -H "X: $(cat ~/.netrc)" …
      const { programs } = command;
      for (let k = 0; k < programs.length; k++) {
        const p = programs[k];
        if (HTTP_CLIENTS.has(p) && argsAt(command, k).some((a) => SEND_FLAG.test(a) || a.startsWith('@') || a === '$()')) return true;
        if (RAW_SENDERS.has(p) && k + 1 < programs.length) return true;
        if (COPY_TO_HOST.has(p) && argsAt(command, k).some((a) => /^(?:[\w.-]{1,64}@)?[\w.-]{1,253}:/.test(a) && !/^[a-zA-Z]:/.test(a))) return true;
        if (p === 'aws' && argsAt(command, k).some((a) => a.startsWith('s3://'))) return true;
      }
    }
  }
  return false;
}

export function credentialExfiltration(text: string, pipelines: readonly Pipeline[]): string[] {
  return CREDENTIAL_FILE.test(text) && sendsOverNetwork(text, pipelines) ? ['credential file sent over the network'] : [];
}

const OVERRIDE_VERB = String.raw`\b(?:ignore|ignoring|disregard|disregarding|forget|override|overriding|bypass|overrule|discard|abandon|drop|skip|stop\s+following|do\s+not\s+follow|dont\s+follow)`;
const FILLER = String.raw`(?:all|any|every|each|of|the|your|these|those|my|its|their|our|previous|previously|prior|above|earlier|preceding|foregoing|system|original|other|former|initial|developer|developers|safety|existing|current|given|old|standing|default|security|operator)`;
const TARGET = String.raw`(?:instructions?|prompts?|rules|messages?|directions?|guidelines|guardrails|directives?|constraints|polic(?:y|ies)|context|commands|orders|restrictions|programming|guidance|safeguards)\b`;
const OVERRIDE = new RegExp(
  String.raw`${OVERRIDE_VERB}\s{1,4}((?:${FILLER}\s{1,4}){0,5})${TARGET}((?:\s{1,4}(?:above|before|earlier|so\s+far|previously|given|you\s+(?:were|have\s+been)\s+given))?)`,
  'gi',
);
const QUALIFIER =
  /\b(?:all|any|every|previous|previously|prior|above|earlier|preceding|foregoing|system|original|other|former|initial|developer|developers|safety|your|existing|current|standing|default|security|operator)\b/i;

function overridesInstructions(text: string): boolean {
  for (const m of text.matchAll(OVERRIDE)) if (QUALIFIER.test(m[1]) || m[2].trim() !== '') return true;
  return false;
}

const AUDIENCE = String.raw`(?:the\s{1,4}|your\s{1,4}|any\s{1,4})?(?:user|users|human|humans|operator|owner|reviewer|admin|administrator|person|people|customer|developer)s?\b`;

export const PROMPT_INJECTION: TextRule[] = [
  { label: 'ignore previous instructions', test: overridesInstructions },
  rule(
    'reveal the system prompt',
    /\b(?:reveal|print|show|leak|output|repeat|dump|disclose)\s{1,4}(?:your|the)\s{1,4}(?:system\s{1,4}prompt|hidden\s{1,4}instructions|initial\s{1,4}prompt|instructions\s{1,4}verbatim)\b/i,
  ),
  rule(
    'jailbreak mode switch',
    /\byou\s{1,4}are\s{1,4}now\s{1,4}(?:in\s{1,4})?(?:developer|dan|jailbreak|jailbroken|unrestricted|god|unfiltered)\s{0,4}mode\b|\b(?:new|updated)\s{1,4}(?:system\s{1,4})?instructions\s{0,4}:/i,
  ),
  rule('chat control token', /<\|[a-z_]{1,24}\|>|\[\/?INST\]|<<\/?SYS>>|<\/?(?:system|assistant)>/i),
  rule(
    'conceal actions from the user',
    new RegExp(
      String.raw`\b(?:do\s{1,4}not|dont|never|must\s{1,4}not|should\s{1,4}not|without)\s{1,4}(?:tell|telling|inform|informing|notify|notifying|alert|alerting|disclose|disclosing|let|letting|asking|warn|warning)\s{1,4}${AUDIENCE}` +
        String.raw`|\b(?:hide|hiding|conceal|concealing|keep|keeping|withhold|withholding)\b(?:\s{1,4}[\w-]{1,30}){0,6}?\s{1,4}(?:from|secret\s{1,4}from)\s{1,4}${AUDIENCE}` +
        String.raw`|\bwithout\s{1,4}(?:the\s{1,4})?(?:user|human|operator)s?\s{1,4}(?:knowing|noticing|seeing)\b`,
      'i',
    ),
  ),
  rule(
    'credential exfiltration',
    /\bexfiltrat(?:e|es|ed|ing|ion)\b|\b(?:send|post|upload|leak|forward)\s{1,4}(?:the\s{1,4}|all\s{1,4}|any\s{1,4}|your\s{1,4})?(?:credentials|secrets|api\s{1,4}keys?|tokens?|passwords?|private\s{1,4}keys?|env(?:ironment)?\s{1,4}variables)\s{1,4}to\b/i,
  ),
];
