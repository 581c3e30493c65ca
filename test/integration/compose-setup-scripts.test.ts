import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ensureBinary } from '../../infra/binaries';
import { REPO_ROOT } from '../../infra/paths';
import { realServices, uniqueName } from '../support/infra';

const run = promisify(execFile);

/**
 * deploy/compose/temporal-namespace.sh, the compose step that registers the namespace and the
 * search attributes, run for real with the Temporal CLI (the admin-tools image carries the
 * same `temporal` command) against the local Temporal server, on a namespace of its own.
 */
describe('deploy/compose/temporal-namespace.sh', () => {
  it('creates the namespace and the four Keyword search attributes, and changes nothing when run again', async () => {
    const config = await realServices(['temporal']);
    const cli = ensureBinary('temporal');
    const namespace = uniqueName('compose-ns');
    const env = { ...process.env, PATH: `${dirname(cli)}:${process.env.PATH}`, TEMPORAL_ADDRESS: config.temporal.address, TEMPORAL_NAMESPACE: namespace };
    const script = join(REPO_ROOT, 'deploy/compose/temporal-namespace.sh');
    const first = await run('sh', [script], { env, timeout: 120_000 });
    expect(first.stdout).toContain(`${namespace} is ready`);
    const again = await run('sh', [script], { env, timeout: 120_000 });
    expect(again.stdout).toContain(`${namespace} is ready`);
    const { stdout } = await run(cli, ['operator', 'search-attribute', 'list', '--address', config.temporal.address, '--namespace', namespace, '--output', 'json'], {
      timeout: 60_000,
    });
    const custom = JSON.parse(stdout) as { customAttributes?: Record<string, string> } | { name: string; type: string }[];
    const text = JSON.stringify(custom);
    for (const name of ['EvolutionScopeKey', 'EvolutionSkillId', 'EvolutionRevisionId', 'EvolutionKind']) expect(text).toContain(name);
  }, 300_000);
});
