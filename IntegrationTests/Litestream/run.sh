#!/usr/bin/env bash
# Replication with Litestream, tested for real: a Strata writer is killed with
# SIGKILL while `litestream replicate` streams its database to a file replica,
# and `litestream restore` must give back every transaction acknowledged more
# than the replication interval before the kill, and no partial one.
# See driver.py for what each round does and checks.
#
#     bash IntegrationTests/Litestream/run.sh
#
# LITESTREAM_ROUNDS (default 6), LITESTREAM_SEED (default: the time) and
# LITESTREAM_DEADLINE (seconds, default 300: no round starts after it) change
# the rounds; LITESTREAM=/path/to/litestream skips the install.
set -euo pipefail
cd "$(dirname "$0")"

source ./litestream.sh
echo "litestream: $("$LITESTREAM" version) at $LITESTREAM"

# The writer: a debug build, faster to build than a release one, and fast
# enough (hundreds of transactions a second).
swift build --scratch-path .build --product litestream-writer
WRITER="$(swift build --scratch-path .build --show-bin-path)/litestream-writer"

# The whole test is bounded: the driver starts no round after its deadline,
# every wait in a round has one, and this timeout ends it if anything hangs.
DEADLINE="${LITESTREAM_DEADLINE:-300}"
timeout --kill-after=10 "$((${DEADLINE%.*} + 120))" python3 driver.py "$WRITER" "$LITESTREAM"
