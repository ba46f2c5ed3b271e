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
# Inside Core, the same reading checks the rooms (issue 47): every file of
# Core lives in a folder of Core, a room, whose README.md says what it holds
# and, on a line `May use: A, B.`, the rooms whose types it may name
# (`Also names: Type (Room), why` allows one more type). Every room may use
# Internal and Errors; Internal uses none, Errors only what its line says.
# Only type names count between rooms: Core's members are too common
# (`body`, `sql`, `map`) for a lexical check to tell whose they are.
#
# The Architecture article holds the figures of this script between
# `<!-- layering: NAME -->` and `<!-- layering: end -->` markers; the
# script fails when they differ from what it counts, and when a file or a
# folder that the article names in backquotes (`Core/Transactions/`,
# `Database+CommitHooks.swift`) is not in the sources.
#
# Usage: bash Scripts/check-layering.sh [-v] [--write-article]
#   -v               also lists every counted line, by kind.
#   --write-article  rewrites the figures of the Architecture article.
# Exit status: 0 when every line is of a listed kind within its budget,
# every room names only the rooms it may use, and the article is current;
# 1 otherwise (the offending lines are printed), 2 on a malformed data file.
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
ARTICLE = "Sources/Strata/Strata.docc/Architecture.md"
VERBOSE = "-v" in sys.argv[1:]
WRITE_ARTICLE = "--write-article" in sys.argv[1:]
# The rooms every other room may use.
FLOOR_ROOMS = ("Internal", "Errors")


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
    kinds, budgets, descriptions, allowed, reasons = [], {}, {}, {}, []
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
            reasons.append((fields[1], " ".join(fields[2:])))
        else:
            print(f"{DATA}:{number}: not a kind declaration nor an entry of a declared kind: {raw.strip()}")
            sys.exit(2)
    return kinds, budgets, descriptions, allowed, reasons


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


# --- The rooms of Core. ------------------------------------------------------


def read_rooms():
    """{room: (title, rooms it may use, {type: room} it also names)}, from
    the README.md of each folder of Core; and the problems found."""
    rooms, problems = {}, []
    core = os.path.join(SOURCES, CORE)
    for entry in sorted(os.listdir(core)):
        path = os.path.join(core, entry)
        if entry.endswith(".swift"):
            problems.append(f"{SOURCES}/{CORE}/{entry}: a file at the top of Core; move it into a room")
        if not os.path.isdir(path):
            continue
        readme = os.path.join(path, "README.md")
        if not os.path.exists(readme):
            problems.append(f"{SOURCES}/{CORE}/{entry}/: a room without README.md (what it holds, `May use:`)")
            continue
        text = open(readme, encoding="utf-8").read()
        title = re.match(r"#\s+(.*)", text)
        uses = re.search(r"^May use: ([^\n]*?)\.?\s*$", text, re.M)
        if not title or not uses:
            problems.append(f"{readme}: needs a `# Title` line and a `May use: ...` line")
            continue
        listed = uses.group(1).strip()
        allowed = set() if listed == "nothing" else {r.strip() for r in listed.split(",")}
        if entry not in FLOOR_ROOMS:
            allowed |= set(FLOOR_ROOMS)
        elif entry == "Errors":
            allowed.add("Internal")
        also = {m.group(1): m.group(2) for m in re.finditer(r"^Also names: (\w+) \((\w+)\)", text, re.M)}
        rooms[entry] = (title.group(1).strip(), allowed, also)
    manifest = re.search(r"let coreRooms = \[(.*?)\]", open("Package.swift", encoding="utf-8").read(), re.S)
    listed = set(re.findall(r'"(\w+)"', manifest.group(1))) if manifest else set()
    if listed != set(rooms):
        problems.append(
            "Package.swift: `coreRooms` (whose README.md files the target excludes) must list the rooms: "
            + ", ".join(sorted(rooms))
        )
    for room, (_, allowed, also) in rooms.items():
        for other in sorted((allowed | set(also.values())) - set(rooms)):
            problems.append(f"{SOURCES}/{CORE}/{room}/README.md: names a room that does not exist: {other}")
    return rooms, problems


def check_rooms(code, file_declarations):
    """The lines of each room that name a type of another room, as
    (room, other room, relative path, line number, code, types); and the
    matrix of counts."""
    declarations = collections.defaultdict(list)
    for relative, (layer, _) in code.items():
        if layer == CORE:
            room = relative.split(os.sep)[1]
            declarations[room].extend(file_declarations[relative])
    names = sorted(declarations)
    references = []
    for room in names:
        own = {d.name for d in declarations[room] if d.keyword in TYPE_KEYWORDS}
        for other in names:
            if other == room:
                continue
            types, _ = layer_names(declarations, [other], own)
            for relative, (layer, lines) in code.items():
                if layer != CORE or relative.split(os.sep)[1] != room:
                    continue
                for number, line in enumerate(lines, 1):
                    found = names_in(line, types, {})
                    if found:
                        references.append((room, other, relative, number, line.strip(), found))
    return references


# --- The article's figures. --------------------------------------------------

MARKER = re.compile(r"<!-- layering: (\S+) -->\n(.*?)<!-- layering: end -->\n", re.S)


def update_article(figures):
    """Compares the article's figures with `figures` ({name: markdown}), or
    rewrites them with --write-article. Returns the names that differ."""
    text = open(ARTICLE, encoding="utf-8").read()
    found = {m.group(1): m.group(2) for m in MARKER.finditer(text)}
    stale = sorted(name for name in figures if found.get(name) != figures[name])
    unknown = sorted(set(found) - set(figures))
    if WRITE_ARTICLE:
        missing = sorted(set(figures) - set(found))
        if missing:
            sys.exit(f"{ARTICLE}: add the markers of {', '.join(missing)} first (<!-- layering: NAME --> ... <!-- layering: end -->)")
        text = MARKER.sub(lambda m: f"<!-- layering: {m.group(1)} -->\n{figures.get(m.group(1), m.group(2))}<!-- layering: end -->\n", text)
        open(ARTICLE, "w", encoding="utf-8").write(text)
        return unknown
    return stale + unknown


def markdown_table(header, rows, align):
    out = ["| " + " | ".join(header) + " |", "|" + "|".join(align) + "|"]
    out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(out) + "\n"


def main():
    kinds, budgets, descriptions, allowed, reasons = read_data()
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
    kind_rows = []
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
        kind_rows.append((kind, len(lines_), ", ".join(f"{layer} {count}" for layer, count in sorted(layers.items()))))
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
    pair_rows = []
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
        pair_rows.append((source, target, count, types_only))
        print(f"{source} -> {target}: {count} lines ({types_only} naming types)")

    listed = {n for n, kind in allowed.items() if kind != "homonym"}
    used = {n for c in counted for n in c[4]}
    for name in sorted(listed - used):
        print(f"note: {name} ({allowed[name]}) is listed in {DATA} but no line of Core names it: remove it?")

    # The rooms of Core.
    rooms, room_problems = read_rooms()
    references = check_rooms(code, file_declarations)
    room_offending = [
        r for r in references if r[0] in rooms and r[1] not in rooms[r[0]][1]
        and not all(rooms[r[0]][2].get(name) == r[1] for name in r[5])
    ]
    print(f"\nCore's rooms (lines of a room that name a type of another room):")
    named_by = collections.Counter((r[1], r[0]) for r in references)
    for room in sorted(rooms):
        uses = collections.Counter(r[1] for r in references if r[0] == room)
        print(f"  {room:<16} uses " + (", ".join(f"{o} {c}" for o, c in sorted(uses.items())) or "none"))
        if VERBOSE:
            for r in references:
                if r[0] == room:
                    print(f"      {r[2]}:{r[3]}: {r[4]}    ({r[1]}: {', '.join(dict.fromkeys(r[5]))})")

    # The article's figures.
    figures = {}
    figures["kinds"] = markdown_table(
        ["Kind", "Lines", "Layers named"], [(f"`{k}`", n, layers or "none") for k, n, layers in kind_rows],
        ["-----------", "------:", "--------------------------------------------------------"],
    ) + (
        f"\nIn all, {total} lines of Core name an upper layer, and another {len(through)} reach one through a\n"
        "Core property of an upper-layer type, as `observationBroker.statementDidFail()`:\n"
        "they are counted apart, under the kind of that type.\n"
    )
    figures["pair"] = markdown_table(
        ["From", "To", "Lines", "Of them, naming a type"], pair_rows,
        ["----------------", "----------------", "------:", "-----------------------:"],
    )
    figures["names"] = markdown_table(
        ["Kind", "Name", "Why Core names it"],
        [(f"`{kind}`", f"`{name}`", why) for kind in kinds for name, why in reasons if allowed[name] == kind],
        ["-----------", "------", "------"],
    )
    files_of = collections.Counter(relative.split(os.sep)[1] for relative, (layer, _) in code.items() if layer == CORE)
    lines_of = collections.Counter()
    for relative, (layer, lines) in code.items():
        if layer == CORE:
            lines_of[relative.split(os.sep)[1]] += sum(1 for line in lines if line.strip())
    figures["rooms"] = markdown_table(
        ["Room", "What it holds", "Files", "Lines of code", "May use (besides Internal and Errors)"],
        [
            (
                f"`{room}/`", rooms[room][0].split(": ", 1)[-1], files_of[room], lines_of[room],
                ", ".join(sorted(rooms[room][1] - set(FLOOR_ROOMS))) or "none",
            )
            for room in sorted(rooms)
        ],
        ["------", "------", "------:", "------:", "------"],
    )
    stale_figures = update_article(figures)

    # The article's pointers: every file or folder of the sources that it
    # names in backquotes exists (a bare file name, somewhere in the sources).
    article_text = open(ARTICLE, encoding="utf-8").read()
    basenames = {os.path.basename(r) for r in code}
    layers_ = set(declarations)
    stale_paths = []
    for m in re.finditer(r"`([\w+./-]+)`", article_text):
        path = m.group(1)
        first = path.split("/")[0]
        if first in layers_ and "/" in path:
            if not os.path.exists(os.path.join(SOURCES, path)):
                stale_paths.append(path)
        elif path.endswith(".swift") and "/" not in path and path not in basenames:
            stale_paths.append(path)

    failed = False
    if room_problems:
        failed = True
        print("\nerror: the rooms of Core:")
        for problem in room_problems:
            print(f"  {problem}")
    if room_offending:
        failed = True
        print(f"\nerror: {len(room_offending)} line(s) of Core name a type of a room they may not use:")
        for room, other, relative, number, text, names in room_offending:
            print(f"  {SOURCES}/{relative}:{number}: {text}\n      names {', '.join(dict.fromkeys(names))} ({other}), and {room}/README.md does not list {other}")
        print("Move the code to a room that may use it, or list the room on the `May use:` line of the README, and say why in Architecture.md.")
    if stale_paths:
        failed = True
        print(f"\nerror: {ARTICLE} names files or folders that {SOURCES} does not hold:")
        for path in sorted(set(stale_paths)):
            print(f"  {path}")
    if stale_figures and not WRITE_ARTICLE:
        failed = True
        print(f"\nerror: the figures of {ARTICLE} differ from this count: {', '.join(stale_figures)}")
        print("Run `bash Scripts/check-layering.sh --write-article`, and read the prose around them.")
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
