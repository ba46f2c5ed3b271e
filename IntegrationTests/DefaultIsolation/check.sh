#!/usr/bin/env bash
# Type-checks Leaderboard.swift, an app's model with live queries, as a module
# with Swift 6.2's default main-actor isolation would compile it, warnings as
# errors (issue 50). Needs the debug build of Strata (`swift build`).
set -euo pipefail
cd "$(dirname "$0")/../.."
modules=.build/debug/Modules
if [ ! -e "$modules/Strata.swiftmodule" ]; then
    echo "no $modules/Strata.swiftmodule: run swift build first" >&2
    exit 1
fi
swiftc -typecheck -swift-version 6 -default-isolation MainActor -warnings-as-errors \
    -I "$modules" -Xcc -fmodule-map-file=Sources/StrataSQLite/module.modulemap \
    IntegrationTests/DefaultIsolation/Leaderboard.swift
echo "default isolation: Leaderboard.swift compiles as MainActor-by-default code, with no warning"
