#!/usr/bin/env python3
"""Start-up CPU of the installed distribution against a plain Java program (docs/performance.md, "Start-up").

Runs, in random order per round, `bin/sqlguard query --sql SQL` (the launcher, with its class-data archive
already made by a first run) and PlainQuery (opens the same DuckDB file read-only with the DuckDB JDBC
driver and runs the same SQL), each as a fresh process, and measures the CPU each used (user + sys of the
process and everything it waited for, from getrusage). Prints medians, the ratio of the medians and the
median of the per-round ratios, per JDK. No timing is asserted anywhere: this is a measurement.

Usage: app/cli/perf/startup-cpu.py ROUNDS JAVA_HOME... (after `./mvnw -DskipTests package`)
"""
import glob
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
SQL = "SELECT region, avg(amount) FROM claims GROUP BY region"


def cpu(cmd, env):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), done.stderr.decode()[-2000:]))
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    homes = sys.argv[2:] or [os.environ.get("JAVA_HOME", "/usr/lib/jvm/java-17-openjdk-amd64")]
    work = tempfile.mkdtemp(prefix="sqlguard-startup-")
    try:
        tarball = glob.glob(os.path.join(ROOT, "app", "target", "sqlguard-*.tar.gz"))[0]
        with tarfile.open(tarball) as t:
            t.extractall(work)
        dist = glob.glob(os.path.join(work, "sqlguard-*"))[0]
        # the launcher of the source tree, so that a change to it is measured without rebuilding the tarball
        shutil.copy(os.path.join(ROOT, "app", "cli", "src", "dist", "bin", "sqlguard"), os.path.join(dist, "bin", "sqlguard"))
        duckdb = glob.glob(os.path.expanduser("~/.m2/repository/org/duckdb/duckdb_jdbc/*/duckdb_jdbc-*.jar"))
        duckdb += glob.glob(os.path.join(os.environ.get("SQLGUARD_M2", "/nonexistent"), "org/duckdb/duckdb_jdbc/*/duckdb_jdbc-*.jar"))
        duckdb = [j for j in duckdb if not j.endswith("-sources.jar")][0]
        classes = os.path.join(work, "classes")
        os.makedirs(classes)
        javac = os.path.join(homes[0], "bin", "javac")
        subprocess.run([javac, "--release", "17", "-d", classes, os.path.join(os.path.dirname(__file__), "PlainQuery.java")], check=True)
        for home in homes:
            java = os.path.join(home, "bin", "java")
            env = dict(os.environ, JAVA_HOME=home, XDG_CACHE_HOME=os.path.join(work, "cache"),
                       XDG_STATE_HOME=os.path.join(work, "state"), SQLGUARD_JAVA=java)
            env.pop("JAVA_OPTS", None)
            launcher = [os.path.join(dist, "bin", "sqlguard"), "query", "--sql", SQL]
            first = cpu(launcher, env)   # builds the demo database and trains the archive
            second = cpu(launcher, env)  # the first run with the archive
            db = glob.glob(os.path.join(work, "cache", "sqlguard", "demo-claims-*.duckdb"))[0]
            native = ["--enable-native-access=ALL-UNNAMED"] if not open(os.path.join(home, "release")).read().count('JAVA_VERSION="17') else []
            plain = [java] + native + ["-cp", duckdb + os.pathsep + classes, "PlainQuery", db, SQL]
            nocds = dict(env, SQLGUARD_CDS="off")
            runs = {"sqlguard": [], "plain": [], "no-archive": []}
            cmds = {"sqlguard": (launcher, env), "plain": (plain, env), "no-archive": (launcher, nocds)}
            cpu(plain, env)
            for _ in range(rounds):
                order = list(cmds)
                random.shuffle(order)
                for name in order:
                    runs[name].append(cpu(*cmds[name]))
            med = {k: statistics.median(v) for k, v in runs.items()}
            per_round = statistics.median(s / p for s, p in zip(runs["sqlguard"], runs["plain"]))
            per_round_nocds = statistics.median(s / p for s, p in zip(runs["no-archive"], runs["plain"]))
            version = [l for l in open(os.path.join(home, "release")) if l.startswith("JAVA_VERSION=")][0].strip()
            print("%s (%d rounds; first run %.2f s CPU, training the archive; second %.2f s)" % (version, rounds, first, second))
            print("  plain Java + DuckDB:      median %.3f s CPU" % med["plain"])
            print("  bin/sqlguard (archive):   median %.3f s CPU, ratio of medians %.2f, median per-round ratio %.2f"
                  % (med["sqlguard"], med["sqlguard"] / med["plain"], per_round))
            print("  bin/sqlguard, no archive: median %.3f s CPU, ratio of medians %.2f, median per-round ratio %.2f"
                  % (med["no-archive"], med["no-archive"] / med["plain"], per_round_nocds))
            sys.stdout.flush()
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
