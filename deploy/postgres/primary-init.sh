#!/bin/bash
# Runs once, when the primary's data directory is created (docker-entrypoint-initdb.d):
# lets the service's user open replication connections, which the standby clones and
# streams from. Password-checked like every other connection.
set -euo pipefail
echo "host replication ${POSTGRES_USER} all scram-sha-256" >> "${PGDATA}/pg_hba.conf"
