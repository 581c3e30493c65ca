/** Mean of every objective over the evaluations that report it, names sorted (pure). */
export function objectiveMeans(evaluations: readonly { objectives?: Record<string, number> }[]): Record<string, number> {
  const sums = new Map<string, { total: number; n: number }>();
  for (const e of evaluations) {
    for (const [name, value] of Object.entries(e.objectives ?? {})) {
      const s = sums.get(name) ?? { total: 0, n: 0 };
      sums.set(name, { total: s.total + value, n: s.n + 1 });
    }
  }
  return Object.fromEntries([...sums].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, s]) => [name, s.total / s.n]));
}
