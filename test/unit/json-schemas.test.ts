import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../infra/paths';
import { PUBLISHED_SCHEMAS, renderSchema } from '../../scripts/json-schemas';

describe('published JSON Schemas', () => {
  for (const name of Object.keys(PUBLISHED_SCHEMAS)) {
    it(`schemas/${name}.schema.json matches the zod schema (run npm run schemas after changing it)`, () => {
      const committed = readFileSync(join(REPO_ROOT, 'schemas', `${name}.schema.json`), 'utf8');
      expect(committed).toBe(renderSchema(name));
      expect(JSON.parse(committed).type).toBe(['session-events', 'evaluate-activity-output'].includes(name) ? 'array' : 'object');
    });
  }
});
