#!/usr/bin/env bash
# Counts Core's upward references, by kind, and fails when Core names an
# upper layer outside the kinds listed in Scripts/layering-allowed.txt
# (issue 29; the rules are explained in Sources/Strata/Strata.docc/Architecture.md).
#
# An upper layer is any folder of Sources/Strata other than Core. Its names
# are the types it declares at the top level (or in an extension of a type of
# another folder), and the functions, properties and enum cases it declares as
# members. A line of Sources/Strata/Core (any file, any depth) counts when it
# names one of them, and Core declares no name of the same spelling. Comments
# and the text of string literals are skipped; interpolated code is read.
# Only identifiers are matched: files and line numbers don't matter.
#
# The check is lexical (no type checker), so:
# - a member of an upper layer that Core also declares (`isEmpty`,
#   `statementWillExecute`) is not counted where it is called; the lines that
#   reach an upper layer through a Core property of an upper-layer type
#   (`observationBroker`) are counted apart, under that type's kind, and are
#   not checked (the property's declaration is);
# - a name of the standard library that an upper layer declares too is
#   listed as a `homonym` in the data file.
#
# Usage: bash Scripts/check-layering.sh [-v]
#   -v  also lists every counted line, by kind.
# Exit status: 0 when every line is of a listed kind within its budget, 1
# otherwise (the offending lines are printed), 2 on a malformed data file.
# It needs python3 and nothing else.
set -euo pipefail
cd "$(dirname "$0")/.."

python3 - "$@" <<'PY'
import collections
import os
import re
import sys

SOURCES = "Sources/Strata"
CORE = "Core"
DATA = "Scripts/layering-allowed.txt"
VERBOSE = "-v" in sys.argv[1:]


# --- Reading Swift: comments removed, string literals blanked. -------------

STRING_START = re.compile(r'(#*)("""|")')


def code_lines(text):
    """The lines of a Swift file with comments removed and the text of string
    literals blanked; the code of interpolations is kept. Lines keep their
    numbers."""
    out = []
    i, n = 0, len(text)
    # ("code", open parentheses) inside an interpolation or at the top;
    # ("string", number of #, multi-line) inside a literal.
    stack = [("code", 0)]
    while i < n:
        top = stack[-1]
        c = text[i]
        if top[0] == "code":
            if text.startswith("//", i):
                j = text.find("\n", i)
                i = n if j < 0 else j
                continue
            if text.startswith("/*", i):
                depth, j = 1, i + 2
                while j < n and depth:
                    if text.startswith("/*", j):
                        depth, j = depth + 1, j + 2
                    elif text.startswith("*/", j):
                        depth, j = depth - 1, j + 2
                    else:
                        if text[j] == "\n":
                            out.append("\n")
                        j += 1
                i = j
                continue
            if c in '"#':
                m = STRING_START.match(text, i)
                if m:
                    out.append('"')
                    stack.append(("string", len(m.group(1)), m.group(2) == '"""'))
                    i = m.end()
                    continue
            if len(stack) > 1 and c == "(":
                stack[-1] = ("code", top[1] + 1)
            elif len(stack) > 1 and c == ")":
                if top[1] == 0:
                    stack.pop()  # the end of an interpolation
                    out.append(")")
                    i += 1
                    continue
                stack[-1] = ("code", top[1] - 1)
            out.append(c)
            i += 1
        else:
            _, hashes, multi = top
            if c == "\\" and text.startswith("#" * hashes, i + 1):
                k = i + 1 + hashes
                if k < n and text[k] == "(":
                    out.append("\\(")
                    stack.append(("code", 0))
                    i = k + 1
                else:
                    i = k + 1  # an escaped character
                continue
            close = ('"""' if multi else '"') + "#" * hashes
            if text.startswith(close, i):
                out.append('"')
                stack.pop()
                i += len(close)
                continue
            if c == "\n":
                out.append("\n")
            i += 1
    return "".join(out).split("\n")


# --- Declarations. ----------------------------------------------------------

DECL = re.compile(
    r"[{};]|\b(class|struct|enum|protocol|actor|typealias|associatedtype|func|var|let)\s+"
    r"`?(?!(?:func|var|let|subscript|init)\b)([A-Za-z_]\w*)`?"
)
TYPE_HEADER = re.compile(
    r"\b(class|struct|enum|protocol|actor|extension)\s+(?!(?:func|var|let|subscript|init)\b)`?([A-Za-z_][\w.]*)"
)
GENERICS = re.compile(r"\b(?:func|init|subscript|struct|class|enum|actor|typealias)\b[^<({=]*<([^>]*)>")
TYPE_KEYWORDS = {"class", "struct", "enum", "protocol", "actor", "typealias"}
MEMBER_KEYWORDS = {"func", "var", "let", "case"}


class Declaration:
    def __init__(self, keyword, name, scope, extended, line):
        self.keyword = keyword  # class, func, var, case, generic...
        self.name = name
        self.scope = scope  # "top", "type" (a type's body), "extension", "local"
        self.extended = extended  # the type an extension extends
        self.line = line


def scan(path):
    """The code lines of a file, and its declarations with their scope."""
    lines = code_lines(open(path, encoding="utf-8").read())
    declarations = []
    stack = []  # (scope, extended type, is an enum) of each open brace
    header = ""
    for number, line in enumerate(lines, 1):
        position = 0
        for token in DECL.finditer(line):
            header += line[position : token.start()]
            position = token.end()
            text = token.group(0)
            if text == "{":
                scope, extended, is_enum = "local", None, False
                headers = list(TYPE_HEADER.finditer(header))
                if headers:
                    last = headers[-1]
                    after = header[last.end() :]
                    if not re.search(r"\b(func|init|subscript|var|let|case|return)\b|=", after):
                        if last.group(1) == "extension":
                            scope, extended = "extension", last.group(2).split(".")[-1]
                        else:
                            scope, is_enum = "type", last.group(1) == "enum"
                stack.append((scope, extended, is_enum))
                header = ""
            elif text in ("}", ";"):
                if text == "}" and stack:
                    stack.pop()
                header = ""
            else:
                header += text
                scope, extended = ("top", None) if not stack else stack[-1][:2]
                declarations.append(Declaration(token.group(1), token.group(2), scope, extended, number))
        header += line[position:] + " "
        if stack and stack[-1][2]:
            case = re.match(r"\s*(?:indirect\s+)?case\s+(.*)", line)
            if case:
                body = re.sub(r"\([^()]*\)", "", case.group(1))
                for part in body.split(","):
                    name = re.match(r"\s*`?([A-Za-z_]\w*)", part)
                    if name:
                        declarations.append(Declaration("case", name.group(1), "type", None, number))
        for generics in GENERICS.finditer(line):
            for name in re.finditer(r"(?:^|,)\s*([A-Z]\w*)", generics.group(1)):
                declarations.append(Declaration("generic", name.group(1), "local", None, number))
    return lines, declarations


def swift_files():
    """(layer, path relative to Sources/Strata, path) of every Swift file."""
    for directory, subdirectories, names in os.walk(SOURCES):
        subdirectories[:] = sorted(d for d in subdirectories if not d.endswith(".docc"))
        for name in sorted(names):
            if name.endswith(".swift"):
                path = os.path.join(directory, name)
                relative = os.path.relpath(path, SOURCES)
                yield relative.split(os.sep)[0], relative, path


# --- The data file. ---------------------------------------------------------


def read_data():
    kinds, budgets, descriptions, allowed = [], {}, {}, {}
    for number, raw in enumerate(open(DATA, encoding="utf-8"), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        fields = line.split()
        if fields[0] == "kind" and len(fields) >= 2:
            kind = fields[1]
            rest = fields[2:]
            if rest and rest[0].startswith("max="):
                budgets[kind] = int(rest[0][4:])
                rest = rest[1:]
            kinds.append(kind)
            descriptions[kind] = " ".join(rest)
        elif fields[0] in kinds and len(fields) >= 2:
            if fields[1] in allowed:
                sys.exit(f"{DATA}:{number}: {fields[1]} is listed twice")
            allowed[fields[1]] = fields[0]
        else:
            print(f"{DATA}:{number}: not a kind declaration nor an entry of a declared kind: {raw.strip()}")
            sys.exit(2)
    return kinds, budgets, descriptions, allowed


# --- Counting. --------------------------------------------------------------

IDENTIFIER = re.compile(r"(?<![\w$])`?([A-Za-z_]\w*)`?")


def layer_names(declarations, layers, excluded):
    """The names of `layers` that a line of another layer can name: types (top
    level, or in an extension of a type those layers don't declare) and
    members; minus the names declared in `excluded`."""
    own_types = {d.name for layer in layers for d in declarations[layer] if d.keyword in TYPE_KEYWORDS}
    types, members = {}, {}
    for layer in layers:
        for d in declarations[layer]:
            if d.name in excluded:
                continue
            if d.keyword in TYPE_KEYWORDS and (
                d.scope == "top" or (d.scope == "extension" and d.extended not in own_types)
            ):
                types.setdefault(d.name, layer)
            elif d.keyword in MEMBER_KEYWORDS and d.scope != "local":
                members.setdefault(d.name, layer)
    for name in types:
        members.pop(name, None)
    return types, members


def names_in(line, types, members):
    """The names of `types` and `members` that a code line names. A member
    counts when it is called or reached with a dot: a bare word of the same
    spelling is a local variable or an argument label."""
    found = []
    for m in IDENTIFIER.finditer(line):
        name = m.group(1)
        if name in types:
            found.append(name)
        elif name in members:
            before, after = line[: m.start()], line[m.end() :]
            if re.search(r"\b(func|var|let|case)\s*$", before):
                continue
            if before.endswith(".") or after.startswith("("):
                found.append(name)
    return found


def main():
    kinds, budgets, descriptions, allowed = read_data()
    rank = {kind: index for index, kind in enumerate(kinds)}

    declarations = collections.defaultdict(list)
    code, file_declarations = {}, {}
    for layer, relative, path in swift_files():
        lines, found = scan(path)
        declarations[layer].extend(found)
        code[relative] = (layer, lines)
        file_declarations[relative] = found
    upper = sorted(layer for layer in declarations if layer != CORE)
    core_names = {d.name for d in declarations[CORE]}
    homonyms = {name for name, kind in allowed.items() if kind == "homonym"}
    types, members = layer_names(declarations, upper, core_names | homonyms)
    owner = {**members, **types}

    # The lines of Core that name an upper layer.
    counted = []  # (kind, relative path, line number, code, names)
    offending = []
    for relative, (layer, lines) in code.items():
        if layer != CORE:
            continue
        for number, line in enumerate(lines, 1):
            names = names_in(line, types, members)
            if not names:
                continue
            unknown = [n for n in names if n not in allowed]
            if unknown:
                offending.append((relative, number, line.strip(), unknown))
                continue
            kind = max((allowed[n] for n in names), key=rank.get)
            counted.append((kind, relative, number, line.strip(), names))

    # Core properties of an upper-layer type (`observationBroker`): the lines
    # that use them reach that layer too, under the kind of that type. A name
    # Core also declares with another type is left out.
    property_kinds = collections.defaultdict(set)
    for relative, (layer, lines) in code.items():
        if layer != CORE:
            continue
        for d in file_declarations[relative]:
            if d.keyword not in ("var", "let") or d.scope == "local":
                continue
            named = [n for n in names_in(lines[d.line - 1], types, {}) if n in allowed]
            property_kinds[d.name].add(max((allowed[n] for n in named), key=rank.get) if named else None)
    reaching = {name: next(iter(k)) for name, k in property_kinds.items() if len(k) == 1 and None not in k}
    already = {(c[1], c[2]) for c in counted} | {(o[0], o[1]) for o in offending}
    through = []  # (kind, relative path, line number, code, properties)
    for relative, (layer, lines) in code.items():
        if layer != CORE:
            continue
        for number, line in enumerate(lines, 1):
            if (relative, number) in already:
                continue
            names = [m.group(1) for m in IDENTIFIER.finditer(line) if m.group(1) in reaching]
            if names:
                kind = max((reaching[n] for n in names), key=rank.get)
                through.append((kind, relative, number, line.strip(), names))

    # The report.
    print(f"Core's upward references (lines of {SOURCES}/{CORE} that name an upper layer), by kind:")
    over_budget = []
    for kind in kinds:
        if kind == "homonym":
            continue
        lines_ = [c for c in counted if c[0] == kind]
        extra = [t for t in through if t[0] == kind]
        tally = collections.Counter(n for c in lines_ for n in dict.fromkeys(c[4]))
        layers = collections.Counter(owner[n] for c in lines_ for n in dict.fromkeys(c[4]))
        budget = budgets.get(kind)
        note = f" (at most {budget})" if budget is not None else ""
        print(f"  {kind:<10} {len(lines_):>3} lines{note}, {len(extra)} more through Core properties of those types")
        if layers:
            print("             in " + ", ".join(f"{layer} {count}" for layer, count in sorted(layers.items())))
        if tally:
            ordered = sorted(tally.items(), key=lambda item: (-item[1], item[0]))
            print("             " + ", ".join(f"{name} {count}" for name, count in ordered))
        if budget is not None and len(lines_) > budget:
            over_budget.append((kind, budget, lines_))
        if VERBOSE:
            for _, relative, number, text, _ in lines_:
                print(f"      {relative}:{number}: {text}")
            for _, relative, number, text, names in extra:
                print(f"      {relative}:{number}: {text}    (through {', '.join(dict.fromkeys(names))})")
    total = len(counted)
    print(f"  total      {total:>3} lines, {len(through)} more through Core properties of upper-layer types")

    # The two layers above Core that depend on each other.
    for source, target in (("QueryInterface", "Record"), ("Record", "QueryInterface")):
        if source not in declarations or target not in declarations:
            continue
        excluded = {d.name for d in declarations[source]} | core_names | homonyms
        t, m = layer_names(declarations, [target], excluded)
        count = sum(
            1
            for relative, (layer, lines) in code.items()
            if layer == source
            for line in lines
            if names_in(line, t, m)
        )
        types_only = sum(
            1
            for relative, (layer, lines) in code.items()
            if layer == source
            for line in lines
            if names_in(line, t, {})
        )
        print(f"{source} -> {target}: {count} lines ({types_only} naming types)")

    listed = {n for n, kind in allowed.items() if kind != "homonym"}
    used = {n for c in counted for n in c[4]}
    for name in sorted(listed - used):
        print(f"note: {name} ({allowed[name]}) is listed in {DATA} but no line of Core names it: remove it?")

    failed = False
    if offending:
        failed = True
        print(f"\nerror: {len(offending)} line(s) of Core name an upper layer outside the kinds of {DATA}:")
        for relative, number, text, unknown in offending:
            where = ", ".join(f"{n} ({owner[n]})" for n in dict.fromkeys(unknown))
            print(f"  {SOURCES}/{relative}:{number}: {text}\n      names {where}")
        print(
            "Name it from its own layer instead, or, if Core must, list it under its kind"
            f" in {DATA} with the reason, and say so in Architecture.md."
        )
    for kind, budget, lines_ in over_budget:
        failed = True
        print(f"\nerror: {len(lines_)} lines of kind {kind}, at most {budget} allowed:")
        for _, relative, number, text, _ in lines_:
            print(f"  {SOURCES}/{relative}:{number}: {text}")
    if failed:
        sys.exit(1)
    print("layering: OK")


main()
PY
