import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { postgresDataDir, postgresRunAs } from '../../infra/cluster/postgres';

// As root, PostgreSQL runs as the postgres user (Debian's package); elsewhere it runs as us and reaches our folders.
const asPostgres = (() => {
  try {
    return postgresRunAs() !== undefined;
  } catch {
    return false;
  }
})();

describe("the cluster's PostgreSQL data directory", () => {
  it.skipIf(!asPostgres)(
    "stays in the checkout when the postgres user can reach it, else moves to a folder of its own (a clone inside a mktemp folder failed initdb: 'Permission denied')",
    () => {
      const open = mkdtempSync(join(tmpdir(), 'pg-open-'));
      chmodSync(open, 0o755);
      expect(postgresDataDir(join(open, '.evolution', 'cluster', 'postgres', 'data'))).toBe(join(open, '.evolution', 'cluster', 'postgres', 'data'));

      const closed = mkdtempSync(join(tmpdir(), 'pg-closed-')); // 0700, as mktemp makes it
      const lines: string[] = [];
      const moved = postgresDataDir(join(closed, '.evolution', 'cluster', 'postgres', 'data'), (l) => lines.push(l));
      expect(moved).toMatch(/^\/var\/tmp\/skill-evolution-postgres-[0-9a-f]{12}\/data$/);
      expect(postgresDataDir(join(closed, '.evolution', 'cluster', 'postgres', 'data'))).toBe(moved); // the same checkout finds it again
      expect(lines).toEqual([`the postgres user cannot reach ${closed}: PostgreSQL's data goes to ${moved}`]);
    },
  );
});
