"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PROMPT_INJECTION = exports.SENSITIVE_PATHS = exports.DESTRUCTIVE_COMMANDS = exports.SYSTEM_DIRECTORIES = void 0;
exports.safetyGate = safetyGate;
const redaction_1 = require("../../skills/redaction");
const types_1 = require("./types");
const re = (label, pattern) => ({ label, test: (t) => pattern.test(t) });
const TARGET_END = String.raw `(?=$|[\s;&|)'"\x60])`;
const ROOT_TARGET = String.raw `(?:\/\*?|~\/?\*?|\$HOME\/?\*?|\$\{HOME\}\/?\*?)`;
/** Top-level system directories whose recursive deletion breaks the machine (the reference's rule); /tmp is scratch space. */
exports.SYSTEM_DIRECTORIES = ['home', 'usr', 'etc', 'var', 'bin', 'boot', 'lib', 'opt', 'root', 'srv', 'sys', 'proc'];
const SYSTEM_DIRECTORY_TARGET = String.raw `\/(?:${exports.SYSTEM_DIRECTORIES.join('|')})\/?\*?`;
/** `rm` with a recursive flag aimed at `target` (optionally quoted), whatever the sentence around it says. */
function recursiveRmOf(target) {
    const rm = new RegExp(String.raw `\brm\s+((?:-[\w-]+\s+)*)["']?` + target + TARGET_END, 'g');
    return (text) => {
        for (const m of text.matchAll(rm))
            if (/(^|\s)(-[a-zA-Z]*[rR][a-zA-Z]*|--recursive)(\s|$)/.test(m[1]))
                return true;
        return false;
    };
}
exports.DESTRUCTIVE_COMMANDS = [
    { label: 'rm -rf /', test: recursiveRmOf(ROOT_TARGET) },
    { label: 'rm -rf of a system directory', test: recursiveRmOf(SYSTEM_DIRECTORY_TARGET) },
    re('rm --no-preserve-root', /--no-preserve-root\b/),
    re('mkfs', /\bmkfs(?:\.[a-z0-9]+)?\b/i),
    re('dd of=/dev/...', /\bdd\b[^\n]*\bof=\/dev\/(?!null\b|zero\b|stdout\b|stderr\b)/),
    re('write to a raw disk device', />\s*\/dev\/(?:sd[a-z]|hd[a-z]|nvme\d|xvd[a-z]|vd[a-z]|disk\d|mmcblk\d)/),
    re('wipefs/shred a device', /\b(?:wipefs|shred)\b[^\n]*\/dev\//),
    re('fork bomb', /:\s*\(\s*\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:/),
    re('chmod 777 /', new RegExp(String.raw `\bchmod\s+(?:-[A-Za-z]+\s+)*(?:0?777|a\+rwx)\s+(?:-[A-Za-z]+\s+)*\/\*?(?=$|[\s;&|])`)),
    re('download piped to a shell', /\b(?:curl|wget)\b[^\n|]*\|\s*(?:sudo\s+)?(?:ba|z|k|da)?sh\b/),
    re('download executed by a shell', /\b(?:ba|z)?sh\s+(?:-c\s+)?["']?\s*[<$]\(\s*(?:curl|wget)\b/),
];
exports.SENSITIVE_PATHS = [
    re('write through ../..', /\b(?:write|save|copy|mv|cp|move|overwrite)\b[^.\n]{0,40}\.\.[/\\]\.\./i),
    re('../.. into a system directory', /(?:\.\.[/\\]){2,}(?:etc|root|home|proc|sys|var|usr|bin|boot|dev)\b/),
    re('/etc/passwd', /\/etc\/passwd\b/),
    re('/etc/shadow', /\/etc\/shadow\b/),
    re('/etc/sudoers', /\/etc\/sudoers\b/),
    re('SSH private key', /\.ssh\/id_(?:rsa|ed25519|ecdsa|dsa)\b/),
    re('/root/.ssh', /\/root\/\.ssh\b/),
    re('cloud credentials file', /\.aws\/credentials\b|\.config\/gcloud\/[\w.-]*credentials/),
];
exports.PROMPT_INJECTION = [
    re('ignore previous instructions', /\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+)?(?:of\s+)?(?:the\s+|your\s+|these\s+)?(?:previous|prior|above|earlier|preceding|system|original)\s+(?:instructions|prompts?|rules|messages|directions)\b/i),
    re('reveal the system prompt', /\b(?:reveal|print|show|leak|output|repeat)\s+(?:your|the)\s+(?:system\s+prompt|hidden\s+instructions|initial\s+prompt)\b/i),
    re('jailbreak mode switch', /\byou\s+are\s+now\s+(?:in\s+)?(?:developer|dan|jailbreak|unrestricted|god)\s*mode\b/i),
    re('chat control token', /<\|(?:im_start|im_end|system|endoftext)\|>/),
    re('conceal actions from the user', /\b(?:do\s+not|don't|never)\s+(?:tell|inform|let)\s+(?:the\s+)?(?:user|human|operator)\s+(?:know\b)?/i),
    re('credential exfiltration', /\b(?:exfiltrate|send\s+(?:the\s+|all\s+)?(?:credentials|secrets|api\s+keys?|tokens?|passwords?)\s+to)\b/i),
];
/** Everything an agent reads from the skill: name, description, when_to_use, steps, pitfalls. */
function skillText(candidate) {
    const s = candidate.spec;
    return [s.name, s.description, s.when_to_use, ...s.steps, ...(s.pitfalls ?? [])].join('\n');
}
function safetyGate(candidate) {
    if (candidate.action === 'delete')
        return { gate: 'safety', ran: false, passed: true, held: false, reasons: [types_1.SKIPPED_FOR_DELETE] };
    if (!candidate.spec)
        return { gate: 'safety', ran: true, passed: false, held: false, reasons: ['missing spec body'] };
    const body = skillText(candidate);
    const reasons = [
        ...(0, redaction_1.findSecrets)(body).map((name) => `suspected secret: ${name}`),
        ...exports.DESTRUCTIVE_COMMANDS.filter((p) => p.test(body)).map((p) => `dangerous shell command: ${p.label}`),
        ...exports.SENSITIVE_PATHS.filter((p) => p.test(body)).map((p) => `path traversal or sensitive path: ${p.label}`),
        ...exports.PROMPT_INJECTION.filter((p) => p.test(body)).map((p) => `prompt injection: ${p.label}`),
    ];
    return { gate: 'safety', ran: true, passed: reasons.length === 0, held: false, reasons };
}
//# sourceMappingURL=safety.js.map