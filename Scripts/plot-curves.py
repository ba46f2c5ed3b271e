#!/usr/bin/env python3
"""Draws the cost curves of issue 51 as SVG files, from the CSV files that
Benchmarks' `cost-curves` writes (Scripts/cost-curves.sh runs both).

    python3 Scripts/plot-curves.py [Benchmarks/Curves]

No dependency: a small SVG writer of its own (log-scale x axes for row
counts, linear y axes from zero), so that the plots can be made again on
any machine with Python 3.
"""
import csv
import math
import os
import sys
from html import escape

COLORS = {"C": "#555555", "Strata": "#d1495b", "GRDB": "#00798c"}
DASHES = {"C": "4,3", "Strata": "", "GRDB": ""}
OPERATION_TITLES = {
    "cursor-rows": "Row cursor (10 columns by index)",
    "fetchall-rows": "Row.fetchAll",
    "cursor-records": "Record cursor (client module)",
    "fetchall-records": "Record.fetchAll (client module)",
    "insert": "Insert, one transaction",
}


def nice_ceiling(value):
    """A round number at or above value, for the top of an axis."""
    if value <= 0:
        return 1
    exponent = math.floor(math.log10(value))
    for step in (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10):
        if step * 10**exponent >= value:
            return step * 10**exponent
    return 10 ** (exponent + 1)


def format_number(value):
    if value >= 1_000_000 and value % 1_000_000 == 0:
        return f"{int(value // 1_000_000)}M"
    if value >= 1000 and value % 1000 == 0:
        return f"{int(value // 1000)}k"
    if value == int(value):
        return str(int(value))
    return f"{value:g}"


class Panel:
    """One plot: log or linear x, linear or log y, lines with markers, a
    legend, and reference lines (a target, an event)."""

    def __init__(self, title, x_label, y_label, width=420, height=280, log_x=True, log_y=False):
        self.title, self.x_label, self.y_label = title, x_label, y_label
        self.width, self.height = width, height
        self.log_x, self.log_y = log_x, log_y
        self.series = []  # (name, [(x, y)], dash or None)
        self.hlines = []  # (y, label)
        self.vlines = []  # (x, label)
        self.markers = True

    def add(self, name, points, dash=None):
        points = sorted(p for p in points if p[1] is not None and (not self.log_y or p[1] > 0))
        if points:
            self.series.append((name, points, dash))

    def y_ticks(self, y_min, y_max):
        """The values marked on the y axis."""
        if not self.log_y:
            return [y_max * i / 5 for i in range(6)]
        ticks = []
        exponent = math.floor(math.log10(y_min))
        # Powers of ten alone where 1-2-5 would crowd the axis.
        steps = (1, 2, 5) if math.log10(y_max / y_min) <= 4 else (1,)
        while 10**exponent <= y_max * 1.0001:
            for step in steps:
                value = step * 10**exponent
                if y_min * 0.9999 <= value <= y_max * 1.0001:
                    ticks.append(value)
            exponent += 1
        return ticks

    def svg(self, left, top):
        margin_left, margin_right, margin_top, margin_bottom = 58, 14, 30, 44
        plot_w = self.width - margin_left - margin_right
        plot_h = self.height - margin_top - margin_bottom
        xs = [x for _, pts, _ in self.series for x, _ in pts]
        ys = [y for _, pts, _ in self.series for _, y in pts] + [y for y, _ in self.hlines]
        out = [f'<g transform="translate({left},{top})">']
        out.append(
            f'<text x="{self.width / 2}" y="16" text-anchor="middle" font-size="13" font-weight="bold">'
            f"{escape(self.title)}</text>"
        )
        if not xs:
            out.append("</g>")
            return "\n".join(out)
        fx = math.log10 if self.log_x else float
        x_min, x_max = fx(min(xs)), fx(max(xs))
        if x_max == x_min:
            x_max = x_min + 1
        # Room above the highest point for the legend.
        legend_height = 14 * len(self.series) + 14
        room = max(0.3, 1 - legend_height / plot_h)
        if self.log_y:
            y_min = 10 ** math.floor(math.log10(min(ys)))
            top = math.log10(y_min) + (math.log10(max(ys)) - math.log10(y_min)) / room
            y_max = nice_ceiling(10**top)
        else:
            y_min, y_max = 0, nice_ceiling(max(ys) / room)

        def px(x):
            return margin_left + (fx(x) - x_min) / (x_max - x_min) * plot_w

        def py(y):
            if self.log_y:
                fraction = (math.log10(y) - math.log10(y_min)) / (math.log10(y_max) - math.log10(y_min))
            else:
                fraction = y / y_max
            return margin_top + plot_h - fraction * plot_h

        # Axes and grid.
        for y in self.y_ticks(y_min, y_max):
            out.append(
                f'<line x1="{margin_left}" x2="{margin_left + plot_w}" y1="{py(y):.1f}" y2="{py(y):.1f}" '
                f'stroke="#e5e5e5"/>'
            )
            out.append(
                f'<text x="{margin_left - 6}" y="{py(y) + 4:.1f}" text-anchor="end" font-size="10">'
                f"{format_number(round(y, 3))}</text>"
            )
        x_ticks = sorted(set(xs))
        if not self.log_x and len(x_ticks) > 12:
            step = nice_ceiling((max(xs) - min(xs)) / 8)
            x_ticks = [step * i for i in range(int(min(xs) // step), int(max(xs) // step) + 1)]
        for x in x_ticks:
            out.append(
                f'<line x1="{px(x):.1f}" x2="{px(x):.1f}" y1="{margin_top}" y2="{margin_top + plot_h}" '
                f'stroke="#f0f0f0"/>'
            )
            out.append(
                f'<text x="{px(x):.1f}" y="{margin_top + plot_h + 14}" text-anchor="middle" font-size="10">'
                f"{format_number(x)}</text>"
            )
        out.append(
            f'<rect x="{margin_left}" y="{margin_top}" width="{plot_w}" height="{plot_h}" fill="none" '
            f'stroke="#999"/>'
        )
        out.append(
            f'<text x="{margin_left + plot_w / 2}" y="{self.height - 8}" text-anchor="middle" font-size="11">'
            f"{escape(self.x_label)}</text>"
        )
        out.append(
            f'<text transform="translate(14,{margin_top + plot_h / 2}) rotate(-90)" text-anchor="middle" '
            f'font-size="11">{escape(self.y_label)}</text>'
        )
        # Lines and markers, then the legend over them, on a white box in
        # the top left corner.
        for y, label in self.hlines:
            out.append(
                f'<line x1="{margin_left}" x2="{margin_left + plot_w}" y1="{py(y):.1f}" y2="{py(y):.1f}" '
                f'stroke="#000" stroke-dasharray="3,3"/>'
            )
            out.append(
                f'<text x="{margin_left + plot_w - 4}" y="{py(y) - 4:.1f}" text-anchor="end" font-size="10">'
                f"{escape(label)}</text>"
            )
        for x, label in self.vlines:
            out.append(
                f'<line x1="{px(x):.1f}" x2="{px(x):.1f}" y1="{margin_top}" y2="{margin_top + plot_h}" '
                f'stroke="#000" stroke-dasharray="3,3"/>'
            )
            out.append(
                f'<text x="{px(x) + 3:.1f}" y="{margin_top + plot_h - 6}" font-size="10">{escape(label)}</text>'
            )
        legend_width = 12 + max(len(name) for name, _, _ in self.series) * 5.6 + 30
        legend = [
            f'<rect x="{margin_left + 4}" y="{margin_top + 2}" width="{legend_width:.0f}" '
            f'height="{14 * len(self.series) + 6}" fill="white" fill-opacity="0.85" stroke="#ddd"/>'
        ]
        for index, (name, pts, dash) in enumerate(self.series):
            color = COLORS.get(name.split(" ")[0], "#333")
            if dash is None:
                dash = "1,3" if "cursor" in name or "Record.fetchAll" in name else DASHES.get(name.split(" ")[0], "")
            path = " ".join(f"{'M' if i == 0 else 'L'}{px(x):.1f},{py(y):.1f}" for i, (x, y) in enumerate(pts))
            dash_attribute = f' stroke-dasharray="{dash}"' if dash else ""
            out.append(f'<path d="{path}" fill="none" stroke="{color}" stroke-width="2"{dash_attribute}/>')
            if self.markers:
                for x, y in pts:
                    out.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3" fill="{color}"/>')
            legend_y = margin_top + 14 + 14 * index
            legend.append(
                f'<line x1="{margin_left + 8}" x2="{margin_left + 26}" y1="{legend_y - 4}" y2="{legend_y - 4}" '
                f'stroke="{color}" stroke-width="2"{dash_attribute}/>'
            )
            legend.append(f'<text x="{margin_left + 30}" y="{legend_y}" font-size="10">{escape(name)}</text>')
        out.extend(legend)
        out.append("</g>")
        return "\n".join(out)


def write_figure(path, title, subtitle, panels, columns):
    rows = math.ceil(len(panels) / columns)
    width = columns * panels[0].width + 20
    height = rows * panels[0].height + 56
    body = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="Helvetica, Arial, sans-serif">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="10" y="20" font-size="15" font-weight="bold">{escape(title)}</text>',
        f'<text x="10" y="38" font-size="11" fill="#555">{escape(subtitle)}</text>',
    ]
    for index, panel in enumerate(panels):
        body.append(panel.svg(10 + (index % columns) * panel.width, 48 + (index // columns) * panel.height))
    body.append("</svg>")
    with open(path, "w") as file:
        file.write("\n".join(body) + "\n")
    print(f"wrote {path}")


def read_csv(path):
    with open(path, newline="") as file:
        return list(csv.DictReader(file))


def main():
    directory = sys.argv[1] if len(sys.argv) > 1 else os.path.join("Benchmarks", "Curves")
    machine = ""
    machine_path = os.path.join(directory, "machine.txt")
    if os.path.exists(machine_path):
        machine = open(machine_path).read().strip()

    rows_path = os.path.join(directory, "rows.csv")
    if os.path.exists(rows_path):
        records = read_csv(rows_path)
        libraries = [lib for lib in ("C", "Strata", "GRDB") if any(r["library"] == lib for r in records)]
        panels = []
        for operation, title in OPERATION_TITLES.items():
            panel = Panel(title, "rows", "ns per row")
            for library in libraries:
                panel.add(
                    library,
                    [
                        (int(r["rows"]), float(r["ns_per_row"]))
                        for r in records
                        if r["operation"] == operation and r["library"] == library
                    ],
                )
            panels.append(panel)
        memory = Panel("Peak memory of a fetch (resident growth)", "rows", "bytes per row")
        for library, operation, label in (
            ("Strata", "fetchall-rows", "Row.fetchAll"),
            ("GRDB", "fetchall-rows", "Row.fetchAll"),
            ("Strata", "fetchall-records", "Record.fetchAll"),
            ("GRDB", "fetchall-records", "Record.fetchAll"),
            ("C", "fetchall-records", "array of structs"),
            ("Strata", "cursor-rows", "cursors"),
        ):
            if library not in libraries:
                continue
            memory.add(
                f"{library} {label}",
                [
                    (int(r["rows"]), float(r["peak_bytes_per_row"]))
                    for r in records
                    if r["operation"] == operation
                    and r["library"] == library
                    and r["peak_bytes_per_row"]
                    and int(r["rows"]) >= 10_000
                ],
            )
        panels.append(memory)
        write_figure(
            os.path.join(directory, "rows.svg"),
            "Cost per row, 1,000 to 10,000,000 rows (table of 10 integer columns, in memory)",
            f"{machine}. Target: flat within 20%. Lower is better.",
            panels,
            columns=3,
        )

    bulk_path = os.path.join(directory, "bulk-insert.csv")
    if os.path.exists(bulk_path):
        records = read_csv(bulk_path)
        write_bulk_bars(os.path.join(directory, "bulk-insert.svg"), records, machine)

    size_path = os.path.join(directory, "database-size.csv")
    if os.path.exists(size_path):
        write_size_figure(os.path.join(directory, "database-size.svg"), read_csv(size_path), machine)

    readers_path = os.path.join(directory, "readers.csv")
    if os.path.exists(readers_path):
        write_readers_figure(os.path.join(directory, "readers.svg"), read_csv(readers_path), machine)

    observations_path = os.path.join(directory, "observations.csv")
    if os.path.exists(observations_path):
        write_observations_figure(
            os.path.join(directory, "observations.svg"), read_csv(observations_path), machine
        )

    wal_path = os.path.join(directory, "wal.csv")
    if os.path.exists(wal_path):
        write_wal_figure(os.path.join(directory, "wal.svg"), read_csv(wal_path), machine)


def libraries_in(records):
    return [lib for lib in ("C", "Strata", "GRDB") if any(r["library"] == lib for r in records)]


def write_size_figure(path, records, machine):
    """Point-query latency against the file's size: one panel per query,
    cache and memory map; p50 solid, p99 dotted; log y."""
    panels = []
    for query, query_title in (("primary-key", "by primary key"), ("secondary-key", "by secondary index")):
        for cache in ("warm", "cold"):
            for mmap in ("off", "on"):
                panel = Panel(
                    f"{cache.capitalize()} cache, mmap {mmap}, {query_title}", "file size (MB)", "µs", log_y=True
                )
                for library in libraries_in(records):
                    selected = [
                        r
                        for r in records
                        if r["query"] == query and r["cache"] == cache and r["mmap"] == mmap and r["library"] == library
                    ]
                    for column, label, dash in (("p50_us", "p50", ""), ("p99_us", "p99", "1,3")):
                        panel.add(
                            f"{library} {label}",
                            [(int(r["size_mb"]), float(r[column])) for r in selected],
                            dash=dash,
                        )
                panels.append(panel)
    largest = max(int(r["file_bytes"]) for r in records) / 1e9
    write_figure(
        path,
        f"Point queries as the file grows, 10 MB to {largest:.0f} GB (rows of 1 KB; one pool read each)",
        f"{machine}. Target: p99 under 2x p50 at the largest size, warm. Lower is better.",
        panels,
        columns=4,
    )


def write_readers_figure(path, records, machine):
    """Read throughput and the writer's rate against the number of readers."""
    cores = int(records[0]["cores"])
    reads = Panel("Rows read per second, all readers", "concurrent readers", "million rows/s")
    writes = Panel("Writer meanwhile", "concurrent readers", "batches of 100 rows/s")
    for panel in (reads, writes):
        panel.vlines.append((cores, f"{cores} cores"))
    for library in libraries_in(records):
        selected = [r for r in records if r["library"] == library]
        reads.add(library, [(int(r["readers"]), float(r["rows_per_second"]) / 1e6) for r in selected])
        writes.add(library, [(int(r["readers"]), float(r["writer_batches_per_second"])) for r in selected])
    write_figure(
        path,
        "Readers of a pool while a writer commits (each reader scans 200,000 rows)",
        f"{machine}. Target: read throughput grows with readers up to the core count. Higher is better.",
        [reads, writes],
        columns=2,
    )


def write_observations_figure(path, records, machine):
    """The writer's rate and the notification latency against the number of
    observations."""
    observed = [r for r in records if int(r["observations"]) > 0]
    rate = Panel("Writer's rate against none", "observations", "fraction of the rate without any")
    rate.hlines.append((0.9, "target 0.9"))
    p50 = Panel("Commit to notification, p50", "observations", "µs", log_y=True)
    p99 = Panel("Commit to notification, p99", "observations", "µs", log_y=True)
    for library in libraries_in(records):
        selected = [r for r in observed if r["library"] == library]
        name = "C floor" if library == "C" else library
        rate.add(name, [(int(r["observations"]), float(r["ratio_to_none"])) for r in selected if r["ratio_to_none"]])
        p50.add(name, [(int(r["observations"]), float(r["p50_us"])) for r in selected if r["p50_us"]])
        p99.add(name, [(int(r["observations"]), float(r["p99_us"])) for r in selected if r["p99_us"]])
    write_figure(
        path,
        "Observations on a pool (ValueObservation.tracking of the latest row), one-row commits",
        f"{machine}. Target: with 1,000 observations the writer keeps at least 0.9 of its rate.",
        [rate, p50, p99],
        columns=3,
    )


def write_wal_figure(path, records, machine):
    """The WAL's size and the commits' latency over time, with the long
    reader's snapshot marked."""
    size = Panel("WAL file size", "seconds", "MiB", width=560, log_x=False)
    latency = Panel("Commit latency, p99 of each interval", "seconds", "µs", width=560, log_x=False, log_y=True)
    slowest = Panel("Slowest commit of each interval", "seconds", "µs", width=560, log_x=False, log_y=True)
    panels = [size, latency, slowest]
    for panel in panels:
        panel.markers = False
    for library in libraries_in(records):
        selected = [r for r in records if r["library"] == library and r["p99_us"] != "nan"]
        size.add(library, [(float(r["seconds"]), int(r["wal_bytes"]) / 1_048_576) for r in selected])
        latency.add(library, [(float(r["seconds"]), float(r["p99_us"])) for r in selected])
        slowest.add(library, [(float(r["seconds"]), float(r["max_us"])) for r in selected])
    holding = [float(r["seconds"]) for r in records if r["phase"] == "holding"]
    if holding:
        start = max(float(r["seconds"]) for r in records if r["phase"] == "before" and r["library"] == records[0]["library"])
        end = max(float(r["seconds"]) for r in records if r["phase"] == "holding" and r["library"] == records[0]["library"])
        for panel in panels:
            panel.vlines += [(start, "reader starts"), (end, "reader ends")]
    write_figure(
        path,
        "The WAL under a long reader: one-row commits at a steady rate, a reader's snapshot held open",
        f"{machine}. Lower is better.",
        panels,
        columns=3,
    )


def write_bulk_bars(path, records, machine):
    """Horizontal bars: rows per second of each API, with 80% of C marked."""
    bar_height, gap, left, width = 22, 10, 380, 760
    height = 70 + len(records) * (bar_height + gap) + 30
    top_rate = nice_ceiling(max(float(r["rows_per_second"]) for r in records))
    c_rate = next((float(r["rows_per_second"]) for r in records if r["library"] == "C"), None)
    scale = (width - left - 30) / top_rate
    rows_count = records[0]["rows"]
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="Helvetica, Arial, sans-serif">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="10" y="20" font-size="15" font-weight="bold">Bulk insert: {int(rows_count):,} rows in one '
        f"transaction</text>",
        f'<text x="10" y="38" font-size="11" fill="#555">{escape(machine)}. Rows per second; target: at least '
        f"80% of C. Higher is better.</text>",
    ]
    for index, record in enumerate(records):
        y = 56 + index * (bar_height + gap)
        rate = float(record["rows_per_second"])
        color = COLORS.get(record["library"], "#333")
        out.append(
            f'<text x="{left - 8}" y="{y + 15}" text-anchor="end" font-size="11">{escape(record["api"])}</text>'
        )
        out.append(f'<rect x="{left}" y="{y}" width="{rate * scale:.1f}" height="{bar_height}" fill="{color}"/>')
        out.append(
            f'<text x="{left + rate * scale + 4:.1f}" y="{y + 15}" font-size="10">'
            f'{rate / 1e6:.2f}M ({float(record["ratio_to_c"]):.0%} of C)</text>'
        )
    if c_rate:
        x = left + 0.8 * c_rate * scale
        bottom = 56 + len(records) * (bar_height + gap)
        out.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="50" y2="{bottom}" stroke="#000" stroke-dasharray="3,3"/>')
        out.append(f'<text x="{x:.1f}" y="{bottom + 14}" text-anchor="middle" font-size="10">80% of C</text>')
    out.append("</svg>")
    with open(path, "w") as file:
        file.write("\n".join(out) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
