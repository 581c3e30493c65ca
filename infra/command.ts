import type { CommandSpec } from '../runtime/command-line';
import { SERVICE_NAMES } from './state';

/** `evolution infra …` (and `tsx infra/cli.ts …`): what it takes. */
export const INFRA_COMMAND: CommandSpec = {
  summary: 'manage the local services (Temporal dev server, SeaweedFS S3, model server)',
  arguments: [{ name: 'ACTION', choices: ['up', 'down', 'status', 'env'] }],
  options: {
    only: { value: 'SERVICES', list: true, choices: SERVICE_NAMES, description: 'only these services (comma-separated)' },
    cluster: { description: 'the local cluster (infra/cluster) instead of the dev stack; down stops both' },
  },
};
