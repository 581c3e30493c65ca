import { describe, expect, it } from 'vitest';
import { completeLinesEnd, gcPerJob, isolateNames, parseGcTrace } from '../../bench/support/gc-trace';

// Lines as node 20's --trace-gc prints them (from a bench worker), with other output between.
const TRACE = [
  '[20046:0x3e0f2cc0]       58 ms: Scavenge 4.1 (4.2) -> 3.4 (5.2) MB, 4.16 / 0.00 ms  (average mu = 1.000, current mu = 1.000) allocation failure; ',
  '[worker] polling task queue "bench-pipe-f3cf23df" on 127.0.0.1:37873 (namespace default)',
  '[20046:0x7f13f8000f00]     1100 ms: Scavenge 9.0 (12.0) -> 6.5 (12.5) MB, 1.50 / 0.00 ms  (average mu = 1.000, current mu = 1.000) task; ',
  '[20046:0x3e0f2cc0]     1291 ms: Mark-Compact 49.6 (80.5) -> 38.9 (78.0) MB, 14.67 / 0.02 ms  (+ 39.1 ms in 55 steps since start of marking, biggest step 14.8 ms, walltime since start of marking 72 ms) (average mu = 0.938, current mu = 0.938) finalize incremental marking via task; GC in old space requested',
  '{"level":"INFO","message":"Worker state changed"}',
  '[20046:0x7f13f8000f00]     2000 ms: Mark-Compact (reduce) 20.0 (30.0) -> 12.0 (24.0) MB, 3.00 / 0.00 ms  (average mu = 0.990, current mu = 0.990) external memory pressure; GC in old space requested',
  '',
].join('\n');

describe('--trace-gc lines', () => {
  it('reads each collection: isolate, kind, time on its thread (incremental marking steps included), MB freed', () => {
    const events = parseGcTrace(TRACE);
    expect(events).toHaveLength(4);
    expect(events[0]).toEqual({ isolate: '0x3e0f2cc0', kind: 'scavenge', threadMs: 4.16, freedMb: expect.closeTo(0.7, 6) });
    expect(events[2]).toEqual({ isolate: '0x3e0f2cc0', kind: 'mark-compact', threadMs: expect.closeTo(53.77, 6), freedMb: expect.closeTo(10.7, 6) });
    expect(events[3]).toEqual({ isolate: '0x7f13f8000f00', kind: 'mark-compact', threadMs: 3, freedMb: 8 });
  });

  it('names the first isolate to collect the main thread, the next the workflow thread, and divides by the jobs', () => {
    const events = parseGcTrace(TRACE);
    const names = isolateNames(events);
    expect([...names]).toEqual([
      ['0x3e0f2cc0', 'main'],
      ['0x7f13f8000f00', 'workflow thread'],
    ]);
    const perJob = gcPerJob(events, 2, names);
    expect(perJob.get('main')!.scavenge).toEqual({ count: 0.5, threadMs: 2.08, freedMb: expect.closeTo(0.35, 6) });
    expect(perJob.get('main')!['mark-compact'].threadMs).toBeCloseTo(26.885, 6);
    expect(perJob.get('workflow thread')!['mark-compact']).toEqual({ count: 0.5, threadMs: 1.5, freedMb: 4 });
  });

  it('keeps the address of a third isolate, and counts a batch from whole lines only', () => {
    const third = `${TRACE}[20046:0x7f0000000000]     3000 ms: Scavenge 2.0 (3.0) -> 1.0 (3.0) MB, 0.50 / 0.00 ms  task; \n`;
    expect([...gcPerJob(parseGcTrace(third), 1, isolateNames(parseGcTrace(third))).keys()]).toEqual(['main', 'workflow thread', '0x7f0000000000']);
    const cut = TRACE.slice(0, TRACE.indexOf('Mark-Compact 49.6') + 5);
    expect(parseGcTrace(cut.slice(0, completeLinesEnd(cut)))).toHaveLength(2);
  });
});
