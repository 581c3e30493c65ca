import { z } from 'zod';
import { HttpError } from './http-util';

export const FAULT_MODES = ['malformed', 'http500', 'slow'] as const;
export type FaultMode = (typeof FAULT_MODES)[number];

/** Long enough to outlast the default 60 s LLM timeout of the application. */
export const DEFAULT_SLOW_MS = 90_000;
const MAX_DELAY_MS = 10 * 60_000;

export interface Fault {
  mode: FaultMode;
  /** Only meaningful for `slow`. */
  delayMs: number;
  source: 'marker' | 'control' | 'run';
}

/** A fault for the whole run (`--fault MODE`), served to a deterministic fraction of requests. */
export interface RunFault {
  mode: FaultMode;
  /** In (0, 1]; 0.5 ⇒ every 2nd request. Default 1. */
  rate?: number;
  delayMs?: number;
}

export const ControlFaultSchema = z.object({
  mode: z.enum(FAULT_MODES),
  count: z.number().int().min(1).max(1_000_000).default(1),
  delayMs: z.number().int().min(0).max(MAX_DELAY_MS).optional(),
  match: z.string().min(1).optional(),
});
export type ControlFault = z.infer<typeof ControlFaultSchema>;

interface QueuedFault {
  mode: FaultMode;
  remaining: number;
  delayMs: number;
  match?: string;
}

// [[fault:malformed]]  [[fault:http500]]  [[fault:slow:MS]]  [[fault:once:malformed:KEY]]  [[fault:once:http500:KEY]]
const MARKER = /\[\[fault:(malformed|http500|slow:(\d{1,7})|once:(malformed|http500):([^\]\n]+))\]\]/gi;

/**
 * Decides which fault, if any, a chat request gets. Precedence: markers in the messages
 * (first one in text order that applies), then control-route faults (oldest first), then
 * the run fault. Only the chosen fault is consumed.
 */
export class FaultInjector {
  private readonly onceKeysSeen = new Set<string>();
  private queue: QueuedFault[] = [];
  private runRequests = 0;

  constructor(private readonly runFault?: RunFault) {
    if (runFault?.rate !== undefined && !(runFault.rate > 0 && runFault.rate <= 1)) {
      throw new Error(`fault rate must be in (0, 1], got ${runFault.rate}`);
    }
  }

  choose(messagesText: string): Fault | undefined {
    return this.fromMarkers(messagesText) ?? this.fromControl(messagesText) ?? this.fromRun();
  }

  addControlFault(input: unknown): ControlFault {
    const parsed = ControlFaultSchema.safeParse(input);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new HttpError(400, `${issue?.path.join('.') || 'body'}: ${issue?.message}`, 'invalid_request_error', 'invalid_fault');
    }
    const f = parsed.data;
    this.queue.push({ mode: f.mode, remaining: f.count, delayMs: f.delayMs ?? DEFAULT_SLOW_MS, match: f.match });
    return f;
  }

  /** Drops pending control faults and forgets consumed once-keys. */
  clear(): { cleared: number } {
    const cleared = this.queue.length;
    this.queue = [];
    this.onceKeysSeen.clear();
    return { cleared };
  }

  pending(): ReadonlyArray<Readonly<QueuedFault>> {
    return this.queue.map((q) => ({ ...q }));
  }

  private fromMarkers(text: string): Fault | undefined {
    let chosen: Fault | undefined;
    for (const m of text.matchAll(MARKER)) {
      const [, whole, slowMs, onceMode, onceKey] = m;
      if (onceMode) {
        // Every once-key in the request is consumed, so "first request carrying KEY" holds
        // even when an earlier marker in the same request took precedence.
        const key = onceKey.trim();
        if (this.onceKeysSeen.has(key)) continue;
        this.onceKeysSeen.add(key);
        chosen ??= { mode: onceMode.toLowerCase() as FaultMode, delayMs: 0, source: 'marker' };
      } else if (slowMs !== undefined) {
        chosen ??= { mode: 'slow', delayMs: Math.min(Number(slowMs), MAX_DELAY_MS), source: 'marker' };
      } else {
        chosen ??= { mode: whole.toLowerCase() as FaultMode, delayMs: 0, source: 'marker' };
      }
    }
    return chosen;
  }

  private fromControl(text: string): Fault | undefined {
    const entry = this.queue.find((q) => q.remaining > 0 && (q.match === undefined || text.includes(q.match)));
    if (!entry) return undefined;
    entry.remaining -= 1;
    this.queue = this.queue.filter((q) => q.remaining > 0);
    return { mode: entry.mode, delayMs: entry.delayMs, source: 'control' };
  }

  /** Request n is faulty when floor(n·rate) steps up: deterministic, evenly spread. */
  private fromRun(): Fault | undefined {
    if (!this.runFault) return undefined;
    const rate = this.runFault.rate ?? 1;
    const n = ++this.runRequests;
    if (Math.floor(n * rate + 1e-9) <= Math.floor((n - 1) * rate + 1e-9)) return undefined;
    return { mode: this.runFault.mode, delayMs: this.runFault.delayMs ?? DEFAULT_SLOW_MS, source: 'run' };
  }
}

/** A prefix of a JSON object that can never parse: the object is never closed. */
export function malformed(content: string): string {
  const text = content.startsWith('{') ? content : JSON.stringify({ answer: content });
  return text.slice(0, Math.max(1, Math.floor(text.length / 2)));
}
