#!/usr/bin/env python3
"""Whole-process start-up of sqlguard against plain Java baselines (issue 15).

Every round runs each case once, in a fresh random order, so that the load of a shared machine
hits all of them alike; the first WARMUP rounds are dropped. For each case it prints the median
wall time and the median CPU time (user + system of the process and its children), and for each
sqlguard case the ratio to its baseline: the median of the per-round ratios, and the ratio of
the medians.

Usage: startup.py ROUNDS WARMUP CLASSES_DIR DUCKDB_JAR LABEL=JAR[@FLAG...] [LABEL=JAR[@FLAG...] ...]

JVM flags after the jar, separated by @, go before -jar: aot=app/target/sqlguard.jar@-XX:AOTCache=q.aot
runs that jar with an AOT cache (JDK 25). Every case runs on the java found on PATH.
"""
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time

INIT = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "startup-bench", "version": "1"}}})
SQL = "SELECT region, avg(amount) FROM claims GROUP BY region"


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(cmd, expect_code=0):
    """Runs cmd to its end; returns (wall s, cpu s)."""
    cpu0 = children_cpu()
    t0 = time.monotonic()
    p = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    wall = time.monotonic() - t0
    if p.returncode != expect_code:
        sys.exit("%s exited %d: %s" % (" ".join(cmd), p.returncode, p.stderr.decode(errors="replace")[-2000:]))
    return wall, children_cpu() - cpu0


def run_mcp(cmd):
    """Starts the MCP server, sends initialize, and stops the clock at the answer (wall); CPU is
    the whole process's, to its end after stdin closes."""
    cpu0 = children_cpu()
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    p.stdin.write((INIT + "\n").encode())
    p.stdin.flush()
    line = p.stdout.readline()
    wall = time.monotonic() - t0
    if b'"result"' not in line:
        sys.exit("no initialize answer: %r" % line)
    p.stdin.close()
    p.stdout.read()
    p.wait()
    return wall, children_cpu() - cpu0


def main():
    rounds, warmup, classes, duckdb = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
    jars = [a.split("=", 1) for a in sys.argv[5:]]
    jars = [(label, spec.split("@")) for label, spec in jars]
    cases = {
        "hello": (None, lambda: run(["java", "-cp", classes, "Hello"])),
        "duckdb-jdbc": (None, lambda: run(["java", "-cp", classes + os.pathsep + duckdb, "DuckDbOneQuery"])),
    }
    for label, (jar, *flags) in jars:
        java = ["java"] + flags + ["-jar", jar]
        cases[label + " --help"] = ("hello", lambda java=java: run(java + ["--help"]))
        cases[label + " check"] = ("duckdb-jdbc", lambda java=java: run(java + ["check", "--sql", SQL]))
        cases[label + " query"] = ("duckdb-jdbc", lambda java=java: run(java + ["query", "--sql", SQL]))
        cases[label + " mcp initialize"] = ("duckdb-jdbc", lambda java=java: run_mcp(java + ["mcp"]))
    samples = {name: [] for name in cases}
    for r in range(warmup + rounds):
        names = list(cases)
        random.shuffle(names)
        for name in names:
            result = cases[name][1]()
            if r >= warmup:
                samples[name].append(result)
        print("round %d/%d done, load %.2f" % (r + 1, warmup + rounds, os.getloadavg()[0]), file=sys.stderr, flush=True)
    print("%d rounds after %d warm-up, load average (1/5/15 min) at the end: %.2f %.2f %.2f"
          % ((rounds, warmup) + os.getloadavg()))
    print("%-26s %10s %10s %12s %12s %12s" % ("case", "wall", "cpu", "vs", "wall ratio", "cpu ratio"))
    for name, (base, _) in cases.items():
        walls = [w for w, _ in samples[name]]
        cpus = [c for _, c in samples[name]]
        line = "%-26s %9.3fs %9.3fs" % (name, statistics.median(walls), statistics.median(cpus))
        if base:
            bw = [w for w, _ in samples[base]]
            bc = [c for _, c in samples[base]]
            per_round_wall = statistics.median([a / b for a, b in zip(walls, bw)])
            per_round_cpu = statistics.median([a / b for a, b in zip(cpus, bc)])
            line += " %12s %5.2f (%4.2f) %5.2f (%4.2f)" % (base, per_round_wall, statistics.median(walls) / statistics.median(bw),
                                                          per_round_cpu, statistics.median(cpus) / statistics.median(bc))
        print(line)
    print("ratios: median of the per-round ratios (ratio of the medians in parentheses)")


if __name__ == "__main__":
    main()
