import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { temporal } from '@temporalio/proto';

type History = temporal.api.history.v1.IHistory;
const { History } = temporal.api.history.v1;

export interface RecordedHistory {
  /** The scenario (file name without .json). */
  name: string;
  /** Workflows derive ids from their own id, so replay needs the original one. */
  workflowId: string;
  history: temporal.api.history.v1.History;
}

/** A history as reviewable JSON (enums by name, bytes in base64, 64-bit numbers as strings) with its workflow id. */
export function writeHistoryFile(path: string, workflowId: string, history: History): void {
  const json = History.toObject(History.fromObject(history), { longs: String, enums: String, bytes: String, defaults: false });
  writeFileSync(path, `${JSON.stringify({ workflowId, history: json }, null, 1)}\n`);
}

/** Every recorded history in a directory, by file name. */
export function readHistories(dir: string): RecordedHistory[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const { workflowId, history } = JSON.parse(readFileSync(join(dir, f), 'utf8')) as { workflowId: string; history: Record<string, unknown> };
      return { name: f.slice(0, -'.json'.length), workflowId, history: History.fromObject(history) };
    });
}
