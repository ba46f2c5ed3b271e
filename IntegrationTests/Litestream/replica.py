#!/usr/bin/env python3
"""A read replica served by Strata, with Litestream's follow mode, tested for
real (run by replica.sh).

In a fresh directory:

1. The primary: `strata-server` (the example server) over `primary.sqlite`,
   and `litestream replicate` streaming it to a file replica (monitor and sync
   intervals of 100 ms).
2. The replica: `strata-server --replica-of file://...`, which runs
   `litestream restore -f` (the follower) into `replica.sqlite`, restarts it
   when it stops, and serves the read routes and `/events` from a
   `DatabaseReplica`.
3. A client opens the replica's `/events` stream, then posts books to the
   primary, one at a time. After each, it reads the replica's `GET /books`
   until the new book is there, and measures how long that took.
4. Halfway, the follower is killed with SIGKILL. The replica server restarts
   it (Litestream 0.5.17 can't resume following without a newer snapshot, so
   the restarted follower restores the database again), and the posts go on.

Checks: every book posted is served by the replica within BOUND seconds
(the restart included); the replica's books are the primary's, in the end;
the `/events` stream delivered counts that never go down, and its last count
is the final number of books; the replica answers POSTs with 405; the
follower was restarted once.

Prints the latencies (median, p90, max) and ends with the plain line
`replica: passed` or `replica: failed`. Exits non-zero on a failure.
"""

import http.client
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

BOOKS = int(os.environ.get("REPLICA_BOOKS", "40"))
# Litestream's monitor and sync intervals (100 ms each), the follower's poll
# (100 ms), the replica's look at the locks (10 ms), and a wide margin for a
# loaded 2-core machine. The restart after the kill restores the whole
# database again: it gets the same bound.
BOUND = float(os.environ.get("REPLICA_BOUND", "10"))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def request(port, method, path, body=None, timeout=10):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def wait_until(description, condition, timeout):
    """Polls `condition` (an HTTP request, or a process's state) every 20 ms."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if condition():
                return
        except OSError:
            pass
        time.sleep(0.02)
    raise TimeoutError(f"timed out after {timeout} s: {description}")


class EventReader(threading.Thread):
    """Reads the replica's `/events` stream, and keeps each count."""

    def __init__(self, port):
        super().__init__(daemon=True)
        self.port = port
        self.counts = []
        self.error = None
        self.connection = None

    def run(self):
        try:
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
            self.connection.request("GET", "/events")
            response = self.connection.getresponse()
            for line in response:
                line = line.decode().strip()
                if line.startswith("data: "):
                    self.counts.append(json.loads(line[len("data: "):])["count"])
        except Exception as error:  # noqa: BLE001 - reported by the check
            if self.connection is not None:
                self.error = error

    def stop(self):
        connection, self.connection = self.connection, None
        if connection is not None and connection.sock is not None:
            connection.sock.shutdown(socket.SHUT_RDWR)


def main():
    server, litestream = sys.argv[1], sys.argv[2]
    directory = tempfile.mkdtemp(prefix="strata-replica-")
    processes = []
    failures = []
    environment = dict(os.environ, LOG_LEVEL="warning")

    def start(arguments, log):
        process = subprocess.Popen(
            arguments, stdout=open(os.path.join(directory, log), "w"), stderr=subprocess.STDOUT,
            env=environment, start_new_session=True)
        processes.append(process)
        return process

    try:
        primary_port, replica_port = free_port(), free_port()
        backup = "file://" + os.path.join(directory, "backup")
        start([server, "--database", os.path.join(directory, "primary.sqlite"), "--port", str(primary_port),
               "--no-integrations"], "primary.log")
        wait_until("the primary answers", lambda: request(primary_port, "GET", "/authors")[0] == 200, 60)
        with open(os.path.join(directory, "litestream.yml"), "w") as config:
            config.write(
                "dbs:\n"
                f"  - path: {os.path.join(directory, 'primary.sqlite')}\n"
                "    monitor-interval: 100ms\n"
                "    replicas:\n"
                f"      - url: {backup}\n"
                "        sync-interval: 100ms\n")
        start([litestream, "replicate", "-config", os.path.join(directory, "litestream.yml")], "replicate.log")
        status, body = request(primary_port, "POST", "/authors", {"name": "Ursula K. Le Guin"})
        assert status == 201, (status, body)
        author = json.loads(body)["id"]
        # The replica needs a first restore: Litestream must have shipped
        # something.
        wait_until("Litestream ships the primary", lambda: os.path.isdir(os.path.join(directory, "backup", "ltx")), 30)
        start([server, "--database", os.path.join(directory, "replica.sqlite"), "--port", str(replica_port),
               "--no-integrations", "--replica-of", backup, "--litestream", litestream], "replica.log")
        wait_until("the replica answers", lambda: request(replica_port, "GET", "/replica")[0] == 200, 90)

        status, _ = request(replica_port, "POST", "/authors", {"name": "Nobody"})
        if status != 405:
            failures.append(f"a POST to the replica answered {status}, not 405")

        events = EventReader(replica_port)
        events.start()
        wait_until("the first event", lambda: len(events.counts) > 0, 30)

        latencies = []
        killed_follower = None
        for number in range(1, BOOKS + 1):
            if number == BOOKS // 2:
                killed_follower = json.loads(request(replica_port, "GET", "/replica")[1])["followerProcess"]
                os.kill(killed_follower, signal.SIGKILL)
            status, body = request(primary_port, "POST", f"/authors/{author}/books",
                                   {"title": f"Book {number}", "year": 2000})
            assert status == 201, (status, body)
            book = json.loads(body)["id"]
            posted = time.monotonic()

            def served():
                status, body = request(replica_port, "GET", "/books?limit=1")
                return status == 200 and any(item["book"]["id"] == book for item in json.loads(body))

            try:
                wait_until(f"the replica serves book {book}", served, BOUND)
                latencies.append(time.monotonic() - posted)
            except TimeoutError as error:
                failures.append(str(error))
                break

        primary_books = json.loads(request(primary_port, "GET", "/books?limit=100")[1])
        replica_books = json.loads(request(replica_port, "GET", "/books?limit=100")[1])
        if primary_books != replica_books:
            failures.append(f"the replica serves {len(replica_books)} books, the primary {len(primary_books)}")
        try:
            wait_until("the last event", lambda: events.counts and events.counts[-1] == len(primary_books), BOUND)
        except TimeoutError as error:
            failures.append(f"{error}: events {events.counts[-5:]}")
        if events.counts != sorted(events.counts):
            failures.append(f"the event counts went down: {events.counts}")
        if events.error is not None:
            failures.append(f"the event stream failed: {events.error}")
        status = json.loads(request(replica_port, "GET", "/replica")[1])
        if status["followerRestarts"] < 1 or status["followerProcess"] == killed_follower:
            failures.append(f"the follower was not restarted: {status}")
        events.stop()

        if latencies:
            ordered = sorted(latencies)
            print(f"replica: {len(latencies)} books, from the primary's commit to the replica's GET: "
                  f"median {statistics.median(ordered) * 1000:.0f} ms, "
                  f"p90 {ordered[int(len(ordered) * 0.9) - 1] * 1000:.0f} ms, max {ordered[-1] * 1000:.0f} ms; "
                  f"{len(events.counts)} events; follower restarts {status['followerRestarts']}")
    except Exception as error:  # noqa: BLE001 - any failure fails the test
        failures.append(f"{type(error).__name__}: {error}")
    finally:
        for process in reversed(processes):
            try:
                os.killpg(process.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        for process in processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
        # The replica server's follower runs in the server's process group.
        subprocess.run(["pkill", "-f", f"restore -f .*{directory}"], check=False)

    for failure in failures:
        print(f"FAILED: {failure}")
    if failures:
        print(f"replica: failed (the logs are in {directory})")
        sys.exit(1)
    shutil.rmtree(directory, ignore_errors=True)
    print("replica: passed")


if __name__ == "__main__":
    main()
