import { describe, expect, it } from 'vitest';
import { lowPorts } from '../../infra/cluster/manager';
import { seaweedProcessSpecs } from '../../infra/cluster/seaweed-cluster';
import { HISTORY_SHARDS, TEMPORAL_SERVICES, temporalServiceConfig, type TemporalPorts } from '../../infra/cluster/temporal-cluster';
import { portsFree } from '../../infra/process';
import { localS3AuthCurrent } from '../../infra/s3-auth';
import { localS3Settings } from '../../infra/services';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ports: TemporalPorts = {
  frontend: { grpc: 40001, membership: 21001, metrics: 40011, http: 40021 },
  history: { grpc: 40002, membership: 21002, metrics: 40012 },
  matching: { grpc: 40003, membership: 21003, metrics: 40013 },
  worker: { grpc: 40004, membership: 21004, metrics: 40014 },
};

describe('local cluster: generated configuration', () => {
  it("each Temporal service's config names every service's ports (membership), its own metrics port, PostgreSQL and the shards", () => {
    const configs = TEMPORAL_SERVICES.map((service) => temporalServiceConfig({ service, ports, postgresPort: 35432, dynamicConfigFile: '/x/dc.yaml' }) as any);
    for (const [i, c] of configs.entries()) {
      expect(Object.keys(c.services)).toEqual([...TEMPORAL_SERVICES]);
      expect(c.services.history.rpc).toEqual({ grpcPort: 40002, membershipPort: 21002, bindOnLocalHost: true });
      expect(c.services.frontend.rpc.httpPort).toBe(40021);
      expect(c.global.metrics.prometheus.listenAddress).toBe(`127.0.0.1:${ports[TEMPORAL_SERVICES[i]!].metrics}`);
      expect(c.persistence.numHistoryShards).toBe(HISTORY_SHARDS);
      expect(c.persistence.datastores['postgres-default'].sql).toMatchObject({ pluginName: 'postgres12', connectAddr: '127.0.0.1:35432', databaseName: 'temporal' });
      expect(c.persistence.datastores['postgres-visibility'].sql).toMatchObject({ databaseName: 'temporal_visibility' });
      expect(c.clusterMetadata.clusterInformation.active.rpcAddress).toBe('127.0.0.1:40001');
    }
  });

  it('membership ports fit the smallint column the SQL stores keep them in, and are free', async () => {
    const picked = await lowPorts(4, []);
    expect(new Set(picked).size).toBe(4);
    for (const p of picked) expect(p).toBeLessThan(32768);
    expect(await portsFree(picked)).toBe(true);
  });

  it('SeaweedFS peers are addressed as host:port.grpcPort, the S3 gateway through the filer, volumes through the master', () => {
    const p = (http: number) => ({ http, grpc: http + 1 });
    const specs = seaweedProcessSpecs({
      weed: '/bin/weed',
      dir: mkdtempSync(join(tmpdir(), 'weed-specs-')),
      logDir: '/tmp/logs',
      ports: { 'weed-master': p(9000), 'weed-volume-1': p(9010), 'weed-volume-2': p(9020), 'weed-filer': p(9030), 'weed-s3': p(9040) },
    });
    expect(specs.map((s) => s.name)).toEqual(['weed-master', 'weed-volume-1', 'weed-volume-2', 'weed-filer', 'weed-s3']);
    expect(specs.find((s) => s.name === 'weed-master')!.args).toContain('-defaultReplication=001');
    for (const v of ['weed-volume-1', 'weed-volume-2']) expect(specs.find((s) => s.name === v)!.args).toContain('-mserver=127.0.0.1:9000.9001');
    expect(specs.find((s) => s.name === 'weed-filer')!.args).toContain('-master=127.0.0.1:9000.9001');
    expect(specs.find((s) => s.name === 'weed-s3')!.args).toContain('-filer=127.0.0.1:9030.9031');
  });

  it("the S3 gateway gets the dev stack's identities and STS, so it comes up and every credential source works on it", () => {
    const dir = mkdtempSync(join(tmpdir(), 'weed-specs-'));
    const p = (http: number) => ({ http, grpc: http + 1 });
    const specs = seaweedProcessSpecs({
      weed: '/bin/weed',
      dir,
      logDir: '/tmp/logs',
      ports: { 'weed-master': p(9000), 'weed-volume-1': p(9010), 'weed-volume-2': p(9020), 'weed-filer': p(9030), 'weed-s3': p(9040) },
    });
    const args = specs.find((s) => s.name === 'weed-s3')!.args;
    expect(args).toContain(`-config=${join(dir, 'identities.json')}`);
    expect(args).toContain(`-iam.config=${join(dir, 'iam.json')}`);
    expect(localS3AuthCurrent(dir, localS3Settings())).toBe(true);
  });
});
