#!/usr/bin/env bash
# Makes sure the local PostgreSQL answers and that the two test roles exist.
# Idempotent; run as root (it talks to the server over the local socket as user postgres, trust auth).
set -euo pipefail

answering() { pg_isready -q -h 127.0.0.1 -p 5432; }

if ! answering; then
  if ! command -v pg_ctlcluster >/dev/null 2>&1; then
    echo "postgres-up: installing postgresql" >&2
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
  fi
  version="$(ls /etc/postgresql | sort -n | tail -1)"
  pg_ctlcluster "$version" main start || true
  for _ in $(seq 1 60); do
    answering && break
    sleep 1
  done
fi
answering || { echo "postgres-up: PostgreSQL does not answer" >&2; exit 1; }

as_postgres() {
  if [ "$(id -u)" = "0" ] && command -v runuser >/dev/null 2>&1; then
    runuser -u postgres -- psql -v ON_ERROR_STOP=1 -qAt "$@"
  else
    psql -U postgres -v ON_ERROR_STOP=1 -qAt "$@"
  fi
}

as_postgres -d postgres -c "SELECT 1 FROM pg_database WHERE datname = 'test'" | grep -q 1 \
  || as_postgres -d postgres -c "CREATE DATABASE test"

# One least-privilege role (LOGIN, SELECT on the test schemas only, which each fixture grants on the
# schema it creates; it may bound its own temporary files) and one over-privileged role (SUPERUSER),
# so tests never depend on how postgres or root may log in over TCP.
as_postgres -d test <<'SQL'
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'sqlguard_pg_ro') THEN
    CREATE ROLE sqlguard_pg_ro LOGIN PASSWORD 'sqlguard-pg-ro-pw' NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'sqlguard_pg_admin') THEN
    CREATE ROLE sqlguard_pg_admin LOGIN PASSWORD 'sqlguard-pg-admin-pw' SUPERUSER;
  END IF;
END
$$;
ALTER ROLE sqlguard_pg_ro NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS;
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
REVOKE CREATE, TEMPORARY ON DATABASE test FROM PUBLIC;
GRANT CONNECT ON DATABASE test TO sqlguard_pg_ro;
GRANT SET ON PARAMETER temp_file_limit TO sqlguard_pg_ro;
SQL
echo "postgres-up: $(as_postgres -d test -c 'SHOW server_version') is up with the test roles" >&2
