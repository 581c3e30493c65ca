import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { SEARCH_ATTRIBUTES } from '../services';
import { POSTGRES_USER } from './postgres';
import { runToEnd } from './spawn';
import type { ClusterProcessSpec } from './state';
import type { TemporalServerBinaries } from './temporal-build';

/** The Temporal services, each its own process (`temporal-server start --service NAME`). */
export const TEMPORAL_SERVICES = ['frontend', 'history', 'matching', 'worker'] as const;
export type TemporalService = (typeof TEMPORAL_SERVICES)[number];

/** History shards: fixed for the life of the database (the schema records it), so changing it needs a new data directory. */
export const HISTORY_SHARDS = 4;
export const CLUSTER_NAMESPACE = 'default';
const DATABASES = { temporal: 'temporal', visibility: 'temporal_visibility' } as const;

/** Every port of the Temporal services; each process's config names them all (membership), and its own metrics port. */
export type TemporalPorts = Record<TemporalService, { grpc: number; membership: number; metrics: number; http?: number }>;

export const TEMPORAL_PORT_NAMES: Record<TemporalService, string[]> = {
  frontend: ['grpc', 'membership', 'metrics', 'http'],
  history: ['grpc', 'membership', 'metrics'],
  matching: ['grpc', 'membership', 'metrics'],
  worker: ['grpc', 'membership', 'metrics'],
};

/** One service's server configuration (the config file format of `temporal-server --config-file`). */
export function temporalServiceConfig(opts: { service: TemporalService; ports: TemporalPorts; postgresPort: number; dynamicConfigFile: string }): Record<string, unknown> {
  const datastore = (databaseName: string, maxConns: number) => ({
    sql: {
      pluginName: 'postgres12',
      databaseName,
      connectAddr: `127.0.0.1:${opts.postgresPort}`,
      connectProtocol: 'tcp',
      user: POSTGRES_USER.user,
      password: POSTGRES_USER.password,
      maxConns,
      maxIdleConns: maxConns,
      maxConnLifetime: '1h',
    },
  });
  const rpc = (s: TemporalService) => ({
    rpc: {
      grpcPort: opts.ports[s].grpc,
      membershipPort: opts.ports[s].membership,
      bindOnLocalHost: true,
      ...(opts.ports[s].http ? { httpPort: opts.ports[s].http } : {}),
    },
  });
  return {
    log: { stdout: true, level: 'warn' },
    persistence: {
      defaultStore: 'postgres-default',
      visibilityStore: 'postgres-visibility',
      numHistoryShards: HISTORY_SHARDS,
      datastores: { 'postgres-default': datastore(DATABASES.temporal, 20), 'postgres-visibility': datastore(DATABASES.visibility, 10) },
    },
    global: {
      membership: { maxJoinDuration: '30s', broadcastAddress: '127.0.0.1' },
      metrics: { prometheus: { framework: 'tally', timerType: 'histogram', listenAddress: `127.0.0.1:${opts.ports[opts.service].metrics}` } },
    },
    services: Object.fromEntries(TEMPORAL_SERVICES.map((s) => [s, rpc(s)])),
    clusterMetadata: {
      enableGlobalNamespace: false,
      failoverVersionIncrement: 10,
      masterClusterName: 'active',
      currentClusterName: 'active',
      clusterInformation: { active: { enabled: true, initialFailoverVersion: 1, rpcName: 'frontend', rpcAddress: `127.0.0.1:${opts.ports.frontend.grpc}` } },
    },
    dcRedirectionPolicy: { policy: 'noop' },
    dynamicConfigClient: { filepath: opts.dynamicConfigFile, pollInterval: '10s' },
  };
}

/** Dynamic configuration of the cluster: the server's defaults (the file is there to be edited while it runs). */
const DYNAMIC_CONFIG = {};

/** Writes each service's config file and returns the four process specs. */
export function temporalProcessSpecs(opts: { binaries: TemporalServerBinaries; dir: string; logDir: string; ports: TemporalPorts; postgresPort: number }): ClusterProcessSpec[] {
  mkdirSync(opts.dir, { recursive: true });
  const dynamicConfigFile = join(opts.dir, 'dynamicconfig.yaml');
  writeFileSync(dynamicConfigFile, stringify(DYNAMIC_CONFIG));
  return TEMPORAL_SERVICES.map((service) => {
    const configFile = join(opts.dir, `${service}.yaml`);
    writeFileSync(configFile, stringify(temporalServiceConfig({ service, ports: opts.ports, postgresPort: opts.postgresPort, dynamicConfigFile })));
    return {
      name: `temporal-${service}`,
      command: opts.binaries.server,
      args: ['--config-file', configFile, '--allow-no-auth', 'start', '--service', service],
      cwd: opts.dir,
      logFile: join(opts.logDir, `temporal-${service}.log`),
      ports: { ...opts.ports[service] },
    };
  });
}

/**
 * Creates both databases and brings their schemas to the version this server ships, with
 * the server's own SQL tool; applying it again to a current database changes nothing.
 */
export async function setUpTemporalSchema(opts: { binaries: TemporalServerBinaries; postgresPort: number; log: (line: string) => void }): Promise<void> {
  const common = ['--plugin', 'postgres12', '--ep', '127.0.0.1', '-p', String(opts.postgresPort), '-u', POSTGRES_USER.user, '--pw', POSTGRES_USER.password];
  for (const [folder, db] of [
    ['temporal', DATABASES.temporal],
    ['visibility', DATABASES.visibility],
  ] as const) {
    const tool = (args: string[]) => runToEnd(opts.binaries.sqlTool, [...common, '--db', db, ...args], { timeoutMs: 300_000 });
    const exists = await tool(['create-database']).then(
      () => false,
      (e: Error) => {
        if (/already exists/.test(e.message)) return true;
        throw e;
      },
    );
    // setup-schema -v 0.0 creates the version table; update-schema then applies every versioned step.
    if (!exists) await tool(['setup-schema', '-v', '0.0']);
    await tool(['update-schema', '-d', join(opts.binaries.postgresSchemaDir, folder, 'versioned')]);
    opts.log(`schema of database ${db} is current (${folder}, temporal-sql-tool)`);
  }
}

/** temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD */
const INDEXED_VALUE_TYPE_KEYWORD = 2;

/**
 * The namespace (registered once) and the application's search attributes (through the
 * operator API, as on any self-hosted cluster). Answers whether it changed anything: the
 * services cache both (search attributes for 60 s), so the caller restarts them then.
 */
export async function prepareNamespace(frontend: string, log: (line: string) => void): Promise<boolean> {
  let changed = false;
  const connection = await Connection.connect({ address: frontend });
  try {
    const namespaces = await connection.workflowService.listNamespaces({ pageSize: 100 });
    if (!namespaces.namespaces.some((n) => n.namespaceInfo?.name === CLUSTER_NAMESPACE)) {
      await connection.workflowService.registerNamespace({ namespace: CLUSTER_NAMESPACE, workflowExecutionRetentionPeriod: msToTs('3 days') });
      log(`namespace ${CLUSTER_NAMESPACE} registered`);
      changed = true;
    }
    const existing = await connection.operatorService.listSearchAttributes({ namespace: CLUSTER_NAMESPACE });
    const missing = Object.entries(SEARCH_ATTRIBUTES).filter(([name]) => !(name in existing.customAttributes));
    if (missing.length) {
      await connection.operatorService.addSearchAttributes({
        namespace: CLUSTER_NAMESPACE,
        searchAttributes: Object.fromEntries(
          missing.map(([k, type]) => {
            if (type !== 'Keyword') throw new Error(`cluster: map search attribute type ${type} of ${k}`);
            return [k, INDEXED_VALUE_TYPE_KEYWORD];
          }),
        ),
      });
      log(`search attributes ${missing.map(([k]) => k).join(', ')} added`);
      changed = true;
    }
    return changed;
  } finally {
    await connection.close();
  }
}

/**
 * A Temporal service answers the gRPC health check as SERVING: the frontend for the
 * workflow API (the check the dev server gets), the others for the server as a whole.
 */
export async function temporalServing(service: TemporalService, grpcPort: number): Promise<boolean> {
  const connection = Connection.lazy({ address: `127.0.0.1:${grpcPort}` });
  try {
    const { status } = await connection.healthService.check({ service: service === 'frontend' ? 'temporal.api.workflowservice.v1.WorkflowService' : '' });
    return status === 1; // grpc.health.v1.HealthCheckResponse.ServingStatus.SERVING
  } finally {
    await connection.close();
  }
}
