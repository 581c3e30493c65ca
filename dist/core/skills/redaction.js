"use strict";
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
Object.defineProperty(exports, "__esModule", { value: true });
exports.REDACTED = void 0;
exports.isSensitiveName = isSensitiveName;
exports.redactSecrets = redactSecrets;
exports.findSecrets = findSecrets;
exports.REDACTED = '[REDACTED]';
/** Words that make a key name sensitive (`DB_PASSWORD`, `apiKey`, `x-auth-token`, `"secret"`). */
const SENSITIVE_WORDS = new Set([
    'password', 'passwd', 'pwd', 'passphrase', 'secret', 'secrets', 'token', 'apikey', 'accesskey', 'secretkey',
    'privatekey', 'credential', 'credentials', 'auth', 'authorization', 'cookie', 'sessionid', 'signature',
]);
/** Two-word names that are sensitive only together (`api_key`, but not `key` or `api`). */
const SENSITIVE_PAIRS = new Set(['api key', 'access key', 'secret key', 'private key', 'client secret', 'session id']);
/** True when a key/flag/variable name denotes a credential. */
function isSensitiveName(name) {
    const words = name
        .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
        .toLowerCase()
        .split(/[^a-z0-9]+/)
        .filter(Boolean);
    for (let i = 0; i < words.length; i++) {
        if (SENSITIVE_WORDS.has(words[i]))
            return true;
        if (i + 1 < words.length && SENSITIVE_PAIRS.has(`${words[i]} ${words[i + 1]}`))
            return true;
    }
    return false;
}
/** Replace a value while keeping the quotes around it, so JSON and code stay well-formed. */
function redactValue(raw) {
    if (raw.length >= 2 && (raw[0] === '"' || raw[0] === "'") && raw[raw.length - 1] === raw[0])
        return `${raw[0]}${exports.REDACTED}${raw[0]}`;
    return exports.REDACTED;
}
/** A literal that looks like a real credential rather than a placeholder (`$TOKEN`, `<your key>`, `****`). */
function looksLikeLiteralSecret(value) {
    const v = value.replace(/^["']|["']$/g, '');
    if (v === exports.REDACTED || v.length < 12)
        return false;
    if (/^[$<{%]/.test(v) || /^([*x.])\1*$/i.test(v))
        return false;
    return /^[A-Za-z0-9_\-+/=.~]+$/.test(v) && /[A-Za-z]/.test(v) && /[0-9]/.test(v);
}
const always = () => true;
const AUTH_SCHEMES = /^(bearer|basic|token|digest|apikey)$/i;
// Order matters: whole blocks and structured forms first, bare token formats last.
const RULES = [
    {
        name: 'url_credentials',
        // Lookbehinds keep every pattern linear: a match may only start where a run of name characters starts.
        pattern: /(?<![a-z0-9+.-])([a-z][a-z0-9+.-]*:\/\/)([^\s:@/?#[\]]+):([^\s@/?#]+)@/gi,
        redact: (_m, scheme) => `${scheme}${exports.REDACTED}@`,
        isCredential: (_m, _s, _user, pass) => pass !== exports.REDACTED,
    },
    {
        name: 'authorization_header',
        pattern: /\b(authorization["']?[ \t]*[:=][ \t]*["']?)(?:(bearer|basic|token|digest|apikey)[ \t]+)?([^\s"',;]+)/gi,
        redact: (_m, head, scheme) => `${head}${scheme ? `${scheme} ` : ''}${exports.REDACTED}`,
        isCredential: (_m, _h, _s, value) => looksLikeLiteralSecret(value),
    },
    {
        name: 'bearer_token',
        pattern: /\b(bearer[ \t]+)([A-Za-z0-9._~+/-]{8,}=*)/gi,
        redact: (_m, head) => `${head}${exports.REDACTED}`,
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
        name: 'key_value',
        pattern: /(?<![\w.-])([A-Za-z_][\w.-]*)([ \t]*[=:][ \t]*)(\[REDACTED\]|"[^"\n]*"|'[^'\n]*'|[^\s,;&}\]]+)/g,
        // Scheme words after `Authorization:` were handled by authorization_header; `x://` is a URL, not a value.
        redact: (m, key, sep, value) => isSensitiveName(key) && !/^\/\//.test(value) && !AUTH_SCHEMES.test(value) ? `${key}${sep}${redactValue(value)}` : m,
        isCredential: (_m, key, _sep, value) => isSensitiveName(key) && looksLikeLiteralSecret(value),
    },
    {
        name: 'jwt',
        pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]+/g,
        redact: () => exports.REDACTED,
        isCredential: always,
    },
    {
        name: 'openai_key',
        pattern: /\bsk-[A-Za-z0-9_-]{8,}/g,
        redact: () => exports.REDACTED,
        isCredential: (m) => m.length >= 23,
    },
    {
        name: 'aws_access_key_id',
        pattern: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16}\b/g,
        redact: () => exports.REDACTED,
        isCredential: always,
    },
    {
        name: 'github_token',
        pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})/g,
        redact: () => exports.REDACTED,
        isCredential: always,
    },
    {
        name: 'slack_token',
        pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
        redact: () => exports.REDACTED,
        isCredential: always,
    },
    {
        name: 'google_api_key',
        pattern: /\bAIza[0-9A-Za-z_-]{35}/g,
        redact: () => exports.REDACTED,
        isCredential: always,
    },
    {
        name: 'stripe_key',
        pattern: /\b[rsp]k_(?:live|test)_[A-Za-z0-9]{16,}/g,
        redact: () => exports.REDACTED,
        isCredential: always,
    },
];
const PEM_MARKER = /-----(BEGIN|END) [A-Z0-9 ]*PRIVATE KEY-----/g;
/**
 * Private key blocks, scanned linearly. A block cut open by truncation is
 * redacted to the end of the text; an orphaned END marker takes the
 * base64 lines right before it along.
 */
function redactPemBlocks(text) {
    let out = '';
    let copiedUpTo = 0;
    let openAt = -1;
    for (const m of text.matchAll(PEM_MARKER)) {
        const at = m.index ?? 0;
        if (m[1] === 'BEGIN') {
            if (openAt < 0)
                openAt = at;
            continue;
        }
        const end = at + m[0].length;
        const start = openAt >= 0 ? openAt : orphanKeyStart(text, at, copiedUpTo);
        out += text.slice(copiedUpTo, start) + exports.REDACTED;
        copiedUpTo = end;
        openAt = -1;
    }
    if (openAt >= 0)
        return out + text.slice(copiedUpTo, openAt) + exports.REDACTED;
    return out + text.slice(copiedUpTo);
}
function orphanKeyStart(text, endMarkerAt, floor) {
    const lineStart = (pos) => {
        let i = pos;
        while (i > floor && text[i - 1] !== '\n')
            i--;
        return i;
    };
    // The END marker's own line, then every preceding line that looks like base64 key material.
    let start = lineStart(endMarkerAt);
    while (start > floor) {
        const previous = lineStart(start - 1);
        if (!/^[A-Za-z0-9+/=]{16,}$/.test(text.slice(previous, start - 1).trim()))
            break;
        start = previous;
    }
    return start;
}
/** Replace every recognised credential in `text` with [REDACTED]. Idempotent. */
function redactSecrets(text) {
    if (text.trim() === '')
        return text;
    let out = redactPemBlocks(text);
    for (const rule of RULES) {
        rule.pattern.lastIndex = 0;
        out = out.replace(rule.pattern, (match, ...rest) => rule.redact(match, ...groupsOf(rest)));
    }
    return out;
}
/**
 * Names of the rules that found a high-confidence literal credential in `text`
 * (each name once, in rule order). Placeholders such as `password=$DB_PASSWORD`
 * or an already redacted value are not findings.
 */
function findSecrets(text) {
    const found = [];
    PEM_MARKER.lastIndex = 0;
    if (PEM_MARKER.test(text))
        found.push('private_key_block');
    for (const rule of RULES) {
        if (!rule.isCredential)
            continue;
        for (const m of text.matchAll(rule.pattern)) {
            if (rule.isCredential(m[0], ...groupsOf(m.slice(1)))) {
                found.push(rule.name);
                break;
            }
        }
    }
    return found;
}
/** Capture groups from a replace callback's or match's trailing arguments (offsets and input dropped). */
function groupsOf(rest) {
    const groups = [];
    for (const g of rest) {
        if (typeof g === 'number')
            break;
        groups.push(typeof g === 'string' ? g : '');
    }
    return groups;
}
//# sourceMappingURL=redaction.js.map