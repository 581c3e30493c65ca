import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stateDir } from './paths';

export const SERVICE_NAMES = ['s3', 'temporal', 'model'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

export interface ServiceState {
  name: ServiceName;
  pid: number;
  ports: Record<string, number>;
  /** What a client connects to: host:port for Temporal, a URL otherwise. */
  endpoint: string;
  logFile: string;
  dataDir?: string;
  startedAt: string;
  extra?: Record<string, string>;
}

export interface InfraState {
  services: Partial<Record<ServiceName, ServiceState>>;
  /** Ports of services stopped by `infra down`, so the next `up` brings them back where they were. */
  lastPorts?: Partial<Record<ServiceName, Record<string, number>>>;
}

export function stateFile(): string {
  return join(stateDir(), 'infra.json');
}

export function readState(): InfraState {
  const file = stateFile();
  if (!existsSync(file)) return { services: {} };
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as InfraState;
  } catch {
    return { services: {} };
  }
}

export function writeState(state: InfraState): void {
  mkdirSync(stateDir(), { recursive: true });
  const tmp = `${stateFile()}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(state, null, 2));
  renameSync(tmp, stateFile());
}
