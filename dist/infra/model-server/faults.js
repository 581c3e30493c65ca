"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.FaultInjector = exports.ControlFaultSchema = exports.DEFAULT_SLOW_MS = exports.FAULT_MODES = void 0;
exports.malformed = malformed;
const zod_1 = require("zod");
const http_util_1 = require("./http-util");
exports.FAULT_MODES = ['malformed', 'http500', 'slow'];
/** Long enough to outlast the default 60 s LLM timeout of the application. */
exports.DEFAULT_SLOW_MS = 90_000;
const MAX_DELAY_MS = 10 * 60_000;
exports.ControlFaultSchema = zod_1.z.object({
    mode: zod_1.z.enum(exports.FAULT_MODES),
    count: zod_1.z.number().int().min(1).max(1_000_000).default(1),
    delayMs: zod_1.z.number().int().min(0).max(MAX_DELAY_MS).optional(),
    match: zod_1.z.string().min(1).optional(),
});
// [[fault:malformed]]  [[fault:http500]]  [[fault:slow:MS]]  [[fault:once:malformed:KEY]]  [[fault:once:http500:KEY]]
const MARKER = /\[\[fault:(malformed|http500|slow:(\d{1,7})|once:(malformed|http500):([^\]\n]+))\]\]/gi;
/**
 * Decides which fault, if any, a chat request gets. Precedence: markers in the messages
 * (first one in text order that applies), then control-route faults (oldest first), then
 * the run fault. Only the chosen fault is consumed.
 */
class FaultInjector {
    runFault;
    onceKeysSeen = new Set();
    queue = [];
    runRequests = 0;
    constructor(runFault) {
        this.runFault = runFault;
        if (runFault?.rate !== undefined && !(runFault.rate > 0 && runFault.rate <= 1)) {
            throw new Error(`fault rate must be in (0, 1], got ${runFault.rate}`);
        }
    }
    choose(messagesText) {
        return this.fromMarkers(messagesText) ?? this.fromControl(messagesText) ?? this.fromRun();
    }
    addControlFault(input) {
        const parsed = exports.ControlFaultSchema.safeParse(input);
        if (!parsed.success) {
            const issue = parsed.error.issues[0];
            throw new http_util_1.HttpError(400, `${issue?.path.join('.') || 'body'}: ${issue?.message}`, 'invalid_request_error', 'invalid_fault');
        }
        const f = parsed.data;
        this.queue.push({ mode: f.mode, remaining: f.count, delayMs: f.delayMs ?? exports.DEFAULT_SLOW_MS, match: f.match });
        return f;
    }
    /** Drops pending control faults and forgets consumed once-keys. */
    clear() {
        const cleared = this.queue.length;
        this.queue = [];
        this.onceKeysSeen.clear();
        return { cleared };
    }
    pending() {
        return this.queue.map((q) => ({ ...q }));
    }
    fromMarkers(text) {
        let chosen;
        for (const m of text.matchAll(MARKER)) {
            const [, whole, slowMs, onceMode, onceKey] = m;
            if (onceMode) {
                // Every once-key in the request is consumed, so "first request carrying KEY" holds
                // even when an earlier marker in the same request took precedence.
                const key = onceKey.trim();
                if (this.onceKeysSeen.has(key))
                    continue;
                this.onceKeysSeen.add(key);
                chosen ??= { mode: onceMode.toLowerCase(), delayMs: 0, source: 'marker' };
            }
            else if (slowMs !== undefined) {
                chosen ??= { mode: 'slow', delayMs: Math.min(Number(slowMs), MAX_DELAY_MS), source: 'marker' };
            }
            else {
                chosen ??= { mode: whole.toLowerCase(), delayMs: 0, source: 'marker' };
            }
        }
        return chosen;
    }
    fromControl(text) {
        const entry = this.queue.find((q) => q.remaining > 0 && (q.match === undefined || text.includes(q.match)));
        if (!entry)
            return undefined;
        entry.remaining -= 1;
        this.queue = this.queue.filter((q) => q.remaining > 0);
        return { mode: entry.mode, delayMs: entry.delayMs, source: 'control' };
    }
    /** Request n is faulty when floor(n·rate) steps up: deterministic, evenly spread. */
    fromRun() {
        if (!this.runFault)
            return undefined;
        const rate = this.runFault.rate ?? 1;
        const n = ++this.runRequests;
        if (Math.floor(n * rate + 1e-9) <= Math.floor((n - 1) * rate + 1e-9))
            return undefined;
        return { mode: this.runFault.mode, delayMs: this.runFault.delayMs ?? exports.DEFAULT_SLOW_MS, source: 'run' };
    }
}
exports.FaultInjector = FaultInjector;
/** A prefix of a JSON object that can never parse: the object is never closed. */
function malformed(content) {
    const text = content.startsWith('{') ? content : JSON.stringify({ answer: content });
    return text.slice(0, Math.max(1, Math.floor(text.length / 2)));
}
//# sourceMappingURL=faults.js.map