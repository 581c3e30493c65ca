/**
 * What node's `--trace-gc` lines say about a stretch of a worker's output: per V8 isolate
 * (the main thread, the workflow thread), how often each kind of collection ran, how long
 * it held that thread (the pause plus, for a mark-compact, its incremental marking steps;
 * the GC helper threads' parallel work is not in these lines) and how many MB it freed.
 */

export type GcKind = 'scavenge' | 'mark-compact';

export interface GcEvent {
  isolate: string;
  kind: GcKind;
  /** Time the collection took on the isolate's own thread, ms. */
  threadMs: number;
  freedMb: number;
}

// [pid:0xISOLATE]   1291 ms: Mark-Compact 49.6 (80.5) -> 38.9 (78.0) MB, 14.67 / 0.02 ms  (+ 39.1 ms in 55 steps since start of marking, …
const GC_LINE =
  /^\[\d+:(0x[0-9a-f]+)\]\s+\d+ ms: (Scavenge|Mark-Compact)(?: \([a-z ]+\))? ([\d.]+) \([\d.]+\) -> ([\d.]+) \([\d.]+\) MB, ([\d.]+) \/ [\d.]+ ms(?:\s+\(\+ ([\d.]+) ms in)?/;

export function parseGcTrace(text: string): GcEvent[] {
  const events: GcEvent[] = [];
  for (const line of text.split('\n')) {
    const m = GC_LINE.exec(line);
    if (!m) continue;
    events.push({
      isolate: m[1]!,
      kind: m[2] === 'Scavenge' ? 'scavenge' : 'mark-compact',
      threadMs: Number(m[5]) + Number(m[6] ?? 0),
      freedMb: Number(m[3]) - Number(m[4]),
    });
  }
  return events;
}

export interface GcPerJob {
  count: number;
  threadMs: number;
  freedMb: number;
}

export type IsolateGc = Record<GcKind, GcPerJob>;

/** Each isolate's collections divided by `jobs`, keyed by `names` (isolate address → name; others by address). */
export function gcPerJob(events: readonly GcEvent[], jobs: number, names: ReadonlyMap<string, string>): Map<string, IsolateGc> {
  const out = new Map<string, IsolateGc>();
  for (const e of events) {
    const name = names.get(e.isolate) ?? e.isolate;
    let isolate = out.get(name);
    if (!isolate) out.set(name, (isolate = { scavenge: { count: 0, threadMs: 0, freedMb: 0 }, 'mark-compact': { count: 0, threadMs: 0, freedMb: 0 } }));
    const k = isolate[e.kind];
    k.count += 1 / jobs;
    k.threadMs += e.threadMs / jobs;
    k.freedMb += e.freedMb / jobs;
  }
  return out;
}

/**
 * Names a worker's isolates from its whole trace: the first to collect is the main thread's
 * (it loads the worker's modules before any worker thread exists), the next the workflow
 * thread's; a third or later keeps its address.
 */
export function isolateNames(events: readonly GcEvent[]): Map<string, string> {
  const names = new Map<string, string>();
  const labels = ['main', 'workflow thread'];
  for (const e of events) if (!names.has(e.isolate) && names.size < labels.length) names.set(e.isolate, labels[names.size]!);
  return names;
}

/** Complete lines only: the offset just past the last newline of `text`. */
export function completeLinesEnd(text: string): number {
  return text.lastIndexOf('\n') + 1;
}
