#!/usr/bin/env bash
# Load test of the example server, over Strata and over GRDB, and of its
# FluentKit build over Strata's driver and over fluent-sqlite-driver, on
# loopback.
#
#   ./load.sh                   # builds both servers in release, then runs wrk
#   DURATION=5s ./load.sh       # shorter runs
#   ROUNDS=3 ./load.sh          # the servers in turn, three times
#   SERVERS="strata strata+db-integrations" ./load.sh   # some of the servers only
#   SERVERS="strata strata+db:logging strata+db:metrics" ROUTES=read PIN=1 ./load.sh
#   SERVERS="fluent-strata fluent-sqlite" ROUNDS=3 ./load.sh   # Fluent's two drivers
#
# Each server runs in turn on 127.0.0.1 over a fresh database seeded with 100
# authors and 1000 books; wrk (apt-get install wrk) sends, for DURATION each, a
# read route (GET /authors/:id: an author and their books) and a write route
# (POST /authors/:id/books), with THREADS threads and CONNECTIONS connections.
# Runs, in each round: Strata and GRDB without the integrations (the same
# work); Strata with its integrations (logging, metrics, tracing and the
# diagnostics) but without Hummingbird's middleware (strata+db-integrations:
# the cost of Strata's integrations alone); then Strata with both
# (strata+integrations); then fluent-server, the same API written with
# FluentKit, on Strata's driver (fluent-strata) and on fluent-sqlite-driver
# (fluent-sqlite), each with the driver's defaults (Strata: a WAL pool;
# fluent-sqlite-driver: one connection per event loop, rollback journal);
# fluent-sqlite-wal runs fluent-sqlite-driver on a file in WAL mode
# (`--wal`), to tell the driver from the journal.
# SERVERS picks servers, run in the order given;
# besides those four, strata+db:LIST runs Strata with only the database
# reports of LIST (comma-separated: logging, metrics, tracing, diagnostics),
# without Hummingbird's middleware, to measure each report alone. ROUTES
# picks the routes (read, write).
#
# Not for CI: it takes a few minutes and its figures depend on the machine.
set -euo pipefail
cd "$(dirname "$0")"

PORT="${PORT:-18080}"
DURATION="${DURATION:-10s}"
THREADS="${THREADS:-2}"
CONNECTIONS="${CONNECTIONS:-32}"
ROUNDS="${ROUNDS:-1}"
SERVERS="${SERVERS:-strata grdb strata+db-integrations strata+integrations fluent-strata fluent-sqlite}"
ROUTES="${ROUTES:-read write}"
# PIN=1: the server on the first processor and wrk on the second (taskset),
# so that they do not compete for the same one: steadier figures, to compare
# servers within a few percent.
SERVER_PIN=""
WRK_PIN=""
if [ "${PIN:-0}" = 1 ]; then
    SERVER_PIN="taskset -c 0"
    WRK_PIN="taskset -c 1"
fi
AUTHORS=100
SCRATCH="${SCRATCH:-.build}"

command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }
command -v curl >/dev/null || { echo "curl is missing: apt-get install curl" >&2; exit 1; }

# The trait builds fluent-server with fluent-sqlite-driver too: every
# product is built with it, so that the builds share their modules.
BUILD=(swift build -c release --scratch-path "$SCRATCH" --traits FluentSQLiteDriver)
echo "== Building the servers in release"
"${BUILD[@]}" --product strata-server
"${BUILD[@]}" --product grdb-server
"${BUILD[@]}" --product fluent-server
BIN="$("${BUILD[@]}" --show-bin-path)"

WORK="$(mktemp -d)"
SERVER_PID=""
stop_server() {
    if [ -n "$SERVER_PID" ]; then
        kill -TERM "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
        SERVER_PID=""
    fi
}
cleanup() {
    stop_server
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# start_server NAME BINARY FLAGS...: a fresh seeded database, and a server
# listening on it.
start_server() {
    local name="$1" binary="$2"
    shift 2
    mkdir -p "$WORK/$name"
    $SERVER_PIN "$BIN/$binary" --database "$WORK/$name/library.sqlite" --hostname 127.0.0.1 --port "$PORT" \
        --seed-authors "$AUTHORS" --log-level warning "$@" >"$WORK/$name/server.log" 2>&1 &
    SERVER_PID=$!
    for _ in $(seq 100); do
        if curl -sf "http://127.0.0.1:$PORT/authors/1" >/dev/null; then return; fi
        if ! kill -0 "$SERVER_PID" 2>/dev/null; then break; fi
        sleep 0.1
    done
    echo "$name did not start:" >&2
    cat "$WORK/$name/server.log" >&2
    exit 1
}

RESULTS="$WORK/results"
: >"$RESULTS"

# server_cpu_ticks: the processor time the server has used (user and
# system, in clock ticks), from /proc.
server_cpu_ticks() {
    awk '{ print $14 + $15 }' "/proc/$SERVER_PID/stat"
}

# run_wrk NAME MODE: one bounded wrk run; appends a line to the results,
# with the server's processor time per request (µs): steadier than the
# requests per second on a shared or virtual machine, since time the
# server waits for a processor does not count.
run_wrk() {
    local name="$1" mode="$2" line before after requests cpu
    before="$(server_cpu_ticks)"
    line="$(MODE="$mode" AUTHORS="$AUTHORS" timeout 120 \
        $WRK_PIN wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --timeout 5s -s load/wrk.lua "http://127.0.0.1:$PORT" |
        grep '^RESULT')"
    after="$(server_cpu_ticks)"
    requests="$(echo "$line" | awk '{ print $3 }')"
    cpu="$(awk -v ticks="$((after - before))" -v hz="$(getconf CLK_TCK)" -v n="$requests" \
        'BEGIN { if (n > 0) printf "%.1f", ticks * 1e6 / hz / n; else print "-" }')"
    echo "$ROUND $name $mode ${line#RESULT } $cpu" | tee -a "$RESULTS"
}

run() {
    local name="$1" binary="$2"
    shift 2
    echo "== $name (load average $(cut -d' ' -f1 /proc/loadavg))"
    rm -rf "${WORK:?}/$name"
    start_server "$name" "$binary" "$@"
    for route in $ROUTES; do run_wrk "$name" "$route"; done
    if [[ "$name" == *integrations || "$name" == strata+db:*metrics* ]]; then
        echo "-- GET /metrics (database lines)"
        curl -sf "http://127.0.0.1:$PORT/metrics" | grep -E '^strata_(access_wait|transactions|readers)' || true
    fi
    stop_server
}

echo "== $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "   wrk -t$THREADS -c$CONNECTIONS -d$DURATION, server and wrk on the same machine${SERVER_PIN:+ (server on processor 0, wrk on 1)}"
for ROUND in $(seq "$ROUNDS"); do
    for server in $SERVERS; do
        case "$server" in
            strata) run strata strata-server --no-integrations ;;
            grdb) run grdb grdb-server --no-integrations ;;
            strata+db-integrations) run "$server" strata-server --integrations --no-middleware ;;
            strata+integrations) run "$server" strata-server --integrations ;;
            fluent-strata) run "$server" fluent-server --driver strata ;;
            fluent-sqlite) run "$server" fluent-server --driver fluent-sqlite-driver ;;
            fluent-sqlite-wal) run "$server" fluent-server --driver fluent-sqlite-driver --wal ;;
            strata+db:*)
                run "$server" strata-server --integrations --no-middleware --database-reports "${server#strata+db:}"
                ;;
            *)
                echo "unknown server $server" >&2
                exit 1
                ;;
        esac
    done
done

echo
echo "| Round | Server | Route | Requests/s | p50 (ms) | p99 (ms) | Requests | Errors | Server CPU µs/request |"
echo "|---:|---|---|---:|---:|---:|---:|---:|---:|"
while read -r round name mode rps requests errors p50 p99 cpu; do
    case "$mode" in
        read) route="GET /authors/:id" ;;
        write) route="POST /authors/:id/books" ;;
    esac
    echo "| $round | $name | $route | $rps | $p50 | $p99 | $requests | $errors | $cpu |"
done <"$RESULTS"
