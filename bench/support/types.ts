/** Figures a benchmark reports: plain JSON, written by `--json FILE`. */
export type BenchFigures = Record<string, unknown>;

export interface BenchContext {
  /** Prints one line of the human-readable report. */
  log(line: string): void;
}
