#!/usr/bin/env bash
# Builds the DocC catalogue (Sources/Strata/Strata.docc) into .build-docs/Strata.doccarchive,
# and fails on any warning (an unresolved symbol link, an undocumented parameter...).
# It needs no plugin: the compiler emits the symbol graphs, and the toolchain's
# `docc` converts them with the articles.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=.build-docs
graphs="$scratch/symbol-graphs"
# The graphs of an earlier run stay: a build that compiles nothing writes none.
rm -rf "$scratch/strata-graphs"
mkdir -p "$graphs" "$scratch/strata-graphs"
swift build --target Strata --scratch-path "$scratch" \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs"
# Only Strata's graphs: the dependencies are documented by their own packages.
cp "$graphs"/Strata.symbols.json "$graphs"/Strata@*.symbols.json "$scratch/strata-graphs/"

docc convert Sources/Strata/Strata.docc \
    --additional-symbol-graph-dir "$scratch/strata-graphs" \
    --fallback-display-name Strata \
    --fallback-bundle-identifier org.strata.Strata \
    --output-path "$scratch/Strata.doccarchive" 2>&1 | tee "$scratch/docc.log"

warnings=$(grep -c "warning:" "$scratch/docc.log" || true)
if [ "$warnings" != "0" ]; then
    echo "docc: $warnings warning(s)" >&2
    exit 1
fi
echo "docc: the catalogue builds with no warning ($scratch/Strata.doccarchive)"
