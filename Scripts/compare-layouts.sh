#!/usr/bin/env bash
# Wall clock over several code layouts (issue 34). The same sources run up to
# 7% faster or slower from one build to the next, as their code lands
# elsewhere in the processor's instruction cache; a single build of
# `compare` can not tell a change of the code from a change of its addresses.
# This script builds `compare` with N layouts (Benchmarks/Sources/CWorkloads/
# CodeLayout.swift, rewritten with 0 to N-1 paddings of about 1.4 KB, which
# move the code of Strata, GRDB and the workloads), runs the builds in turn,
# and prints, for each workload, Strata / C (multi-thread) in each layout
# (the best of its runs) and the mean over layouts; for each floor that the
# filter keeps, floor / C.
#
#   bash Scripts/compare-layouts.sh [--layouts N] [--runs R] [--rounds K] [filter]
#
# N layouts (default 4), each build run R times (default 3) with
# `compare --rounds K` (default 3); `filter` as for `compare`. Only the
# CWorkloads module and the link are rebuilt from one layout to the next.
# The committed CodeLayout.swift is restored at the end. Needs python3.
set -euo pipefail
script="$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
cd "$(dirname "$0")/../Benchmarks"

layouts=4
runs=3
rounds=3
filter=""
while [ $# -gt 0 ]; do
    case "$1" in
        --layouts) layouts="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        --rounds) rounds="$2"; shift 2 ;;
        -h | --help) sed -n '2,18p' "$script" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) filter="$1"; shift ;;
    esac
done

layout_file=Sources/CWorkloads/CodeLayout.swift
work="$(mktemp -d)"
cp "$layout_file" "$work/CodeLayout.swift.committed"
restore() {
    cp "$work/CodeLayout.swift.committed" "$layout_file"
    rm -rf "$work"
}
trap restore EXIT

for ((layout = 0; layout < layouts; layout++)); do
    if [ "$layout" -gt 0 ]; then
        # Calls to a function that the optimizer can not fold: about 13 bytes each.
        python3 - "$layout" "$layout_file" <<'PY'
import sys
layout, path = int(sys.argv[1]), sys.argv[2]
steps = "\n".join(f"        value = step(value, {i})" for i in range(layout * 110))
open(path, "w").write(f"""// Written by Scripts/compare-layouts.sh: layout {layout}. Do not commit.

public enum CodeLayout {{
    public static let index = {layout}

    @inline(never)
    static func step(_ value: Int, _ salt: Int) -> Int {{ value &* 31 &+ salt }}

    @inline(never)
    public static func pad(_ value: Int) -> Int {{
        var value = value
{steps}
        return value
    }}
}}
""")
PY
    else
        cp "$work/CodeLayout.swift.committed" "$layout_file"
    fi
    swift build -c release --product compare 2>&1 | tail -1 >&2
    cp .build/release/compare "$work/compare-$layout"
done

for ((run = 1; run <= runs; run++)); do
    for ((layout = 0; layout < layouts; layout++)); do
        echo "run $run, layout $layout" >&2
        if [ -n "$filter" ]; then
            "$work/compare-$layout" --rounds "$rounds" "$filter" >"$work/out-$layout-$run.txt"
        else
            "$work/compare-$layout" --rounds "$rounds" >"$work/out-$layout-$run.txt"
        fi
    done
done

python3 - "$work" "$layouts" "$runs" <<'PY'
import sys, statistics
work, layouts, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
ratios = {}  # workload -> layout -> [ratio]
order = []
for layout in range(layouts):
    for run in range(1, runs + 1):
        lines = open(f"{work}/out-{layout}-{run}.txt").read().splitlines()
        # The first table (medians of the rounds); its header names the columns.
        header = next(i for i, line in enumerate(lines) if line.startswith("| workload |"))
        columns = [c.strip() for c in lines[header].strip("|").split("|")]
        index = columns.index("Strata / C (mt)")
        for line in lines[header + 2:]:
            if not line.startswith("|"):
                break
            cells = [c.strip() for c in line.strip("|").split("|")]
            name = cells[0]
            if name not in ratios:
                ratios[name] = {}
                order.append(name)
            ratios[name].setdefault(layout, []).append(float(cells[index]))
        # The floors' table, when the filter keeps floors: floor / C.
        floors = [i for i, line in enumerate(lines) if line.startswith("| floor |")]
        for line in lines[floors[0] + 2:] if floors else []:
            if not line.startswith("|"):
                break
            cells = [c.strip() for c in line.strip("|").split("|")]
            name = "Floor: " + cells[0]
            if name not in ratios:
                ratios[name] = {}
                order.append(name)
            ratios[name].setdefault(layout, []).append(float(cells[-1]))
print(f"Strata / C (multi-thread), median of each run's rounds, best of {runs} runs per layout:\n")
print("| workload | " + " | ".join(f"layout {l}" for l in range(layouts)) + " | mean | range |")
print("|---|" + "---:|" * (layouts + 2))
for name in order:
    best = [min(ratios[name].get(l, [float("nan")])) for l in range(layouts)]
    print(f"| {name} | " + " | ".join(f"{b:.2f}" for b in best)
          + f" | {statistics.mean(best):.2f} | {min(best):.2f}-{max(best):.2f} |")
PY
