#!/usr/bin/env python3
"""Replication with Litestream, tested for real (run by run.sh).

Each round, in a fresh directory:

1. The Strata writer (litestream-writer) writes transactions through a
   DatabasePool opened with `Configuration.server()`, and prints `ack SEQ TIME`
   after each commit returns (TIME on CLOCK_MONOTONIC, the clock of
   time.monotonic_ns()).
2. `litestream replicate` streams the database to a file replica.
3. After a random 2-6 s of replication, the processes are killed with SIGKILL:
   - "crash" rounds kill the writer and Litestream at the same moment, as a
     crash of the machine would: Litestream gets no chance to ship what it has
     not shipped yet. This is the round that measures the loss window.
     (Killing only the writer would test nothing about it: Litestream reads
     the WAL from the disk, which outlives the writer, and would ship
     everything.)
   - "app" rounds kill the writer alone, then Litestream one bound later (see
     below), as a crash of the application alone would: then nothing at all
     may be lost.
4. `litestream restore` rebuilds the database from the replica, and the checks
   run on it:
   - `PRAGMA integrity_check` says ok;
   - no partial transaction: the `seq` of `txn` are exactly 1...M, every one
     of them has all its `item` rows with the values the writer wrote, there
     is no other `item` row, and every restored `txn` row is the one of the
     writer's own database;
   - nothing lost beyond the interval: every transaction acknowledged at
     least BOUND before Litestream was killed is there (BOUND = monitor
     interval + sync interval + a margin, see below);
   - the writer's observation and checkpoints kept working while Litestream
     held its read transaction: the observation delivered fresh values, the
     passive checkpoints returned without error, and the writes never failed
     (a busy error would have ended the writer).

Why BOUND: Litestream 0.5 copies new WAL frames into a local LTX file every
monitor interval, and uploads the new LTX files to the replica every sync
interval; a commit is in the replica at the latest one monitor interval plus
one sync interval after it, plus the time these steps take. The margin covers
that time on a loaded 2-core machine.

Prints one line per round, then a summary, and ends with the plain line
`litestream: N passed, N failed`. Exits non-zero on any violation.
"""

import os
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))

ROUNDS = int(os.environ.get("LITESTREAM_ROUNDS", "6"))
SEED = int(os.environ.get("LITESTREAM_SEED", str(int(time.time()))))
MONITOR_INTERVAL = 1.0  # seconds, Litestream's default
SYNC_INTERVAL = 1.0  # seconds, Litestream's default
MARGIN = 1.0  # seconds
BOUND = MONITOR_INTERVAL + SYNC_INTERVAL + MARGIN
ITEMS = 10  # item rows per transaction
RUN_MIN, RUN_MAX = 2.0, 6.0  # seconds of replication before the kill
WAIT = 30.0  # deadline of every wait for an event
TOTAL_DEADLINE = float(os.environ.get("LITESTREAM_DEADLINE", "300"))  # seconds for all the rounds

children = []


def log(message):
    print(message, flush=True)


def kill_children():
    for process in children:
        if process.poll() is None:
            try:
                process.kill()
                process.wait(timeout=5)
            except Exception:
                pass


def on_signal(signum, frame):
    kill_children()
    sys.exit(128 + signum)


class Failure(Exception):
    pass


def wait_until(predicate, what, deadline=WAIT, processes=()):
    end = time.monotonic() + deadline
    while True:
        value = predicate()
        if value:
            return value
        for process, name in processes:
            if process.poll() is not None:
                raise Failure(f"{name} exited with {process.returncode} while waiting for {what}")
        if time.monotonic() > end:
            raise Failure(f"timed out after {deadline:.0f} s waiting for {what}")
        time.sleep(0.02)


def read_lines(path):
    with open(path, "rb") as f:
        data = f.read()
    # A SIGKILL cannot cut a line (one write(2) each), but be safe: drop an
    # unterminated last line.
    lines = data.split(b"\n")
    return [line.decode() for line in lines[:-1]]


def parse_writer_output(path):
    acks = []  # (seq, t)
    stats = []  # dicts
    errors = []
    for line in read_lines(path):
        if line.startswith("ack "):
            _, seq, t = line.split()
            acks.append((int(seq), int(t)))
        elif line.startswith("stat "):
            stats.append({k: int(v) for k, v in re.findall(r"(\w+)=(-?\d+)", line)})
        elif line.startswith("error"):
            errors.append(line)
    return acks, stats, errors


def litestream_config(directory, db, replica):
    path = os.path.join(directory, "litestream.yml")
    with open(path, "w") as f:
        f.write(
            f"""logging:
  level: info
  stderr: true
dbs:
  - path: {db}
    monitor-interval: {MONITOR_INTERVAL:g}s
    replica:
      type: file
      path: {replica}
      sync-interval: {SYNC_INTERVAL:g}s
"""
        )
    return path


def replica_has_snapshot(replica):
    level0 = os.path.join(replica, "ltx", "0")
    return os.path.isdir(level0) and any(name.endswith(".ltx") for name in os.listdir(level0))


def check_restored(restored, local_db, items):
    """Returns the highest restored seq, or raises Failure."""
    connection = sqlite3.connect(f"file:{restored}?mode=ro", uri=True)
    try:
        result = connection.execute("PRAGMA integrity_check").fetchall()
        if result != [("ok",)]:
            raise Failure(f"integrity_check: {result[:5]}")
        count, low, high = connection.execute("SELECT COUNT(*), MIN(seq), MAX(seq) FROM txn").fetchone()
        if count == 0:
            return 0
        if low != 1 or high != count:
            raise Failure(f"txn seq not contiguous: {count} rows from {low} to {high}")
        bad = connection.execute(
            "SELECT COUNT(*) FROM txn WHERE items != ? OR (SELECT COUNT(*) FROM item WHERE item.seq = txn.seq) != ?",
            (items, items),
        ).fetchone()[0]
        if bad:
            raise Failure(f"{bad} partial transactions (a txn row without all its items)")
        item_count, wrong = connection.execute(
            "SELECT COUNT(*), COALESCE(SUM(k != seq * 1000 + i OR i < 0 OR i >= ?), 0) FROM item", (items,)
        ).fetchone()
        if item_count != count * items or wrong:
            raise Failure(f"item rows: {item_count} for {count} transactions, {wrong} with wrong values")
        orphans = connection.execute("SELECT COUNT(*) FROM item WHERE seq NOT IN (SELECT seq FROM txn)").fetchone()[0]
        if orphans:
            raise Failure(f"{orphans} item rows without their txn row (partial transaction)")
        # The restored rows are the writer's own: same `ts` as in the
        # writer's database (opened after the kill, SQLite recovers its WAL).
        connection.execute("ATTACH DATABASE ? AS local", (local_db,))
        local_high = connection.execute("SELECT COALESCE(MAX(seq), 0) FROM local.txn").fetchone()[0]
        if high > local_high:
            raise Failure(f"restored seq {high} beyond the writer's last commit {local_high}")
        same = connection.execute(
            "SELECT COUNT(*) FROM txn JOIN local.txn AS l USING (seq) WHERE txn.ts = l.ts AND txn.items = l.items"
        ).fetchone()[0]
        if same != count:
            raise Failure(f"only {same} of {count} restored txn rows match the writer's database")
        return high
    finally:
        connection.close()


def self_test(workdir):
    """The checks of check_restored catch what they must: a partial
    transaction, a missing one, rows the writer did not write."""
    local = os.path.join(workdir, "self-test-local.sqlite")
    connection = sqlite3.connect(local)
    connection.executescript(
        "CREATE TABLE txn (seq INTEGER PRIMARY KEY, ts INTEGER NOT NULL, items INTEGER NOT NULL);"
        "CREATE TABLE item (seq INTEGER NOT NULL, i INTEGER NOT NULL, k INTEGER NOT NULL,"
        " payload BLOB NOT NULL, PRIMARY KEY (seq, i));"
    )
    for seq in range(1, 6):
        connection.execute("INSERT INTO txn VALUES (?, ?, 3)", (seq, seq * 7))
        for i in range(3):
            connection.execute("INSERT INTO item VALUES (?, ?, ?, x'00')", (seq, i, seq * 1000 + i))
    connection.commit()
    connection.close()
    cases = [
        ("a whole copy", None, True),
        ("a prefix", "DELETE FROM item WHERE seq > 3; DELETE FROM txn WHERE seq > 3", True),
        ("a missing item", "DELETE FROM item WHERE seq = 2 AND i = 1", False),
        ("items without their txn", "DELETE FROM txn WHERE seq = 5", False),
        ("a gap", "DELETE FROM item WHERE seq = 3; DELETE FROM txn WHERE seq = 3", False),
        ("a wrong value", "UPDATE item SET k = 0 WHERE seq = 4 AND i = 2", False),
        ("a foreign txn row", "UPDATE txn SET ts = 0 WHERE seq = 1", False),
    ]
    for name, sql, valid in cases:
        copy = os.path.join(workdir, "self-test-copy.sqlite")
        shutil.copyfile(local, copy)
        if sql:
            connection = sqlite3.connect(copy)
            connection.executescript(sql)
            connection.commit()
            connection.close()
        try:
            check_restored(copy, local, 3)
            accepted = True
        except Failure:
            accepted = False
        os.remove(copy)
        if accepted != valid:
            raise Failure(f"self-test: the checks {'accept' if accepted else 'reject'} {name}")
    os.remove(local)


def run_round(index, mode, writer, litestream, rng, workdir):
    directory = os.path.join(workdir, f"round-{index}")
    os.makedirs(directory)
    db = os.path.join(directory, "db.sqlite")
    replica = os.path.join(directory, "replica")
    restored = os.path.join(directory, "restored.sqlite")
    writer_out = os.path.join(directory, "writer.out")
    config = litestream_config(directory, db, replica)

    with open(writer_out, "wb") as out, open(os.path.join(directory, "writer.err"), "wb") as err:
        writer_process = subprocess.Popen(
            [writer, "--db", db, "--items", str(ITEMS), "--max-seconds", "90"], stdout=out, stderr=err
        )
    children.append(writer_process)
    wait_until(
        lambda: os.path.exists(writer_out) and any(l.startswith("ready") for l in read_lines(writer_out)),
        "the writer to be ready",
        processes=[(writer_process, "the writer")],
    )

    with open(os.path.join(directory, "litestream.log"), "wb") as lslog:
        litestream_process = subprocess.Popen(
            [litestream, "replicate", "-config", config], stdout=lslog, stderr=subprocess.STDOUT
        )
    children.append(litestream_process)
    both = [(writer_process, "the writer"), (litestream_process, "litestream")]
    wait_until(lambda: replica_has_snapshot(replica), "the replica's first snapshot", processes=both)
    replicating_since = time.monotonic_ns()

    # Both run for a random time, the moment of the kill; either one exiting
    # before it ends the round (the wait returns at its exit).
    duration = rng.uniform(RUN_MIN, RUN_MAX)
    end = time.monotonic() + duration
    for process, name in both:
        try:
            process.wait(timeout=max(0.0, end - time.monotonic()))
        except subprocess.TimeoutExpired:
            continue
        raise Failure(f"{name} exited with {process.returncode} before the kill")

    if mode == "crash":
        litestream_kill = time.monotonic_ns()
        litestream_process.send_signal(signal.SIGKILL)
        writer_process.send_signal(signal.SIGKILL)
        writer_kill = litestream_kill
    else:
        writer_kill = time.monotonic_ns()
        writer_process.send_signal(signal.SIGKILL)
        writer_process.wait(timeout=WAIT)
        # Litestream gets the bound to ship what the writer committed.
        try:
            litestream_process.wait(timeout=BOUND)
            raise Failure(f"litestream exited with {litestream_process.returncode} before the kill")
        except subprocess.TimeoutExpired:
            pass
        litestream_kill = time.monotonic_ns()
        litestream_process.send_signal(signal.SIGKILL)
    for process, name in both:
        process.wait(timeout=WAIT)
        if process.returncode != -signal.SIGKILL:
            raise Failure(f"{name} ended with {process.returncode}, not by the SIGKILL")

    acks, stats, errors = parse_writer_output(writer_out)
    if errors:
        raise Failure(f"the writer failed: {errors[0]}")
    if not acks:
        raise Failure("the writer acknowledged no transaction")

    restore = subprocess.run(
        [litestream, "restore", "-o", restored, f"file://{replica}"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        timeout=120,
    )
    if restore.returncode != 0:
        raise Failure(f"litestream restore failed: {restore.stdout.decode()[-2000:]}")

    restored_high = check_restored(restored, db, ITEMS)

    limit = litestream_kill - int(BOUND * 1e9)
    required = [seq for seq, t in acks if t <= limit]
    missing_required = [seq for seq in required if seq > restored_high]
    lost = [(seq, t) for seq, t in acks if seq > restored_high]
    # The loss window actually seen: the age, at Litestream's kill, of the
    # oldest acknowledged transaction that the replica misses.
    window = (litestream_kill - lost[0][1]) / 1e9 if lost else 0.0
    problems = []
    if missing_required:
        problems.append(
            f"{len(missing_required)} transactions acknowledged more than {BOUND:g} s before the kill are lost"
            f" (seq {missing_required[0]}...{missing_required[-1]}, restored up to {restored_high})"
        )

    # Observation and checkpoints while Litestream held its read transaction.
    during = [s for s in stats if replicating_since <= s["t"] <= writer_kill]
    if len(during) < 4:
        raise Failure(f"only {len(during)} stat lines while replicating")
    first, last = during[0], during[-1]
    for key in ("observationErrors", "checkpointErrors"):
        if last[key] != 0:
            problems.append(f"{key} = {last[key]}")
    if last["deliveries"] <= first["deliveries"] or last["observed"] <= first["acked"]:
        problems.append(f"the observation stalled while replicating: {first} -> {last}")
    # The observation keeps up: its last value is at least what was
    # acknowledged one second before.
    earlier = [s for s in during if s["t"] <= last["t"] - 1_000_000_000]
    if earlier and last["observed"] < earlier[-1]["acked"]:
        problems.append(f"the observation lags by more than a second: {earlier[-1]} -> {last}")
    checkpoints = last["checkpoints"] - first["checkpoints"]
    complete = last["complete"] - first["complete"]
    if checkpoints <= 0:
        problems.append("no checkpoint ran while replicating")

    return {
        "mode": mode,
        "duration": duration,
        "acked": len(acks),
        "restored": restored_high,
        "required": len(required),
        "lost": len(lost),
        "lostBeyond": len(missing_required),
        "problems": problems,
        "window": window,
        "observed": last["deliveries"] - first["deliveries"],
        "checkpoints": checkpoints,
        "complete": complete,
        "walFrames": max(s["walFrames"] for s in during),
        "backfilled": max(s["backfilled"] for s in during),
        "maxCommit": last["maxCommitUs"] / 1000,
        "directory": directory,
    }


def main():
    if len(sys.argv) != 3:
        print("usage: driver.py WRITER LITESTREAM", file=sys.stderr)
        return 64
    writer, litestream = sys.argv[1], sys.argv[2]
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    rng = random.Random(SEED)
    workdir = tempfile.mkdtemp(prefix="strata-litestream-")
    log(
        f"litestream: {ROUNDS} rounds, seed {SEED}, monitor {MONITOR_INTERVAL:g} s + sync {SYNC_INTERVAL:g} s"
        f" + margin {MARGIN:g} s = bound {BOUND:g} s, in {workdir}"
    )
    try:
        self_test(workdir)
    except Failure as failure:
        log(f"litestream: FAILED: {failure}")
        log(f"litestream: 0 passed, {ROUNDS} failed")
        return 1
    started = time.monotonic()
    results, failures = [], 0
    try:
        for index in range(1, ROUNDS + 1):
            if time.monotonic() - started > TOTAL_DEADLINE:
                log(f"litestream: deadline of {TOTAL_DEADLINE:.0f} s reached after {index - 1} rounds")
                failures += 1
                break
            mode = "crash" if index % 2 == 1 else "app"
            try:
                r = run_round(index, mode, writer, litestream, rng, workdir)
            except (Failure, subprocess.TimeoutExpired) as failure:
                failures += 1
                log(f"round {index} ({mode}): FAILED: {failure} (files in {workdir}/round-{index})")
                continue
            finally:
                kill_children()
                children.clear()
            results.append(r)
            log(
                f"round {index} ({r['mode']}): replicated {r['duration']:.1f} s, acknowledged {r['acked']},"
                f" restored {r['restored']}, acknowledged {BOUND:g} s before the kill {r['required']},"
                f" lost beyond {BOUND:g} s: {r['lostBeyond']}, lost within: {r['lost'] - r['lostBeyond']}"
                f" (oldest {r['window']:.2f} s before the kill);"
                f" observation values {r['observed']}, passive checkpoints {r['checkpoints']}"
                f" ({r['complete']} complete, up to {r['backfilled']} frames copied),"
                f" WAL up to {r['walFrames']} frames, longest write {r['maxCommit']:.0f} ms"
            )
            if r["problems"]:
                failures += 1
                for problem in r["problems"]:
                    log(f"round {index} ({mode}): FAILED: {problem} (files in {r['directory']})")
            else:
                shutil.rmtree(r["directory"], ignore_errors=True)
    finally:
        kill_children()

    passed = sum(not r["problems"] for r in results)
    crashes = sum(r["mode"] == "crash" for r in results)
    lost_beyond = sum(r["lostBeyond"] for r in results)
    log(
        f"litestream summary: rounds {ROUNDS}, kills {len(results)}"
        f" ({crashes} of the writer and Litestream together, {len(results) - crashes} of the writer alone),"
        f" acknowledged {sum(r['acked'] for r in results)}, restored {sum(r['restored'] for r in results)},"
        f" lost beyond {BOUND:g} s: {lost_beyond},"
        f" lost within {BOUND:g} s: {sum(r['lost'] for r in results) - lost_beyond}"
        f" (largest window {max((r['window'] for r in results), default=0):.2f} s),"
        f" passive checkpoints {sum(r['checkpoints'] for r in results)}"
        f" ({sum(r['complete'] for r in results)} complete), write errors 0,"
        f" longest write {max((r['maxCommit'] for r in results), default=0):.0f} ms,"
        f" {time.monotonic() - started:.0f} s"
    )
    log(f"litestream: {passed} passed, {ROUNDS - passed} failed")
    if failures == 0:
        shutil.rmtree(workdir, ignore_errors=True)
    return 1 if failures else 0

if __name__ == "__main__":
    sys.exit(main())
