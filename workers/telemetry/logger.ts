import { DefaultLogger, type LogEntry, type LogLevel } from '@temporalio/worker';

/** Ids worth a field of their own, read from the workflow id (see core/governance ids). */
function idsOf(meta: Record<string, unknown> | undefined): Record<string, string> {
  const workflowId = typeof meta?.workflowId === 'string' ? meta.workflowId : undefined;
  if (!workflowId) return {};
  const [kind, ...rest] = workflowId.split('/');
  const id = rest.join('/');
  if (kind === 'approval') return { revisionId: id };
  if (kind === 'rollback') return { rollbackWorkflowId: workflowId };
  if (kind === 'learning') return { jobId: workflowId };
  if (kind === 'session') return { sessionWorkflowId: workflowId };
  if (kind === 'experiment' || kind === 'gepa') return { experimentId: id };
  return {};
}

/** One JSON object per line (for log shippers): time, level, message, ids, then the SDK's metadata. */
export function jsonLine(entry: LogEntry): string {
  const time = new Date(Number(entry.timestampNanos / 1_000_000n)).toISOString();
  return JSON.stringify({ time, level: entry.level, message: entry.message, ...idsOf(entry.meta), ...entry.meta }, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}

export function prettyLine(entry: LogEntry): string {
  const time = new Date(Number(entry.timestampNanos / 1_000_000n)).toISOString().slice(11, 23);
  const meta = { ...idsOf(entry.meta), ...entry.meta };
  const keys = ['jobId', 'revisionId', 'experimentId', 'workflowType', 'activityType', 'taskQueue'];
  const fields = keys.filter((k) => meta[k] !== undefined).map((k) => `${k}=${String(meta[k])}`);
  return `${time} ${entry.level.padEnd(5)} ${entry.message}${fields.length ? `  ${fields.join(' ')}` : ''}`;
}

/**
 * The worker's Runtime logger: JSON lines when stderr is not a terminal (or format json),
 * readable lines in a terminal. Workflow and activity loggers route here with their ids.
 */
export function createLogger(opts: { format: 'auto' | 'json' | 'pretty'; level: LogLevel; stream?: NodeJS.WritableStream & { isTTY?: boolean } }): DefaultLogger {
  const stream = opts.stream ?? process.stderr;
  const json = opts.format === 'json' || (opts.format === 'auto' && !stream.isTTY);
  return new DefaultLogger(opts.level, (entry) => stream.write(`${json ? jsonLine(entry) : prettyLine(entry)}\n`));
}
