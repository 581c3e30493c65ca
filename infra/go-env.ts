import { join } from 'node:path';
import { cacheDir } from './paths';

/**
 * The one Go environment of every build the infra makes from a Go module (the Kubernetes
 * tools, the cluster's Temporal server): module and build caches under the binaries cache,
 * shared by those builds, no cgo (static binaries), no VCS stamping, no workspace.
 * `toolchain` pins the Go toolchain (the go command fetches it from the module proxy);
 * `gobin` is where `go install` puts binaries; `extraFlags` go before the common GOFLAGS.
 */
export function goEnv(opts: { toolchain?: string; gobin?: string; extraFlags?: string[] } = {}): NodeJS.ProcessEnv {
  const go = join(cacheDir(), 'go');
  return {
    ...process.env,
    ...(opts.toolchain ? { GOTOOLCHAIN: opts.toolchain } : {}),
    ...(opts.gobin ? { GOBIN: opts.gobin } : {}),
    GOMODCACHE: join(go, 'mod'),
    GOCACHE: join(go, 'build'),
    GOPATH: join(go, 'path'),
    CGO_ENABLED: '0',
    GOFLAGS: [...(opts.extraFlags ?? []), '-buildvcs=false'].join(' '),
    GOWORK: 'off',
  };
}
