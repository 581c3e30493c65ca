/**
 * Size bounds measured in UTF-8 bytes (what storage and model context cost),
 * cutting only between code points: a surrogate pair is never split, so the
 * result never contains a half character.
 */

/** UTF-8 byte length without allocating (lone surrogates count as U+FFFD, 3 bytes, as TextEncoder does). */
export function utf8ByteLength(text: string): number {
  // Allocation-free: it also measures the multi-megabyte texts bounds exist for.
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (isHighSurrogate(c) && i + 1 < text.length && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** End index (in UTF-16 units) of the longest prefix that fits in `maxBytes`. */
function prefixEnd(text: string, maxBytes: number): number {
  let bytes = 0;
  let i = 0;
  while (i < text.length) {
    const width = codeUnitWidth(text, i);
    if (bytes + width.bytes > maxBytes) break;
    bytes += width.bytes;
    i += width.units;
  }
  return i;
}

/** Start index (in UTF-16 units) of the longest suffix that fits in `maxBytes`. */
function suffixStart(text: string, maxBytes: number): number {
  let bytes = 0;
  let i = text.length;
  while (i > 0) {
    let units = 1;
    const c = text.charCodeAt(i - 1);
    if (isLowSurrogate(c) && i >= 2 && isHighSurrogate(text.charCodeAt(i - 2))) units = 2;
    const width = codeUnitWidth(text, i - units);
    if (bytes + width.bytes > maxBytes) break;
    bytes += width.bytes;
    i -= units;
  }
  return i;
}

function truncationMarker(omittedBytes: number): string {
  return `\n...[${omittedBytes} bytes truncated]...\n`;
}

export interface BoundOptions {
  /** Share of the kept budget that goes to the head; the rest keeps the tail. Default 0.75. */
  headRatio?: number;
}

/**
 * Text that fits in `maxBytes` UTF-8 bytes: unchanged when it already fits,
 * otherwise its head and tail with a marker saying how many bytes were cut.
 * The result (marker included) never exceeds `maxBytes`. When `maxBytes` is
 * too small to hold the marker, only the head is kept.
 */
export function boundText(text: string, maxBytes: number, options: BoundOptions = {}): string {
  assertByteLimit(maxBytes);
  const total = utf8ByteLength(text);
  if (total <= maxBytes) return text;
  const headRatio = options.headRatio ?? 0.75;
  if (!(headRatio >= 0 && headRatio <= 1)) throw new RangeError('headRatio must be in [0, 1]');

  // Size the marker for the largest possible count so the final one can only be shorter.
  const markerBudget = utf8ByteLength(truncationMarker(total));
  if (maxBytes < markerBudget + 2) return text.slice(0, prefixEnd(text, maxBytes));

  const budget = maxBytes - markerBudget;
  const headBudget = Math.floor(budget * headRatio);
  const head = text.slice(0, prefixEnd(text, headBudget));
  const tail = text.slice(suffixStart(text, budget - headBudget));
  const omitted = total - utf8ByteLength(head) - utf8ByteLength(tail);
  return head + truncationMarker(omitted) + tail;
}

/**
 * The head of `text` within `maxBytes`, followed by `marker` when cut
 * (the marker counts toward the limit). Used for excerpts whose beginning
 * matters most, such as an existing skill's body.
 */
export function truncateHead(text: string, maxBytes: number, marker = '\n...[truncated]'): string {
  assertByteLimit(maxBytes);
  if (utf8ByteLength(text) <= maxBytes) return text;
  const markerBytes = utf8ByteLength(marker);
  if (maxBytes <= markerBytes) return text.slice(0, prefixEnd(text, maxBytes));
  return text.slice(0, prefixEnd(text, maxBytes - markerBytes)) + marker;
}

function assertByteLimit(maxBytes: number): void {
  if (!Number.isInteger(maxBytes) || maxBytes < 0) throw new RangeError(`maxBytes must be a non-negative integer, got ${maxBytes}`);
}

function codeUnitWidth(text: string, i: number): { units: number; bytes: number } {
  const c = text.charCodeAt(i);
  if (c < 0x80) return { units: 1, bytes: 1 };
  if (c < 0x800) return { units: 1, bytes: 2 };
  if (isHighSurrogate(c) && i + 1 < text.length && isLowSurrogate(text.charCodeAt(i + 1))) return { units: 2, bytes: 4 };
  return { units: 1, bytes: 3 };
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/**
 * How many times its budget a text keeps before a pass whose cost grows with its input
 * (credential redaction); the final cut to the budget comes after that pass.
 */
export const PRE_CUT_FACTOR = 4;
/** Bytes dropped next to a pre-cut edge when they would otherwise be shown: a secret cut there may no longer be recognisable. */
const PRE_CUT_EDGE_BYTES = 256;

/**
 * `transform(text)` bounded to `maxBytes` like boundText, at a cost that grows with the
 * budget instead of the input: a text longer than PRE_CUT_FACTOR × maxBytes is first cut to
 * its head and tail at that size, each transformed on its own, and then cut to the budget.
 * The pre-cut edges fall in the middle that the final cut drops (and bytes next to an edge
 * are never shown), so for a transform whose matches are shorter than the margin the result
 * is boundText(transform(text), maxBytes) up to the marker, which counts original bytes.
 */
export function boundThrough(text: string, maxBytes: number, transform: (part: string) => string, options: BoundOptions = {}): string {
  assertByteLimit(maxBytes);
  const preCutBytes = PRE_CUT_FACTOR * maxBytes;
  if (text.length <= preCutBytes) return boundText(transform(text), maxBytes, options);
  const headRatio = options.headRatio ?? 0.75;
  if (!(headRatio >= 0 && headRatio <= 1)) throw new RangeError('headRatio must be in [0, 1]');

  const rawHeadEnd = prefixEnd(text, Math.floor(preCutBytes * headRatio));
  const rawTailStart = Math.max(rawHeadEnd, suffixStart(text, preCutBytes - Math.floor(preCutBytes * headRatio)));
  const total = utf8ByteLength(text);
  const head = transform(text.slice(0, rawHeadEnd));
  const tail = transform(text.slice(rawTailStart));

  const markerBudget = utf8ByteLength(truncationMarker(total));
  if (maxBytes < markerBudget + 2) return head.slice(0, prefixEnd(head, maxBytes));
  const budget = maxBytes - markerBudget;
  const headBudget = Math.floor(budget * headRatio);
  const headBytes = utf8ByteLength(head);
  const tailBytes = utf8ByteLength(tail);
  const keptHead = head.slice(0, prefixEnd(head, Math.min(headBudget, Math.max(0, headBytes - PRE_CUT_EDGE_BYTES))));
  const keptTail = tail.slice(suffixStart(tail, Math.min(budget - headBudget, Math.max(0, tailBytes - PRE_CUT_EDGE_BYTES))));
  const omitted = Math.max(0, total - utf8ByteLength(keptHead) - utf8ByteLength(keptTail));
  return keptHead + truncationMarker(omitted) + keptTail;
}
