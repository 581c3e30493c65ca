#!/bin/sh
# The Temporal schema step (run by the `temporal-schema` service, temporalio/admin-tools):
# creates the two PostgreSQL databases and brings both schemas to the version this image
# ships, with the server's own SQL tool. Safe to run again: `create` keeps an existing
# database, `setup-schema -v 0.0` keeps a newer version, `update-schema` applies only the
# versions a database does not have yet (so a newer admin-tools image upgrades the schema).
set -eu
: "${POSTGRES_SEEDS:?POSTGRES_SEEDS is required}"
: "${POSTGRES_USER:?POSTGRES_USER is required}"
: "${SQL_PASSWORD:?SQL_PASSWORD is required}"
port="${DB_PORT:-5432}"
# The schema files of the admin-tools image (TEMPORAL_SCHEMA_DIR: another copy of them, e.g. a server build's).
schema="${TEMPORAL_SCHEMA_DIR:-/etc/temporal/schema/postgresql/v12}"
for db in temporal temporal_visibility; do
  case "$db" in temporal) dir="$schema/temporal/versioned" ;; *) dir="$schema/visibility/versioned" ;; esac
  tool() { temporal-sql-tool --plugin postgres12 --ep "$POSTGRES_SEEDS" -p "$port" -u "$POSTGRES_USER" --db "$db" "$@"; }
  tool create
  tool setup-schema -v 0.0
  tool update-schema -d "$dir"
done
echo "temporal-schema: databases temporal and temporal_visibility are at the current schema"
