import { clusterEnv, clusterStatus, clusterUp } from './manager';

/** `evolution infra up|status|env --cluster` (`infra down` stops the cluster with the dev stack). */
export async function clusterCommand(action: string | undefined, json: boolean): Promise<number> {
  const log = (line: string) => console.error(`[cluster] ${line}`);
  switch (action) {
    case 'up': {
      const env = clusterEnv(await clusterUp({ log }));
      if (json) console.log(JSON.stringify({ env }, null, 2));
      else for (const [k, v] of Object.entries(env)) console.log(`${k}=${v}`);
      return 0;
    }
    case 'status': {
      const processes = await clusterStatus();
      if (json) console.log(JSON.stringify(processes, null, 2));
      else
        for (const p of processes)
          console.log(
            `${p.name.padEnd(18)} ${p.ready ? 'ready' : p.running ? 'running (not ready)' : 'stopped'}${p.pid ? `  pid ${p.pid}` : ''}${
              p.ports
                ? `  ${Object.entries(p.ports)
                    .map(([k, v]) => `${k}:${v}`)
                    .join(' ')}`
                : ''
            }`,
          );
      return processes.every((p) => p.ready) ? 0 : 1;
    }
    case 'env': {
      const env = clusterEnv();
      if (json) console.log(JSON.stringify(env, null, 2));
      else for (const [k, v] of Object.entries(env)) console.log(`export ${k}=${v}`);
      return 0;
    }
    default:
      console.error('usage: evolution infra up|down|status|env --cluster [--json]');
      return 2;
  }
}
