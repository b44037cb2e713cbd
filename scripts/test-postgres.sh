#!/usr/bin/env bash
# Start a local PostgreSQL for the server tests and print its URL (docs/server-plan.md 7).
# Installs Debian's postgresql when it is missing and we may (root with apt-get); otherwise prints nothing,
# and the PostgreSQL half of the server tests is skipped with a message saying so.
set -euo pipefail
. "$(dirname "$0")/apt.sh"
if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
    may_install || exit 0
    apt_install postgresql || { apt_update && apt_install postgresql; } || exit 0
fi
version=$(ls /usr/lib/postgresql | sort -n | tail -1)
if ! pg_lsclusters -h 2>/dev/null | grep -q .; then
    pg_createcluster "$version" main >/dev/null 2>&1 || exit 0
fi
cluster=$(pg_lsclusters -h | head -1)
set -- $cluster
pg_ctlcluster "$1" "$2" start >/dev/null 2>&1 || true
port=$3
run() { if [ "$(id -u)" = 0 ]; then su postgres -c "$1"; else sh -c "$1"; fi; }
run "psql -p $port -tAc \"select 1 from pg_roles where rolname='warroom'\"" 2>/dev/null | grep -q 1 \
    || run "psql -p $port -qc \"create role warroom login createdb password 'warroom'\"" >/dev/null 2>&1 || exit 0
echo "postgresql+psycopg://warroom:warroom@127.0.0.1:$port/postgres"
