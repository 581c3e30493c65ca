/**
 * Best-effort credential redaction for text that leaves the process (reviewer
 * and reflector prompts, stored transcripts, evaluator records). It recognises
 * common credential *formats* and *named* secrets (`password=...`); it cannot
 * know tenant-specific sensitive data, so applications must still sanitize.
 *
 * The same rule set, restricted to high-confidence literals, backs the Safety
 * gate's secret check (findSecrets), so what we redact and what we refuse to
 * publish cannot drift apart.
 */

export const REDACTED = '[REDACTED]';

/** Words that make a key name sensitive (`DB_PASSWORD`, `apiKey`, `x-auth-token`, `"secret"`). */
const SENSITIVE_WORDS = new Set([
  'password',
  'passwd',
  'pwd',
  'passphrase',
  'secret',
  'secrets',
  'token',
  'apikey',
  'accesskey',
  'secretkey',
  'privatekey',
  'credential',
  'credentials',
  'auth',
  'authorization',
  'cookie',
  'sessionid',
  'signature',
]);
/** Two-word names that are sensitive only together (`api_key`, but not `key` or `api`). */
const SENSITIVE_PAIRS = new Set(['api key', 'access key', 'secret key', 'private key', 'client secret', 'session id']);

/** True when a key/flag/variable name denotes a credential. */
export function isSensitiveName(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  for (let i = 0; i < words.length; i++) {
    if (SENSITIVE_WORDS.has(words[i])) return true;
    if (i + 1 < words.length && SENSITIVE_PAIRS.has(`${words[i]} ${words[i + 1]}`)) return true;
  }
  return false;
}

/** Replace a value while keeping the quotes around it, so JSON and code stay well-formed. */
function redactValue(raw: string): string {
  if (raw.length >= 2 && (raw[0] === '"' || raw[0] === "'") && raw[raw.length - 1] === raw[0]) return `${raw[0]}${REDACTED}${raw[0]}`;
  return REDACTED;
}

interface SecretRule {
  name: string;
  pattern: RegExp;
  redact: (match: string, ...groups: string[]) => string;
  /** Whether a match is a high-confidence literal credential (Safety gate). Omitted: never. */
  isCredential?: (match: string, ...groups: string[]) => boolean;
  /**
   * For a match left alone: where (offset into the match) scanning resumes, so what the
   * match would have swallowed is scanned too (`failed: DB_PASSWORD=x` is not one pair).
   */
  resumeAt?: (match: string, ...groups: string[]) => number;
}

/** A literal that looks like a real credential rather than a placeholder (`$TOKEN`, `<your key>`, `****`). */
function looksLikeLiteralSecret(value: string): boolean {
  const v = value.replace(/^["']|["']$/g, '');
  if (v === REDACTED || v.length < 12) return false;
  if (/^[$<{%]/.test(v) || /^([*x.])\1*$/i.test(v)) return false;
  return /^[A-Za-z0-9_\-+/=.~]+$/.test(v) && /[A-Za-z]/.test(v) && /[0-9]/.test(v);
}

const always = () => true;
/** URL query parameters that carry a credential although their names say little (`sig` of a SAS URL). */
const QUERY_SECRET_PARAMS = new Set(['sig', 'key', 'code', 'x-amz-signature', 'x-goog-signature', 'x-amz-security-token', 'x-amz-credential']);
const isSecretQueryParam = (name: string) => QUERY_SECRET_PARAMS.has(name.toLowerCase()) || isSensitiveName(name);
/** A 40-character AWS secret access key: base64 alphabet, mixed case (a 40-hex git sha is not one). */
const AWS_SECRET = String.raw`(?<![A-Za-z0-9/+=])[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])`;
const AWS_KEY_ID = String.raw`(?<![A-Z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![A-Z0-9])`;
const looksLikeAwsSecret = (s: string) => /[a-z]/.test(s) && /[A-Z]/.test(s) && /[0-9/+]/.test(s);
const AUTH_SCHEMES = /^(bearer|basic|token|digest|apikey)$/i;

const INNER_PAIR = /(?<![\w.-])([A-Za-z_][\w.-]*)[=:](?!\/\/)/g;
/**
 * `deploy failed: DB_PASSWORD=x` reads as key `failed` with the value `DB_PASSWORD=x`:
 * where, inside such an unquoted value, the value of a sensitive `NAME=` starts (the
 * rest of the value is that secret). One linear pass, so a long `a=a=a=...` stays cheap.
 */
function innerSensitivePair(value: string): { valueAt: number } | undefined {
  INNER_PAIR.lastIndex = 0;
  for (const m of value.matchAll(INNER_PAIR)) {
    const valueAt = (m.index ?? 0) + m[0].length;
    if (isSensitiveName(m[1]) && valueAt < value.length && !value.startsWith(REDACTED.slice(0, -1), valueAt)) return { valueAt };
  }
  return undefined;
}

// Order matters: whole blocks and structured forms first, bare token formats last.
const RULES: SecretRule[] = [
  {
    name: 'url_credentials',
    // Lookbehinds keep every pattern linear: a match may only start where a run of name characters starts.
    pattern: /(?<![a-z0-9+.-])([a-z][a-z0-9+.-]*:\/\/)([^\s:@/?#[\]]+):([^\s@/?#]+)@/gi,
    redact: (_m, scheme) => `${scheme}${REDACTED}@`,
    isCredential: (_m, _s, _user, pass) => pass !== REDACTED,
  },
  {
    name: 'authorization_header',
    pattern: /\b(authorization["']?[ \t]*[:=][ \t]*["']?)(?:(bearer|basic|token|digest|apikey)[ \t]+)?([^\s"',;]+)/gi,
    redact: (_m, head, scheme) => `${head}${scheme ? `${scheme} ` : ''}${REDACTED}`,
    isCredential: (_m, _h, _s, value) => looksLikeLiteralSecret(value),
  },
  {
    name: 'bearer_token',
    pattern: /\b(bearer[ \t]+)([A-Za-z0-9._~+/-]{8,}=*)/gi,
    redact: (_m, head) => `${head}${REDACTED}`,
    isCredential: (_m, _h, token) => token.length >= 20,
  },
  {
    name: 'sensitive_flag',
    pattern: /(?<![\w-])(--?[A-Za-z][\w-]*)(=|[ \t]+)(\[REDACTED\]|"[^"\n]*"|'[^'\n]*'|[^\s"']+)/g,
    redact: (m, flag, sep, value) => (isSensitiveName(flag) && !value.startsWith('-') ? `${flag}${sep}${redactValue(value)}` : m),
    isCredential: (_m, flag, _sep, value) => isSensitiveName(flag) && looksLikeLiteralSecret(value),
  },
  {
    name: 'quoted_key_value',
    pattern: /(["'])([A-Za-z_][\w.-]*)\1(\s*:\s*)(\[REDACTED\]|"(?:[^"\\\n]|\\.)*"|'[^'\n]*'|[^\s,}\]]+)/g,
    redact: (m, q, key, sep, value) => (isSensitiveName(key) && !/^[[{]/.test(value) ? `${q}${key}${q}${sep}${redactValue(value)}` : m),
    isCredential: (_m, _q, key, _sep, value) => isSensitiveName(key) && looksLikeLiteralSecret(value),
  },
  {
    name: 'url_query_credential',
    pattern: /([?&;])([A-Za-z][\w.-]*)=([^&#\s"'<>]+)/g,
    redact: (m, sep, param, value) => (isSecretQueryParam(param) && value !== REDACTED ? `${sep}${param}=${REDACTED}` : m),
    isCredential: (_m, _sep, param, value) => isSecretQueryParam(param) && value !== REDACTED && value.length >= 8,
  },
  {
    // A bare secret access key is only recognisable beside its key id (either order, up to two lines apart).
    name: 'aws_secret_access_key',
    pattern: new RegExp(String.raw`(${AWS_KEY_ID})([^]{0,80}?)(${AWS_SECRET})|(${AWS_SECRET})([^]{0,80}?)(${AWS_KEY_ID})`, 'g'),
    redact: (m, id, gap, secret, secret2, gap2, id2) => {
      if (id) return looksLikeAwsSecret(secret) ? `${id}${gap}${REDACTED}` : m;
      return looksLikeAwsSecret(secret2) ? `${REDACTED}${gap2}${id2}` : m;
    },
    isCredential: (_m, id, _gap, secret, secret2) => looksLikeAwsSecret(id ? secret : secret2),
    resumeAt: (m, id, gap, _secret, secret2) => (id ? id.length + gap.length : secret2.length) || m.length,
  },
  {
    name: 'key_value',
    pattern: /(?<![\w.-])([A-Za-z_][\w.-]*)([ \t]*[=:][ \t]*)(\[REDACTED\]|"[^"\n]*"|'[^'\n]*'|[^\s,;&}\]]+)/g,
    // Scheme words after `Authorization:` were handled by authorization_header; `x://` is a URL, not a value.
    redact: (m, key, sep, value) => {
      if (isSensitiveName(key) && !/^\/\//.test(value) && !AUTH_SCHEMES.test(value)) return `${key}${sep}${redactValue(value)}`;
      const inner = innerSensitivePair(value);
      return inner ? `${key}${sep}${value.slice(0, inner.valueAt)}${REDACTED}` : m;
    },
    isCredential: (_m, key, _sep, value) => {
      if (isSensitiveName(key)) return looksLikeLiteralSecret(value);
      const inner = innerSensitivePair(value);
      return inner !== undefined && looksLikeLiteralSecret(value.slice(inner.valueAt));
    },
  },
  {
    name: 'jwt',
    pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]+/g,
    redact: () => REDACTED,
    isCredential: always,
  },
  {
    name: 'openai_key',
    pattern: /(?<![A-Za-z0-9])sk-[A-Za-z0-9_-]{8,}/g,
    redact: () => REDACTED,
    isCredential: (m) => m.length >= 23,
  },
  {
    name: 'aws_access_key_id',
    // Glued to a word (`deploy_AKIA...`) is still a key id: only letters/digits of its own alphabet bound it.
    pattern: /(?<![A-Z0-9])(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16}(?![A-Z0-9])/g,
    redact: () => REDACTED,
    isCredential: always,
  },
  {
    name: 'github_token',
    pattern: /(?<![A-Za-z0-9])(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})/g,
    redact: () => REDACTED,
    isCredential: always,
  },
  {
    name: 'slack_token',
    pattern: /(?<![A-Za-z0-9])xox[abposr]-[A-Za-z0-9-]{10,}/g,
    redact: () => REDACTED,
    isCredential: always,
  },
  {
    name: 'google_api_key',
    pattern: /(?<![A-Za-z0-9])AIza[0-9A-Za-z_-]{35}/g,
    redact: () => REDACTED,
    isCredential: always,
  },
  {
    name: 'stripe_key',
    pattern: /(?<![A-Za-z0-9])[rsp]k_(?:live|test)_[A-Za-z0-9]{16,}/g,
    redact: () => REDACTED,
    isCredential: always,
  },
];

const PEM_MARKER = /-----(BEGIN|END) [A-Z0-9 ]*PRIVATE KEY-----/g;

/**
 * Private key blocks, scanned linearly. A block cut open by truncation is
 * redacted to the end of the text; an orphaned END marker takes the
 * base64 lines right before it along.
 */
function redactPemBlocks(text: string): string {
  let out = '';
  let copiedUpTo = 0;
  let openAt = -1;
  for (const m of text.matchAll(PEM_MARKER)) {
    const at = m.index ?? 0;
    if (m[1] === 'BEGIN') {
      if (openAt < 0) openAt = at;
      continue;
    }
    const end = at + m[0].length;
    const start = openAt >= 0 ? openAt : orphanKeyStart(text, at, copiedUpTo);
    out += text.slice(copiedUpTo, start) + REDACTED;
    copiedUpTo = end;
    openAt = -1;
  }
  if (openAt >= 0) return out + text.slice(copiedUpTo, openAt) + REDACTED;
  return out + text.slice(copiedUpTo);
}

function orphanKeyStart(text: string, endMarkerAt: number, floor: number): number {
  const lineStart = (pos: number) => {
    let i = pos;
    while (i > floor && text[i - 1] !== '\n') i--;
    return i;
  };
  // The END marker's own line, then every preceding line that looks like base64 key material.
  let start = lineStart(endMarkerAt);
  while (start > floor) {
    const previous = lineStart(start - 1);
    if (!/^[A-Za-z0-9+/=]{16,}$/.test(text.slice(previous, start - 1).trim())) break;
    start = previous;
  }
  return start;
}

/** Replace every recognised credential in `text` with [REDACTED]. Idempotent. */
export function redactSecrets(text: string): string {
  if (text.trim() === '') return text;
  let out = redactPemBlocks(text);
  for (const rule of RULES) out = applyRule(rule, out);
  return out;
}

function applyRule(rule: SecretRule, text: string): string {
  const re = rule.pattern;
  re.lastIndex = 0;
  let out = '';
  let copiedUpTo = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const groups = groupsOf(m.slice(1));
    const replacement = rule.redact(m[0], ...groups);
    if (replacement === m[0]) {
      const resume = rule.resumeAt?.(m[0], ...groups) ?? m[0].length;
      re.lastIndex = m.index + Math.max(1, Math.min(resume, m[0].length));
      continue;
    }
    out += text.slice(copiedUpTo, m.index) + replacement;
    copiedUpTo = m.index + m[0].length;
    if (m[0].length === 0) re.lastIndex++;
  }
  return out + text.slice(copiedUpTo);
}

/**
 * A JSON value with every string in it (object keys too) passed through redactSecrets.
 * Recursive: callers pass values whose depth a schema already bounded or walked.
 */
export function redactJsonStrings(value: unknown): unknown {
  if (typeof value === 'string') return redactSecrets(value);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(redactJsonStrings);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [redactSecrets(k), redactJsonStrings(v)]));
}

/**
 * Names of the rules that found a high-confidence literal credential in `text`
 * (each name once, in rule order). Placeholders such as `password=$DB_PASSWORD`
 * or an already redacted value are not findings.
 */
export function findSecrets(text: string): string[] {
  const found: string[] = [];
  PEM_MARKER.lastIndex = 0;
  if (PEM_MARKER.test(text)) found.push('private_key_block');
  for (const rule of RULES) {
    if (!rule.isCredential) continue;
    const re = rule.pattern;
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      const groups = groupsOf(m.slice(1));
      if (rule.isCredential(m[0], ...groups)) {
        found.push(rule.name);
        break;
      }
      const resume = rule.resumeAt?.(m[0], ...groups) ?? m[0].length;
      re.lastIndex = m.index + Math.max(1, Math.min(resume, m[0].length));
    }
  }
  return found;
}

/** Capture groups from a replace callback's or match's trailing arguments (offsets and input dropped). */
function groupsOf(rest: unknown[]): string[] {
  const groups: string[] = [];
  for (const g of rest) {
    if (typeof g === 'number') break;
    groups.push(typeof g === 'string' ? g : '');
  }
  return groups;
}
