/** `npm run schemas`: writes schemas/*.schema.json from the zod schemas. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../infra/paths';
import { PUBLISHED_SCHEMAS, renderSchema } from './json-schemas';

const dir = join(REPO_ROOT, 'schemas');
mkdirSync(dir, { recursive: true });
for (const name of Object.keys(PUBLISHED_SCHEMAS)) {
  writeFileSync(join(dir, `${name}.schema.json`), renderSchema(name));
  console.log(`schemas/${name}.schema.json`);
}
