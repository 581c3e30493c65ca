import { infraDown, infraEnv, infraStatus, infraUp, readState, type ServiceName } from './index';
import { clusterCommand } from './cluster/cli';
import { clusterDown } from './cluster';
import { SERVICE_NAMES } from './state';
import { parseCommandLine, processIo, type ParsedArgs } from '../runtime/command-line';
import { runToExit } from '../runtime/exit';
import { INFRA_COMMAND } from './command';

/** `evolution infra ACTION [--only …] [--cluster]` as parsed (infra/command.ts): returns the process exit code. */
export async function infraCommand(args: ParsedArgs): Promise<number> {
  const action = args.positionals[0];
  const json = args.flags.has('json');
  // --cluster: the local cluster (infra/cluster) instead of the dev stack; `down` stops both.
  if (args.flags.has('cluster') && action !== 'down') return clusterCommand(action, json);
  const listed = args.flags.get('only');
  const only = typeof listed === 'string' ? (listed.split(',').filter(Boolean) as ServiceName[]) : undefined;
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
      else console.log(JSON.stringify({ stopped: only ?? SERVICE_NAMES }));
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
    default: {
      // env (the parser accepts no other action)
      const env = infraEnv(readState());
      if (json) console.log(JSON.stringify(env, null, 2));
      else for (const [k, v] of Object.entries(env)) console.log(`export ${k}=${v}`);
      return 0;
    }
  }
}

// `tsx infra/cli.ts ACTION …`: the same command as `evolution infra ACTION …`, parsed by the same parser.
if (require.main === module)
  runToExit(
    async () => {
      const line = parseCommandLine('evolution', { infra: INFRA_COMMAND }, ['infra', ...process.argv.slice(2)], processIo(), { summary: INFRA_COMMAND.summary });
      return 'exit' in line ? line.exit : infraCommand(line.args);
    },
    (e) => `infra: ${(e as Error).message}`,
  );
