/** Cuts text to at most `max` characters (by code point), marking the cut with an ellipsis. */
export function bound(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  return chars.slice(0, Math.max(0, max - 1)).join('') + '…';
}

/** Removes `[[...]]` control markers (skill hints, faults) so they never leak into skill text. */
export function stripMarkers(text: string): string {
  return text.replace(/\[\[[^\]\n]*\]\]/g, ' ');
}

export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function uniqueInOrder<T>(items: T[], key: (item: T) => string = String): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const item of items) {
    const k = key(item);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(item);
  }
  return out;
}
