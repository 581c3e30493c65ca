import type { ExperimentProgress } from '../core/gepa/experiment-types';
import type { LearningJobProgress } from '../core/workflow-api/session';

/**
 * Progress of a long wait on stderr (stdout keeps the answer): on a terminal one line
 * rewritten in place, a spinner and a bar; otherwise a plain line each time the state
 * changes. Nothing at all for --json output that is not on a terminal.
 */
export interface Progress {
  /** The current state; `fraction` (0..1) draws a bar. */
  update(text: string, fraction?: number): void;
  /** Clears the live line (a terminal) before the answer is printed. */
  end(): void;
}

export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const BAR_WIDTH = 24;

/** `[#########...............]` for a fraction in 0..1. */
export function bar(fraction: number, width = BAR_WIDTH): string {
  const filled = Math.round(Math.min(1, Math.max(0, fraction)) * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
}

export function createProgress(stream: ProgressStream, opts: { quiet?: boolean; intervalMs?: number } = {}): Progress {
  if (opts.quiet && !stream.isTTY) return { update: () => {}, end: () => {} };
  if (!stream.isTTY) {
    let last: string | undefined;
    return {
      update: (text) => {
        if (text !== last) stream.write(`${text}\n`);
        last = text;
      },
      end: () => {},
    };
  }
  let frame = 0;
  let state: { text: string; fraction?: number } | undefined;
  const draw = () => {
    if (!state) return;
    const line = `${SPINNER[frame++ % SPINNER.length]} ${state.fraction === undefined ? '' : `${bar(state.fraction)} `}${state.text}`;
    const width = (stream.columns ?? 80) - 1;
    stream.write(`\r\x1b[K${line.length > width ? `${line.slice(0, width - 1)}…` : line}`);
  };
  const timer = setInterval(draw, opts.intervalMs ?? 120);
  timer.unref();
  return {
    update: (text, fraction) => {
      state = { text, fraction };
      draw();
    },
    end: () => {
      clearInterval(timer);
      if (state) stream.write('\r\x1b[K');
      state = undefined;
    },
  };
}

const score = (n: number | undefined) => (n === undefined ? '—' : n.toFixed(3));

/** One line of an experiment's progress, and how far along its budget is (the larger of iterations and metric calls). */
export function experimentProgressLine(p: ExperimentProgress): { text: string; fraction: number } {
  const parts = [
    `${p.phase}`,
    `iteration ${p.iteration}/${p.maxIterations}`,
    `metric calls ${p.metricCallsUsed}/${p.maxMetricCalls}`,
    ...(p.spend ? [`tokens ${p.spend.tokens}${p.maxTokens !== undefined ? `/${p.maxTokens}` : ''}`] : []),
    ...(p.spend && (p.spend.costUsd > 0 || p.maxCostUsd !== undefined) ? [`cost $${p.spend.costUsd.toFixed(4)}${p.maxCostUsd !== undefined ? `/$${p.maxCostUsd}` : ''}`] : []),
    `best ${score(p.bestValidationMean)} (seed ${score(p.seedValidationMean)})`,
    ...(p.cacheHits ? [`cache hits ${p.cacheHits}`] : []),
  ];
  const fractions = [p.maxIterations > 0 ? p.iteration / p.maxIterations : 0, p.maxMetricCalls > 0 ? p.metricCallsUsed / p.maxMetricCalls : 0];
  if (p.spend && p.maxTokens) fractions.push(p.spend.tokens / p.maxTokens);
  if (p.spend && p.maxCostUsd) fractions.push(p.spend.costUsd / p.maxCostUsd);
  return { text: `experiment ${p.experimentId}: ${parts.join(', ')}`, fraction: p.phase === 'done' ? 1 : Math.min(1, Math.max(...fractions)) };
}

const STEP_TEXT: Record<LearningJobProgress['step'], string> = {
  preparing: 'reading the session delta',
  reviewing: 'the reviewer model reads the session',
  planning: 'reconciling and gating the proposed changes',
  publishing: 'recording and publishing revisions',
  finishing: 'recording the outcome',
};

/** One line of a learning job's progress (its query's answer; none yet while no worker has run its first task). */
export function learningJobProgressLine(jobId: string, p: LearningJobProgress | undefined): string {
  if (!p) return `job ${jobId}: waiting for a worker`;
  const count = p.step === 'publishing' && p.revisions ? ` (${p.revisionsDone ?? 0}/${p.revisions})` : '';
  return `job ${jobId}: ${p.step} — ${STEP_TEXT[p.step]}${count}`;
}

/** Awaits `waiting`, calling `poll` every `intervalMs` meanwhile (its failures are ignored: progress is best effort). */
export async function whilePolling<T>(waiting: Promise<T>, poll: () => Promise<void>, intervalMs = 1000): Promise<T> {
  let settled = false;
  const done = waiting.finally(() => (settled = true));
  const quietly = done.then(
    () => undefined,
    () => undefined,
  );
  const loop = (async () => {
    while (!settled) {
      await poll().catch(() => undefined);
      if (settled) break;
      await Promise.race([new Promise((r) => setTimeout(r, intervalMs).unref()), quietly]);
    }
  })();
  try {
    return await done;
  } finally {
    await loop;
  }
}
