#!/usr/bin/env python3
"""The code a workload runs for every row, in instruction-cache lines (issue 34).

Wall clock follows the instruction cache as much as the instruction count:
SQLite's own insert runs about 250 lines of 64 bytes per row, and the
processor's first-level instruction cache holds 512 (32 KB), in 64 sets of 8
lines chosen by the address bits 6 to 11. A set that more than 8 of a row's
lines fall into misses on each of them at every row. This script reads a
callgrind profile made with `--dump-instr=yes` and prints, for the code
executed at least 98% of ROWS times (about once a row: a first or last row
may take another path):

- the lines per object (the program, SQLite, the Swift runtime, libc);
- the hot instructions of one object (`--object`), and the lines they would
  take packed together;
- the sets that more than WAYS hot lines fall into, and their excess lines;
- with `--functions N`, the N functions with the most hot lines.

Objects are mapped at page boundaries, so the set of an address is the same
in the file and in the process.

    cd Benchmarks && valgrind --tool=callgrind --dump-instr=yes \\
        --callgrind-out-file=/tmp/cg.insert --toggle-collect='*profiledRegion*' \\
        .build/release/strata-profile insert
    python3 ../Scripts/callgrind-code-lines.py /tmp/cg.insert 50000 --functions 20
"""

import argparse
import collections
import re

LINE = 64


def parse(path, rows):
    """Hot lines as {(object, line): executions}, and {(object, function): lines}."""
    names = {}

    def name(kind, text):
        # Callgrind compresses names: "(id) name" the first time, "(id)" after.
        match = re.match(r"\((\d+)\)(?: (.*))?", text)
        if not match:
            return text
        key = (kind, match.group(1))
        if match.group(2):
            names[key] = match.group(2)
        return names.get(key, "?")

    kinds = {"ob": "ob", "fn": "fn", "fl": "fl", "fi": "fl", "fe": "fl",
             "cob": "ob", "cfn": "fn", "cfi": "fl", "cfl": "fl"}
    obj = function = None
    address = 0
    call_cost_next = False
    executions = collections.defaultdict(int)
    instructions = set()
    functions = collections.defaultdict(set)
    for raw in open(path):
        line = raw.rstrip("\n")
        if not line:
            continue
        key, _, value = line.partition("=")
        if key in kinds and value:
            named = name(kinds[key], value)
            if key == "ob":
                obj = named
            elif key == "fn":
                function = named
            continue
        if line.startswith("calls="):
            # The next cost line is the call's inclusive cost, not executions.
            call_cost_next = True
            continue
        if line[0] not in "0123456789+-*":
            continue
        fields = line.split()
        position = fields[0]
        if position.startswith("0x"):
            address = int(position, 16)
        elif position[0] in "+-":
            step = int(position[1:], 0)
            address += step if position[0] == "+" else -step
        if call_cost_next:
            call_cost_next = False
            continue
        if len(fields) < 3 or obj is None:
            continue
        count = int(fields[2])
        key = (obj.split("/")[-1], address // LINE)
        executions[key] = max(executions[key], count)
        if count >= rows:
            instructions.add((key[0], address))
            functions[(key[0], function)].add(address // LINE)
    hot = {key: count for key, count in executions.items() if count >= rows}
    return hot, instructions, functions


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("profile", help="callgrind output, made with --dump-instr=yes")
    parser.add_argument("rows", type=int, help="rows of the workload: code run at least this often is hot")
    parser.add_argument("--object", default="strata-profile", help="object whose hot instructions to count")
    parser.add_argument("--ways", type=int, default=8, help="ways of the instruction cache (8)")
    parser.add_argument("--sets", type=int, default=64, help="sets of the instruction cache (64: 32 KB)")
    parser.add_argument("--functions", type=int, default=0, help="list the N functions with the most hot lines")
    arguments = parser.parse_args()

    hot, instructions, functions = parse(arguments.profile, arguments.rows * 98 // 100)
    per_object = collections.Counter(obj for obj, _ in hot)
    print(f"hot lines: {len(hot)} ({dict(per_object.most_common())})")
    mine = [address for obj, address in instructions if obj == arguments.object]
    print(f"{arguments.object}: {len(mine)} hot instructions on {len({a // LINE for a in mine})} lines "
          f"(about {len(mine) * 4 // LINE} lines packed, at 4 bytes an instruction)")
    per_set = collections.Counter(line % arguments.sets for _, line in hot)
    over = {s: n for s, n in per_set.items() if n > arguments.ways}
    print(f"sets over {arguments.ways} ways: {len(over)}, excess lines: {sum(n - arguments.ways for n in over.values())}, "
          f"fullest set: {max(per_set.values()) if per_set else 0}")
    if arguments.functions:
        ranked = sorted(functions.items(), key=lambda item: -len(item[1]))
        for (obj, function), lines in ranked[: arguments.functions]:
            print(f"{len(lines):4} {obj} {function}")


if __name__ == "__main__":
    main()
