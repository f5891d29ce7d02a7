#!/usr/bin/env python3
"""Fault soak of `cairn playtak` against the real playtak server kit (not part of `cargo test`).

A loopback server from ../shared/playtak-server runs the games. The bot under test reaches it
through a TCP proxy made here, which at random moments either cuts the bot's connection (both
sockets closed) or silences it (nothing passes either way, nothing is closed: a dead router or
NAT entry). An opponent, a second `cairn playtak` connected directly, accepts the bot's seeks.
The first half of the games is played by the account `cairn`, the second half by a guest; the
server is restarted once, in the first half (a game in progress then is lost with the server's
memory, and is reported on its own line).

At the end, every game the server stored for the bot is checked: it must have the bot's PTN,
and it must have ended on the board (road, flats, a draw) or by the opponent (its resignation,
its clock, its abandonment), never by the bot's clock or the bot's abandonment.

    benches/playtak-soak.py [--games 50] [--size 4] [--tc 20+1] [--cairn target/release/cairn]

Needs python3, Java 17+, sqlite3 and the kit's jars (its install-deps.sh). Prints the counts
and exits 1 if a game failed the checks. The bot's settings are the operator's, except a
shorter PING interval and timeout (2 s and 3 s) that fit the fast clock.
"""

import argparse
import os
import random
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Proxy:
    """Relays 127.0.0.1:port to the server's telnet port; can cut or silence every link."""

    def __init__(self, upstream):
        self.upstream = upstream
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen()
        self.port = self.listener.getsockname()[1]
        self.links = []
        self.lock = threading.Lock()
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            client, _ = self.listener.accept()
            try:
                server = socket.create_connection(("127.0.0.1", self.upstream), timeout=5)
            except OSError:
                client.close()
                continue
            link = {"client": client, "server": server, "silent": False, "closed": False}
            with self.lock:
                self.links.append(link)
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self.relay, args=(link, a, b), daemon=True).start()

    def relay(self, link, src, dst):
        src.settimeout(0.2)
        while not link["closed"]:
            try:
                data = src.recv(65536)
            except socket.timeout:
                continue
            except OSError:
                break
            if not data:
                break
            if link["silent"]:
                continue  # lost on the way
            try:
                dst.sendall(data)
            except OSError:
                break
        self.close(link)

    def close(self, link):
        link["closed"] = True
        for s in (link["client"], link["server"]):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()
        with self.lock:
            if link in self.links:
                self.links.remove(link)

    def live(self):
        with self.lock:
            return [l for l in self.links if not l["closed"] and not l["silent"]]

    def cut(self):
        for link in self.live():
            self.close(link)

    def silence(self):
        for link in self.live():
            link["silent"] = True


class Server:
    def __init__(self, kit, root, ports):
        self.kit, self.root, self.ports, self.dirs = kit, root, ports, []

    def start(self):
        run = self.root / f"server{len(self.dirs) + 1}"
        env = dict(os.environ, PLAYTAK_TELNET_PORT=str(self.ports[0]),
                   PLAYTAK_WS_PORT=str(self.ports[1]), PLAYTAK_HTTP_PORT=str(self.ports[2]))
        subprocess.run(["bash", self.kit / "start.sh", run], env=env, check=True,
                       stdout=subprocess.DEVNULL)
        self.dirs.append(run)

    def stop(self):
        subprocess.run(["bash", self.kit / "stop.sh", self.dirs[-1]], stdout=subprocess.DEVNULL)

    def games(self):
        """(run, id, white, black, result, plies) of every stored game."""
        rows = []
        for run in self.dirs:
            db = sqlite3.connect(run / "games.db")
            for gid, white, black, result, notation in db.execute(
                    "select id, player_white, player_black, result, notation from games"):
                plies = len([m for m in (notation or "").split(",") if m])
                rows.append((run.name, gid, white, black, result, plies))
            db.close()
        return rows


def cairn_playtak(cairn, args, log, env_extra=None):
    env = dict(os.environ, CAIRN_PLAYTAK_PASSWORD="password",
               RUST_LOG="warn,cairn_engine::playtak=info", **(env_extra or {}))
    return subprocess.Popen(["nice", "-n", "10", cairn, "playtak", *args], env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=open(log, "w"))


def ptn_tags(path):
    tags = {}
    for line in path.read_text().splitlines():
        if line.startswith("[") and " " in line:
            key, value = line[1:].split(" ", 1)
            tags[key] = value.rstrip("]").strip('"')
    return tags


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--size", type=int, default=4)
    ap.add_argument("--tc", default="20+1")
    ap.add_argument("--cairn", default=str(REPO / "target/release/cairn"))
    ap.add_argument("--kit", default=str(REPO / "../shared/playtak-server"))
    ap.add_argument("--fault-every", default="20-45", help="seconds between faults, MIN-MAX")
    ap.add_argument("--seed", type=int, default=int(time.time()))
    ap.add_argument("--out", default=None, help="folder for logs and PTN (default: a temp dir)")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    kit = Path(a.kit).resolve()
    out = Path(a.out or tempfile.mkdtemp(prefix="cairn-playtak-soak-")).resolve()
    out.mkdir(parents=True, exist_ok=True)
    print(f"soak: {a.games} games of {a.size}x{a.size} at {a.tc}, seed {a.seed}, in {out}")

    server = Server(kit, out, (free_port(), free_port(), free_port()))
    server.start()
    proxy = Proxy(server.ports[0])
    lo, hi = (float(x) for x in a.fault_every.split("-"))
    faults = {"cut": 0, "silence": 0, "restart": 0}
    phases = [("cairn", a.games // 2), (None, a.games - a.games // 2)]
    restart_after = max(1, phases[0][1] * 2 // 5)  # games of the first phase
    opponent = cairn_playtak(a.cairn, ["--server", f"127.0.0.1:{server.ports[0]}", "--user",
                                       "opponent", "--accept", "*", "--quiet",
                                       "--ptn-dir", str(out / "opponent")], out / "opponent.log")
    try:
        for phase, (user, games) in enumerate(phases):
            ptn = out / f"bot{phase}"
            args = ["--server", f"127.0.0.1:{proxy.port}", "--size", str(a.size), "--tc", a.tc,
                    "--games", str(games), "--ptn-dir", str(ptn), "--quiet",
                    "--ping-interval", "2", "--ping-timeout", "3", "--reconnect-delay", "500"]
            if user:
                args += ["--user", user]
            bot = cairn_playtak(a.cairn, args, out / f"bot{phase}.log")
            started = time.time()
            next_fault = time.time() + rng.uniform(lo, hi)
            shown = None
            while bot.poll() is None:
                time.sleep(0.2)
                done = len(list(ptn.glob("*.ptn"))) if ptn.exists() else 0
                if shown != done:
                    shown = done
                    print(f"  phase {phase + 1} ({user or 'guest'}): {done}/{games} games, "
                          f"faults {faults}", flush=True)
                if phase == 0 and not faults["restart"] and done >= restart_after:
                    time.sleep(rng.uniform(3, 10))  # into the next game
                    server.stop()
                    server.start()
                    faults["restart"] += 1
                if time.time() >= next_fault:
                    kind = rng.choice(["cut", "cut", "silence"])
                    getattr(proxy, kind)()
                    faults[kind] += 1
                    next_fault = time.time() + rng.uniform(lo, hi)
                if time.time() - started > 300 * games:
                    bot.kill()
                    print(f"\nphase {phase + 1}: the bot did not finish in time", file=sys.stderr)
            print(f"  phase {phase + 1}: exit {bot.returncode} after "
                  f"{time.time() - started:.0f} s")
    finally:
        opponent.terminate()
        opponent.wait()
        server.stop()

    # Check every game of the bot's against its PTN.
    bot_names = {"cairn"} | {
        line.split("logged in as ")[1].strip()
        for line in (out / "bot1.log").read_text().splitlines() if "logged in as " in line}
    ptns = {}
    for phase in (0, 1):
        for path in sorted((out / f"bot{phase}").glob("*.ptn")):
            tags = ptn_tags(path)
            ptns.setdefault((tags["Player1"], tags["Player2"]), []).append((path, tags))
    ok, failed, lost_to_restart = 0, [], 0
    kinds = {}
    for run, gid, white, black, result, plies in server.games():
        if white not in bot_names and black not in bot_names:
            continue
        bot_white = white in bot_names
        candidates = ptns.get((white, black), [])
        mine = [c for c in candidates if c[1].get("Event") == f"playtak game {gid}"
                and c[1].get("Result") == result]
        if not mine:
            # The server restart ends the game in progress without a result the bot sees.
            if run == "server1" and gid == max(g for r, g, *_ in server.games() if r == run):
                lost_to_restart += 1
                continue
            failed.append(f"{run} game {gid} {white}-{black} {result}: no PTN from the bot")
            continue
        path, tags = mine[0]
        candidates.remove(mine[0])
        how = tags.get("Termination", "?")
        kinds[how] = kinds.get(how, 0) + 1
        bot_lost = result in (("0-1", "0-R", "0-F") if bot_white else ("1-0", "R-0", "F-0"))
        if how in ("time", "abandonment") and bot_lost:
            failed.append(f"{path.name}: the bot lost by {how}")
        else:
            ok += 1
    print(f"games checked: {ok + len(failed)}; ended on the board or by the opponent: {ok}; "
          f"failed: {len(failed)}; lost with the restarted server: {lost_to_restart}")
    print(f"endings: {kinds}; faults: {faults}")
    for f in failed:
        print("  FAILED", f)
    return 1 if failed or ok + len(failed) < a.games else 0


if __name__ == "__main__":
    sys.exit(main())
