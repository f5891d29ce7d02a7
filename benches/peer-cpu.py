#!/usr/bin/env python3
"""Nodes per CPU second of Cairn and of other TEI engines on the same positions, one thread each.

    benches/peer-cpu.py [--clock MS] [--size N] [--rounds R] [ENGINE=PATH ...]

The companion of `benches/peer-nps.sh` for a machine that is not idle (a match running beside
it, say). peer-nps divides the nodes an engine reports by the wall time it reports, so a busy
core slows whichever engine ran while it was busy. Here each search's engine is a fresh process
and its user + system CPU time comes from the kernel (`wait4`), so time spent waiting for a core
does not count. The startup (tables, weights) counts, the same for every position.

The positions are `cairn bench`'s positions of that size other than the empty board (read from
src/bench.rs). Each engine gets `go wtime MS btime MS` (Topaz-classical cuts `go movetime`
short), and the largest node count it prints gives its count (see `search`). Engines are
interleaved position by position and round by round, so a change in the machine's load during
the run falls on all of them alike. Default engines: Cairn (target/release/cairn) and whichever
of topaz-classical and tiltak-tei are in ../shared/sparring/bin.

Run it from the project's root. Needs Python 3.8 and Linux (or any system with os.wait4).
"""

import argparse
import os
import re
import subprocess
import sys


def positions(size):
    text = open("src/bench.rs").read()
    found = re.findall(r'\((\d+), "([^"]*)"\)', text)
    empty = "/".join([f"x{size}"] * size) + " 1 1"
    return [tps for n, tps in found if int(n) == size and tps != empty]


def search(path, size, tps, clock):
    """One search in a fresh process: (nodes, cpu seconds)."""
    engine = subprocess.Popen(
        [path],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    engine.stdin.write(
        f"tei\nsetoption name HalfKomi value 4\nteinewgame {size}\nisready\n"
        f"position tps {tps}\ngo wtime {clock} btime {clock}\n"
    )
    engine.stdin.flush()
    nodes = None
    for line in engine.stdout:
        words = line.split()
        # Every node count the engine printed, wherever it stands in the line: an `info` line's
        # `nodes N`, and Topaz-classical's `Aborted Depth: D Score: S Nodes: N` (with its last
        # `info` line glued on), whose N includes the iteration it cut off. Its `info` lines
        # count only finished iterations, while the CPU time covers the unfinished one too.
        for key, value in zip(words, words[1:]):
            if key in ("nodes", "Nodes:") and value.isdigit():
                nodes = max(nodes or 0, int(value))
        if words[:1] == ["bestmove"]:
            break
    try:
        engine.stdin.write("quit\n")
        engine.stdin.close()
    except BrokenPipeError:
        pass
    _, _, usage = os.wait4(engine.pid, 0)
    return nodes, usage.ru_utime + usage.ru_stime


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clock", type=int, default=30000, help="ms on each clock (default 30000)")
    parser.add_argument("--size", type=int, default=6, help="board size (default 6)")
    parser.add_argument("--rounds", type=int, default=1, help="passes over the positions")
    parser.add_argument("engines", nargs="*", metavar="NAME=PATH")
    args = parser.parse_args()

    engines = [tuple(e.split("=", 1)) for e in args.engines]
    if not engines:
        engines = [("cairn", os.environ.get("CAIRN", "target/release/cairn"))]
        sparring = os.environ.get("SPARRING", "../shared/sparring/bin")
        for name in ("topaz-classical", "tiltak-tei"):
            path = os.path.join(sparring, name)
            if os.access(path, os.X_OK):
                engines.append((name, path))
    for name, path in engines:
        if not os.access(path, os.X_OK):
            sys.exit(f"peer-cpu: {name}: {path} is not an executable")
    todo = positions(args.size)
    if not todo:
        sys.exit(f"peer-cpu: no size-{args.size} positions in src/bench.rs")

    totals = {name: [0, 0.0] for name, _ in engines}
    for round_no in range(1, args.rounds + 1):
        for tps in todo:
            for name, path in engines:
                nodes, cpu = search(path, args.size, tps, args.clock)
                if nodes is None:
                    print(f"peer-cpu: {name} gave no nodes on: {tps}", file=sys.stderr)
                    continue
                totals[name][0] += nodes
                totals[name][1] += cpu
                print(
                    f"peer-cpu: round {round_no} {name}: {tps}: {nodes} nodes in {cpu:.2f} s CPU",
                    file=sys.stderr,
                )
    print(f"{'engine':16} {'nodes':>12} {'cpu s':>9} {'nodes/cpu s':>12}")
    for name, (nodes, cpu) in totals.items():
        rate = nodes / cpu if cpu > 0 else 0
        print(f"{name:16} {nodes:12} {cpu:9.2f} {rate:12.0f}")


if __name__ == "__main__":
    main()
