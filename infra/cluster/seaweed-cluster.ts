import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeLocalS3Auth } from '../s3-auth';
import { localS3Settings } from '../services';
import type { ClusterProcessSpec } from './state';

/** Volume servers: with every object replicated to a second one (`001`), reads keep working while one is down. */
export const VOLUME_SERVERS = 2;
export const REPLICATION = '001';

export const SEAWEED_PORT_NAMES = {
  master: ['http', 'grpc'],
  volume: ['http', 'grpc'],
  filer: ['http', 'grpc'],
  s3: ['http', 'grpc'],
} as const;

export function volumeName(i: number): string {
  return `weed-volume-${i + 1}`;
}

/**
 * SeaweedFS as separate processes: one master, VOLUME_SERVERS volume servers, a filer and
 * the S3 gateway in front of it, in the order they must start. A peer's address is
 * `host:port.grpcPort`, SeaweedFS's notation when the gRPC port is not port + 10000.
 */
export function seaweedProcessSpecs(opts: { weed: string; dir: string; logDir: string; ports: Record<string, Record<string, number>> }): ClusterProcessSpec[] {
  const p = opts.ports;
  const addr = (name: string) => `127.0.0.1:${p[name]!.http}.${p[name]!.grpc}`;
  const spec = (name: string, args: string[]): ClusterProcessSpec => {
    const dir = join(opts.dir, name);
    mkdirSync(dir, { recursive: true });
    return { name, command: opts.weed, args, cwd: dir, logFile: join(opts.logDir, `${name}.log`), ports: { ...p[name]! } };
  };
  mkdirSync(opts.dir, { recursive: true });
  // The same identities and STS as the dev stack's single-node S3, so every credential source works here too.
  const { identities, iam } = writeLocalS3Auth(opts.dir, localS3Settings());
  const local = ['-ip=127.0.0.1', '-ip.bind=127.0.0.1'];
  return [
    spec('weed-master', [
      'master',
      ...local,
      `-port=${p['weed-master']!.http}`,
      `-port.grpc=${p['weed-master']!.grpc}`,
      `-mdir=${join(opts.dir, 'weed-master')}`,
      `-defaultReplication=${REPLICATION}`,
      '-volumeSizeLimitMB=256',
      '-peers=none',
    ]),
    ...Array.from({ length: VOLUME_SERVERS }, (_, i) =>
      spec(volumeName(i), [
        'volume',
        ...local,
        `-port=${p[volumeName(i)]!.http}`,
        `-port.grpc=${p[volumeName(i)]!.grpc}`,
        `-dir=${join(opts.dir, volumeName(i))}`,
        '-max=64',
        `-mserver=${addr('weed-master')}`,
      ]),
    ),
    spec('weed-filer', [
      'filer',
      ...local,
      `-port=${p['weed-filer']!.http}`,
      `-port.grpc=${p['weed-filer']!.grpc}`,
      `-master=${addr('weed-master')}`,
      `-defaultStoreDir=${join(opts.dir, 'weed-filer')}`,
    ]),
    spec('weed-s3', [
      's3',
      '-ip.bind=127.0.0.1',
      `-port=${p['weed-s3']!.http}`,
      `-port.grpc=${p['weed-s3']!.grpc}`,
      '-port.iceberg=0',
      '-port.lance=0',
      `-filer=${addr('weed-filer')}`,
      `-config=${identities}`,
      `-iam.config=${iam}`,
    ]),
  ];
}

/** Each SeaweedFS server answers on its HTTP port once it is up (the S3 gateway is checked by writing an object). */
export async function seaweedServerAnswers(httpPort: number, path: string): Promise<boolean> {
  const res = await fetch(`http://127.0.0.1:${httpPort}${path}`, { signal: AbortSignal.timeout(3000) });
  await res.arrayBuffer();
  return res.status < 500;
}
