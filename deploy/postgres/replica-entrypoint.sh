#!/bin/bash
# A hot standby of $PRIMARY_HOST: cloned with pg_basebackup on first start (-R writes
# standby.signal and primary_conninfo; -C -S creates a replication slot, so the primary keeps
# the WAL the standby has not received yet), then started as usual.
set -euo pipefail
if [ ! -s "${PGDATA}/PG_VERSION" ]; then
    until pg_isready -h "${PRIMARY_HOST}" -U "${PGUSER}"; do sleep 1; done
    pg_basebackup -h "${PRIMARY_HOST}" -U "${PGUSER}" -D "${PGDATA}" \
        -R -X stream -C -S "${REPLICATION_SLOT}" --checkpoint=fast
    chmod 0700 "${PGDATA}"
fi
# The primary's -c settings are its command line's, not its files': the searches a replica
# serves need the same index memory and open files (docs/scaling.md).
exec postgres -D "${PGDATA}" -c hot_standby=on -c shared_buffers=512MB \
    -c max_files_per_process=4096
