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

/**
 * An error as a log field: its message and failure type (an ApplicationFailure's type, else
 * the error's name) and, one level down, its cause — JSON.stringify turns an Error into {}.
 */
function errorFields(error: Error, depth = 0): Record<string, unknown> {
  const failureType = (error as Error & { type?: unknown }).type;
  const type = typeof failureType === 'string' ? failureType : error.name;
  const cause = error.cause instanceof Error && depth < 3 ? { cause: errorFields(error.cause, depth + 1) } : {};
  return { message: error.message, type, ...cause };
}

function jsonValue(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Error) return errorFields(value);
  return value;
}

/** The failure an entry reports (the SDK's "Activity failed" lines carry it as `error`), lifted to top-level fields. */
function failureOf(meta: Record<string, unknown> | undefined): Record<string, string> {
  const error = meta?.error ?? meta?.failure;
  if (!(error instanceof Error)) return {};
  const { message, type } = errorFields(error) as { message: string; type: string };
  return { errorMessage: message, failureType: type };
}

/** One JSON object per line (for log shippers): time, level, message, ids, the failure's message and type, then the SDK's metadata. */
export function jsonLine(entry: LogEntry): string {
  const time = new Date(Number(entry.timestampNanos / 1_000_000n)).toISOString();
  return JSON.stringify({ time, level: entry.level, message: entry.message, ...idsOf(entry.meta), ...failureOf(entry.meta), ...entry.meta }, jsonValue);
}

export function prettyLine(entry: LogEntry): string {
  const time = new Date(Number(entry.timestampNanos / 1_000_000n)).toISOString().slice(11, 23);
  const meta = { ...idsOf(entry.meta), ...entry.meta };
  const keys = ['jobId', 'revisionId', 'experimentId', 'workflowType', 'activityType', 'taskQueue'];
  const fields = keys.filter((k) => meta[k] !== undefined).map((k) => `${k}=${String(meta[k])}`);
  const failure = failureOf(entry.meta);
  if (failure.errorMessage) fields.push(`error=${failure.failureType}: ${failure.errorMessage}`);
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
