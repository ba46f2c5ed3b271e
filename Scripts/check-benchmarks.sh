#!/usr/bin/env bash
# The benchmark check (issue 29): builds Benchmarks/'s `bench-check` in release
# (Strata and the C workloads, not GRDB), counts each workload's instructions
# and allocations with callgrind, and compares them with
# Benchmarks/Thresholds/callgrind.txt. Fails when a count goes above its
# threshold by more than the file's tolerance, with a table of every count.
#
#   bash Scripts/check-benchmarks.sh                  # check every workload
#   bash Scripts/check-benchmarks.sh by-name insert   # check these only
#   bash Scripts/check-benchmarks.sh --update         # rewrite the thresholds from this run
#   bash Scripts/check-benchmarks.sh --update insert  # rewrite these lines only
#
# The keyed-reads-* workloads (issue 34: Strata's logging, metrics and tracing
# integrations) come from a second build, with the Benchmarks package's trait
# Integrations, in a folder of its own (.build-integrations): the other
# workloads keep a build that links none of the integrations' packages.
# BENCH_SCRATCH=.build-mine uses .build-mine and .build-mine-integrations.
#
# Needs valgrind (CI installs it) and awk; installs nothing. See
# Benchmarks/RESULTS.md, "The benchmark check in CI".
set -euo pipefail
script="$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
cd "$(dirname "$0")/../Benchmarks"

thresholds=Thresholds/callgrind.txt
update=0
only=()
for arg in "$@"; do
    case "$arg" in
        --update) update=1 ;;
        -h | --help)
            sed -n '2,20p' "$script" | sed 's/^# \{0,1\}//'
            exit 0
            ;;
        -*)
            echo "unknown option $arg (--update, --help)" >&2
            exit 2
            ;;
        *) only+=("$arg") ;;
    esac
done

if ! command -v valgrind >/dev/null; then
    echo "check-benchmarks: valgrind is missing (apt-get install valgrind)" >&2
    exit 2
fi

# After files are added or moved in ../Sources, SwiftPM does not always plan
# the build of this package again: the build fails with "missing inputs" (the
# old paths) or "cannot find type" (a new file not compiled). Removing the
# plan first makes it plan again, for a few seconds.
scratch="${BENCH_SCRATCH:-.build}"
rm -f "$scratch/release.yaml" "$scratch-integrations/release.yaml"
swift build -c release --scratch-path "$scratch" --product bench-check
bin="$(swift build -c release --scratch-path "$scratch" --product bench-check --show-bin-path)/bench-check"

# The second build, only when a keyed-reads-* workload is to run.
integrations=()
needs_integrations=1
if [ ${#only[@]} -gt 0 ]; then
    needs_integrations=0
    for w in "${only[@]}"; do
        if [[ "$w" == keyed-reads-* ]]; then needs_integrations=1; fi
    done
fi
if [ "$needs_integrations" = 1 ]; then
    swift build -c release --scratch-path "$scratch-integrations" --traits Integrations --product bench-check
    integrations_bin="$(swift build -c release --scratch-path "$scratch-integrations" --traits Integrations \
        --product bench-check --show-bin-path)/bench-check"
    mapfile -t integrations < <("$integrations_bin" list | grep '^keyed-reads-')
fi
# Every workload, in the order of the thresholds file.
all_workloads() {
    "$bin" list
    if [ ${#integrations[@]} -gt 0 ]; then printf '%s\n' "${integrations[@]}"; fi
}
# binary_of WORKLOAD: the build that has it.
binary_of() {
    if [[ "$1" == keyed-reads-* ]]; then echo "$integrations_bin"; else echo "$bin"; fi
}

workloads=()
if [ ${#only[@]} -gt 0 ]; then
    known=" $(all_workloads | tr '\n' ' ') "
    for w in "${only[@]}"; do
        if [[ "$known" != *" $w "* ]]; then
            echo "unknown workload $w; $bin list lists them" >&2
            exit 2
        fi
    done
    workloads=("${only[@]}")
else
    mapfile -t workloads < <(all_workloads)
fi

# Sums the calls to the C allocator's entry points that a callgrind output
# file records (callgrind counts calls, not only instructions). Calls that the
# allocator makes to itself (posix_memalign to malloc) are not counted again.
count_allocations() {
    awk '
        function name(spec,   id, rest) {
            if (match(spec, /^\([0-9]+\)/)) {
                id = substr(spec, 2, RLENGTH - 2)
                rest = substr(spec, RLENGTH + 1)
                sub(/^ /, "", rest)
                if (rest != "") names[id] = rest
                return names[id]
            }
            return spec
        }
        BEGIN {
            split("malloc calloc realloc posix_memalign aligned_alloc memalign", a, " ")
            for (i in a) alloc[a[i]] = 1
        }
        /^fn=/ { caller = name(substr($0, 4)); next }
        /^cfn=/ { callee = name(substr($0, 5)); next }
        /^calls=/ {
            split(substr($0, 7), c, " ")
            if ((callee in alloc) && !(caller in alloc) && caller !~ /^_(int|mid)_/) total += c[1]
        }
        END { print total + 0 }
    ' "$1"
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Each workload runs once, in a process of its own; only `profiledRegion`
# (the measured part, not the filling of its database) is counted. Swift's
# hashing gets a fixed seed: with a random one, Strata's counts varied by up
# to 0.03% between runs (the layout of its dictionaries); with it, none.
declare -A instructions allocations
for w in "${workloads[@]}"; do
    start=$SECONDS
    if ! SWIFT_DETERMINISTIC_HASHING=1 nice -n 5 valgrind --tool=callgrind --toggle-collect='*profiledRegion*' \
        --callgrind-out-file="$work/$w.out" --log-file="$work/$w.log" "$(binary_of "$w")" "$w" >"$work/$w.stdout"; then
        echo "check-benchmarks: $w failed under valgrind:" >&2
        cat "$work/$w.log" "$work/$w.stdout" >&2
        exit 1
    fi
    instructions[$w]=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$work/$w.log")
    allocations[$w]=$(count_allocations "$work/$w.out")
    printf '%-22s %13s instructions %8s allocations  (%ds)\n' \
        "$w" "${instructions[$w]}" "${allocations[$w]}" $((SECONDS - start))
done

if [ "$update" = 1 ]; then
    # Keeps the tolerance and the lines of the workloads that did not run.
    tolerance="tolerance 0.5 0"
    declare -A old_instructions old_allocations
    if [ -f "$thresholds" ]; then
        tolerance=$(grep '^tolerance ' "$thresholds" || echo "$tolerance")
        while read -r w i a; do
            old_instructions[$w]=$i
            old_allocations[$w]=$a
        done < <(grep -v -e '^#' -e '^tolerance ' -e '^[[:space:]]*$' "$thresholds")
    fi
    mkdir -p "$(dirname "$thresholds")"
    {
        cat <<'EOF'
# The thresholds of the benchmark check (Scripts/check-benchmarks.sh, run by
# .ci/run): for each workload of `bench-check` (Benchmarks/Sources/bench-check,
# strata-profile's single-thread Strata and C workloads on smaller tables),
# the instructions that callgrind counts in its measured part
# (--toggle-collect='*profiledRegion*') and its calls to malloc, calloc,
# realloc and posix_memalign there (SQLite's included).
#
# The check fails when a count goes above its threshold by more than the
# tolerance below (percent of the threshold: instructions, then
# allocations, where 0 means that any allocation more fails).
# Runs of the same build give the same counts (Swift's hashing has a fixed
# seed in the runs; with a random one, Strata's instructions varied by up
# to 0.03%). 0.5% lets code layout move (0.34% seen when an unrelated change
# moved an inlining) and catches two more instructions per column lookup by
# name (+0.7% and +0.9%; see RESULTS.md, "The benchmark check in CI").
#
# When a change is meant to cost more (or less), run
#     bash Scripts/check-benchmarks.sh --update
# (or --update with workload names, for their lines only), and commit this
# file with the change; its commit message gives the old and new counts and
# says why. Counts depend on the toolchain, SQLite and valgrind: update them
# when one of those changes, in a commit of its own.
EOF
        echo "$tolerance"
        echo "# workload instructions allocations"
        while read -r w; do
            i=${instructions[$w]:-${old_instructions[$w]:-}}
            a=${allocations[$w]:-${old_allocations[$w]:-}}
            if [ -n "$i" ]; then printf '%-22s %13s %8s\n' "$w" "$i" "$a"; fi
        done < <(
            {
                "$bin" list
                # The keyed-reads-* lines, from this run or kept from the file.
                grep -o '^keyed-reads-[^ ]*' "$thresholds" 2>/dev/null || true
                if [ ${#integrations[@]} -gt 0 ]; then printf '%s\n' "${integrations[@]}"; fi
            } | awk '!seen[$0]++'
        )
    } >"$work/thresholds"
    mv "$work/thresholds" "$thresholds"
    echo "check-benchmarks: wrote Benchmarks/$thresholds"
    exit 0
fi

if [ ! -f "$thresholds" ]; then
    echo "check-benchmarks: no Benchmarks/$thresholds; write it with --update" >&2
    exit 1
fi
read -r _ instruction_tolerance allocation_tolerance < <(grep '^tolerance ' "$thresholds")
declare -A max_instructions max_allocations
while read -r w i a; do
    max_instructions[$w]=$i
    max_allocations[$w]=$a
done < <(grep -v -e '^#' -e '^tolerance ' -e '^[[:space:]]*$' "$thresholds")

# One row per workload and count: threshold, measured, change, verdict.
failed=0
table=$(
    printf '| %-20s | %-12s | %13s | %13s | %9s | %s |\n' workload count threshold measured delta verdict
    printf '|%s|%s|%s|%s|%s|%s|\n' ---------------------- -------------- --------------: --------------: ----------: ---
    for w in "${workloads[@]}"; do
        for kind in instructions allocations; do
            if [ "$kind" = instructions ]; then
                measured=${instructions[$w]}
                threshold=${max_instructions[$w]:-}
                tolerance=$instruction_tolerance
            else
                measured=${allocations[$w]}
                threshold=${max_allocations[$w]:-}
                tolerance=$allocation_tolerance
            fi
            if [ -z "$threshold" ]; then
                printf '| %-20s | %-12s | %13s | %13s | %9s | %s |\n' "$w" "$kind" "none" "$measured" "" \
                    "FAIL: no threshold (--update $w)"
                continue
            fi
            awk -v w="$w" -v k="$kind" -v t="$threshold" -v m="$measured" -v tol="$tolerance" 'BEGIN {
                delta = t == 0 ? (m == 0 ? 0 : 100) : (m - t) * 100 / t
                verdict = "ok"
                if (delta > tol) verdict = "FAIL: above the tolerance (" tol "%)"
                else if (delta < -tol) verdict = "ok, below: lower the threshold (--update " w ")"
                printf "| %-20s | %-12s | %13d | %13d | %+8.3f%% | %s |\n", w, k, t, m, delta, verdict
            }'
        done
    done
)
echo
echo "$table"
echo
if grep -q 'FAIL' <<<"$table"; then failed=1; fi

# Targets relative to a floor counted in the same run (issue 46): the
# instructions of a workload may not exceed its floor's times the factor.
# A floor is a C program with the costs that no implementation of GRDB's API
# can avoid (Benchmarks/RESULTS.md), so the target moves with the machine,
# the toolchain and SQLite as the floor does. Checked when both ran.
ratio_targets=(
    # workload          floor                           factor
    "records-decodable  c-mt-records-decodable-floor    1.05"
)
for target in "${ratio_targets[@]}"; do
    read -r w floor factor <<<"$target"
    if [ -z "${instructions[$w]:-}" ] || [ -z "${instructions[$floor]:-}" ]; then continue; fi
    if ! awk -v w="$w" -v f="$floor" -v m="${instructions[$w]}" -v b="${instructions[$floor]}" -v x="$factor" 'BEGIN {
        ratio = m / b
        verdict = ratio <= x ? "ok" : "FAIL: above the target"
        printf "target: %s / %s = %.4f (at most %s): %s\n", w, f, ratio, x, verdict
        exit ratio <= x ? 0 : 1
    }'; then
        failed=1
    fi
done
if [ "$failed" = 1 ]; then
    echo "check-benchmarks: FAILED. A count went above its threshold (Benchmarks/$thresholds)," >&2
    echo "or a workload above its target relative to its floor (ratio_targets, above)." >&2
    echo "Find the cause with callgrind_annotate (Benchmarks/RESULTS.md, \"The benchmark check in CI\");" >&2
    echo "if the cost is meant, run: bash Scripts/check-benchmarks.sh --update, and say why in the commit." >&2
    exit 1
fi
echo "check-benchmarks: every count is within its tolerance."
