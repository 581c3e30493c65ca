// Local infrastructure for development, tests and the demo (not used in production).
export { infraUp, infraDown, infraStatus, type ServiceStatus } from './manager';
export { infraEnv } from './env';
export { ensureBinary, binaryPath, PINNED_BINARIES } from './binaries';
export { readState, type InfraState, type ServiceName } from './state';
