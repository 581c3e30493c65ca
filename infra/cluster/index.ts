// The local Temporal + S3 cluster (`evolution infra up --cluster`): every server a separate process.
export { clusterUp, clusterDown, clusterStatus, clusterEnv, clusterProcessNames, killClusterProcess, restartClusterProcess, type ClusterProcessStatus } from './manager';
export { ensureTemporalServer, temporalServerBuilt, TEMPORAL_SERVER_BUILD } from './temporal-build';
export { readClusterState, type ClusterState } from './state';
