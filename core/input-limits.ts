/**
 * What one session segment may hold (docs/platform-contract.md "Input bounds"): the stored
 * events' JSON bytes, the number of events, every string a message carries (content, a
 * content part's text, names, tool-call ids and arguments) and the tool calls of one message.
 * Beyond them a segment is refused at the client and fails its own job at once in the worker.
 * Zod-free: workflow input checks read it too.
 */
export const INPUT_LIMITS = { maxPayloadBytes: 16 * 1024 * 1024, maxEvents: 10_000, maxStringChars: 1_000_000, maxToolCalls: 128 } as const;
