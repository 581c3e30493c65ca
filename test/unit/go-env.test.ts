import { describe, expect, it } from 'vitest';
import { goEnv } from '../../infra/go-env';

describe('the Go build environment (infra/go-env)', () => {
  it('shares the module and build caches between the tool builds and the server build; only the toolchain, GOBIN and extra flags differ', () => {
    const tools = goEnv({ gobin: '/tmp/bin' });
    const server = goEnv({ toolchain: 'go1.27.3', extraFlags: ['-mod=readonly'] });
    for (const name of ['GOMODCACHE', 'GOCACHE', 'GOPATH', 'CGO_ENABLED', 'GOWORK'] as const) expect(server[name]).toBe(tools[name]);
    expect(tools).toMatchObject({ GOBIN: '/tmp/bin', GOFLAGS: '-buildvcs=false', CGO_ENABLED: '0', GOWORK: 'off' });
    expect(tools.GOTOOLCHAIN).toBe(process.env.GOTOOLCHAIN);
    expect(server).toMatchObject({ GOTOOLCHAIN: 'go1.27.3', GOFLAGS: '-mod=readonly -buildvcs=false' });
  });
});
