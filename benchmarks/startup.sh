#!/usr/bin/env bash
# Whole-process start-up of sqlguard against plain Java baselines (issue 15); see docs/performance.md.
# Usage: benchmarks/startup.sh [ROUNDS] [WARMUP] [LABEL=JAR[@JVM-FLAG...] ...]   (default: 9 rounds, 2 warm-up, after=app/target/sqlguard.jar)
# Every case runs on the java found on PATH: PATH=/path/to/jdk-25/bin:$PATH benchmarks/startup.sh ... measures JDK 25.
# Needs the jar built (./mvnw -q -DskipTests package) and the DuckDB JDBC jar in the local Maven repository.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
rounds="${1:-9}"; warmup="${2:-2}"; shift $(( $# > 2 ? 2 : $# )) || true
jars=("$@"); [ ${#jars[@]} -gt 0 ] || jars=("after=$root/app/target/sqlguard.jar")
version="$(sed -n 's:.*<duckdb.version>\(.*\)</duckdb.version>.*:\1:p' "$root/pom.xml" | head -1)"
duckdb="${DUCKDB_JAR:-$HOME/.m2/repository/org/duckdb/duckdb_jdbc/$version/duckdb_jdbc-$version.jar}"
[ -f "$duckdb" ] || { echo "no DuckDB JDBC jar at $duckdb (set DUCKDB_JAR)" >&2; exit 2; }
classes="$(mktemp -d)"; trap 'rm -rf "$classes"' EXIT
javac -d "$classes" "$root/benchmarks/startup/Hello.java" "$root/benchmarks/startup/DuckDbOneQuery.java"
java -version 2>&1 | head -1
exec python3 "$root/benchmarks/startup/startup.py" "$rounds" "$warmup" "$classes" "$duckdb" "${jars[@]}"
