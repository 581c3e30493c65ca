/**
 * What one oversized message costs the worker's event loop (issue 31 item 5): the longest
 * synchronous stretch of building the reviewer's transcript from a segment holding one tool
 * result of BENCH_MESSAGE_MB megabytes (default 8; the schema's bound is 1,000,000
 * characters, so this is what a platform storing its own events could hand the worker before
 * the bounds), against the baseline of redacting the whole text first and bounding after
 * (what the worker did before). Interleaved rounds; ratios per round.
 *
 * Env: BENCH_MESSAGE_MB (default 8), BENCH_ROUNDS (default 3).
 */
import { performance } from 'node:perf_hooks';
import { boundText, buildTranscript, redactSecrets, type SessionEvent } from '../core';
import { median, spread } from './support/stats';
import type { BenchContext, BenchFigures } from './support/types';

export async function run(ctx: BenchContext): Promise<BenchFigures> {
  const MB = Number(process.env.BENCH_MESSAGE_MB ?? 8);
  const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
  const row = 'order 42,shipped,token=abc123 password=hunter2,2026-11-29\n';
  const content = row.repeat(Math.ceil((MB * 1024 * 1024) / row.length));
  const events: SessionEvent[] = [
    { role: 'user', content: 'Export the orders.' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'export', arguments: '{}' } }] },
    { role: 'tool', tool_call_id: 'c1', content },
    { role: 'assistant', content: 'Exported.' },
  ];
  const time = (fn: () => unknown) => {
    const at = performance.now();
    fn();
    return performance.now() - at;
  };
  const bounded: number[] = [];
  const baseline: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    baseline.push(time(() => boundText(redactSecrets(content.trim()), 4000)));
    bounded.push(time(() => buildTranscript(events)));
    ctx.log(`round ${round + 1}/${ROUNDS}: redact-then-bound ${baseline.at(-1)!.toFixed(1)} ms, buildTranscript ${bounded.at(-1)!.toFixed(1)} ms`);
  }
  const ratios = bounded.map((v, i) => v / baseline[i]!);
  ctx.log(
    `${MB} MB tool message, longest synchronous stretch: buildTranscript ${median(bounded).toFixed(1)} ms, redact-then-bound ${median(baseline).toFixed(1)} ms; ratio ${spread(ratios, 4)}`,
  );
  return { messageMb: MB, rounds: ROUNDS, buildTranscriptMs: median(bounded), redactThenBoundMs: median(baseline) };
}
