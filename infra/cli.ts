import { infraDown, infraEnv, infraStatus, infraUp, readState, type ServiceName } from './index';
import { clusterCommand } from './cluster/cli';
import { clusterDown } from './cluster';
import { runToExit } from '../runtime/exit';

const USAGE = 'usage: evolution infra up|down|status|env [--json] [--only s3,temporal,model] [--cluster]';

/** `evolution infra …`: returns the process exit code. */
export async function infraCommand(argv: string[]): Promise<number> {
  const [action, ...rest] = argv;
  const json = rest.includes('--json');
  // --cluster: the local cluster (infra/cluster) instead of the dev stack; `down` stops both.
  if (rest.includes('--cluster') && action !== 'down') return clusterCommand(action, json);
  const onlyIdx = rest.indexOf('--only');
  const only = onlyIdx >= 0 ? ((rest[onlyIdx + 1] ?? '').split(',').filter(Boolean) as ServiceName[]) : undefined;
  const bad = only?.find((s) => !['s3', 'temporal', 'model'].includes(s));
  if (bad) {
    console.error(`unknown service "${bad}" (known: s3, temporal, model)`);
    return 2;
  }
  const log = (line: string) => console.error(`[infra] ${line}`);
  switch (action) {
    case 'up': {
      const state = await infraUp({ only, log });
      const env = infraEnv(state);
      if (json) console.log(JSON.stringify({ env, services: state.services }, null, 2));
      else for (const [k, v] of Object.entries(env)) console.log(`${k}=${v}`);
      return 0;
    }
    case 'down':
      if (!only) await clusterDown();
      await infraDown({ only });
      if (!json) console.log('local services stopped');
      else console.log(JSON.stringify({ stopped: only ?? ['s3', 'temporal', 'model'] }));
      return 0;
    case 'status': {
      const status = await infraStatus();
      if (json) console.log(JSON.stringify(status, null, 2));
      else {
        for (const s of status.services)
          console.log(
            `${s.name.padEnd(9)} ${s.healthy ? 'healthy' : s.running ? 'running (unhealthy)' : 'stopped'}${s.endpoint ? `  ${s.endpoint}` : ''}${s.pid ? `  pid ${s.pid}` : ''}`,
          );
        for (const [n, b] of Object.entries(status.binaries)) console.log(`${n.padEnd(21)} ${b.installed ? 'installed' : 'absent'}  ${b.version}  ${b.path}`);
      }
      return status.services.every((s) => s.healthy) ? 0 : 1;
    }
    case 'env': {
      const env = infraEnv(readState());
      if (json) console.log(JSON.stringify(env, null, 2));
      else for (const [k, v] of Object.entries(env)) console.log(`export ${k}=${v}`);
      return 0;
    }
    default:
      console.error(USAGE);
      return 2;
  }
}

if (require.main === module)
  runToExit(
    () => infraCommand(process.argv.slice(2)),
    (e) => `infra: ${(e as Error).message}`,
  );
