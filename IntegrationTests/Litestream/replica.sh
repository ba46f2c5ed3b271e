#!/usr/bin/env bash
# A read replica served by Strata, tested for real: the example server writes
# as the primary while `litestream replicate` ships its database; a second
# example server, started with `--replica-of`, follows it with
# `litestream restore -f` and must serve every write, and its `/events`, within
# a bound, including after its follower is killed. See replica.py.
#
#     bash IntegrationTests/Litestream/replica.sh
#
# It builds the example server (Examples/StrataServer, debug) unless
# STRATA_SERVER names a strata-server binary. REPLICA_BOOKS (default 40) and
# REPLICA_BOUND (seconds, default 10) change the run.
set -euo pipefail
cd "$(dirname "$0")"

source ./litestream.sh
echo "litestream: $("$LITESTREAM" version) at $LITESTREAM"

if [ -z "${STRATA_SERVER:-}" ]; then
    (cd ../../Examples/StrataServer && swift build --product strata-server)
    STRATA_SERVER="$(cd ../../Examples/StrataServer && swift build --show-bin-path)/strata-server"
fi

# Bounded: every wait in the driver has a deadline, and this ends it if
# anything hangs.
timeout --kill-after=10 300 python3 replica.py "$STRATA_SERVER" "$LITESTREAM"
