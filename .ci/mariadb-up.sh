#!/usr/bin/env bash
# Makes sure the local MariaDB answers and that the two test accounts exist.
# Idempotent; run as root (it talks to the server over the local socket).
set -euo pipefail

answering() { mariadb -uroot -e 'SELECT 1' >/dev/null 2>&1; }

if ! answering; then
  if [ ! -x /usr/sbin/mariadbd ]; then
    echo "mariadb-up: installing mariadb-server" >&2
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mariadb-server >&2
  fi
  mkdir -p /run/mysqld && chown mysql /run/mysqld
  start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd -- --user=mysql --bind-address=127.0.0.1
  for _ in $(seq 1 60); do
    answering && break
    sleep 1
  done
fi
answering || { echo "mariadb-up: MariaDB does not answer" >&2; exit 1; }

# One least-privilege account (SELECT on the test databases only) and one over-privileged
# account (everything), so tests never depend on how root may log in over TCP.
mariadb -uroot <<'SQL'
CREATE USER IF NOT EXISTS 'sqlguard_ro'@'127.0.0.1' IDENTIFIED BY 'sqlguard-ro-pw';
CREATE USER IF NOT EXISTS 'sqlguard_ro'@'localhost' IDENTIFIED BY 'sqlguard-ro-pw';
GRANT SELECT ON `sqlguard\_t\_%`.* TO 'sqlguard_ro'@'127.0.0.1';
GRANT SELECT ON `sqlguard\_t\_%`.* TO 'sqlguard_ro'@'localhost';
CREATE USER IF NOT EXISTS 'sqlguard_admin'@'127.0.0.1' IDENTIFIED BY 'sqlguard-admin-pw';
CREATE USER IF NOT EXISTS 'sqlguard_admin'@'localhost' IDENTIFIED BY 'sqlguard-admin-pw';
GRANT ALL PRIVILEGES ON *.* TO 'sqlguard_admin'@'127.0.0.1' WITH GRANT OPTION;
GRANT ALL PRIVILEGES ON *.* TO 'sqlguard_admin'@'localhost' WITH GRANT OPTION;
FLUSH PRIVILEGES;
SQL
echo "mariadb-up: MariaDB $(mariadb -uroot -N -e 'SELECT VERSION()') is up with the test accounts" >&2
