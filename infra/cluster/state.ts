import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stateDir } from '../paths';
import type { RunAs } from './spawn';

/** How to (re)start one process of the cluster: kept in the state, so a test can restart a killed one as it was. */
export interface ClusterProcessSpec {
  name: string;
  command: string;
  args: string[];
  cwd: string;
  logFile: string;
  runAs?: RunAs;
  env?: Record<string, string>;
  /** Its ports by role (grpc, http, membership, metrics …): the readiness check connects to them. */
  ports: Record<string, number>;
}

export interface ClusterProcessState extends ClusterProcessSpec {
  pid: number;
  startedAt: string;
}

export interface ClusterState {
  processes: Record<string, ClusterProcessState>;
  /** Ports of every process last time, so the next `up` (and a restart) brings them back where clients look. */
  lastPorts?: Record<string, Record<string, number>>;
}

export function clusterDir(): string {
  return join(stateDir(), 'cluster');
}

function stateFile(): string {
  return join(clusterDir(), 'state.json');
}

export function readClusterState(): ClusterState {
  const file = stateFile();
  if (!existsSync(file)) return { processes: {} };
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as ClusterState;
  } catch {
    return { processes: {} };
  }
}

export function writeClusterState(state: ClusterState): void {
  mkdirSync(clusterDir(), { recursive: true });
  const tmp = `${stateFile()}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(state, null, 2));
  renameSync(tmp, stateFile());
}
