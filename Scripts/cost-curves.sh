#!/usr/bin/env bash
# The cost curves of issue 51, measured and drawn: builds Benchmarks'
# cost-curves in release, runs its curves (C, Strata and GRDB in turn),
# writes the CSV files into Benchmarks/Curves and draws them as SVG
# (Scripts/plot-curves.py, no dependency but Python 3), and copies the
# plots into the documentation catalog for the Performance article.
#
#   bash Scripts/cost-curves.sh              # every curve (about 30 minutes)
#   bash Scripts/cost-curves.sh size wal     # some curves: rows, bulk, size,
#                                            # readers, observations, wal
#   CURVE_MAX_ROWS=1000000 bash Scripts/cost-curves.sh rows   # a quicker rows curve
#   CURVE_SIZES_MB=10,100,1000 bash Scripts/cost-curves.sh size  # without 10 GB
#
# The size curve builds its files once (10 MB to 10 GB: 11 GB of disk, about
# 1.5 minutes for the largest) in $TMPDIR/strata-cost-curves, or in
# CURVE_DATA_DIR, and reuses them. Benchmarks/Sources/cost-curves/main.swift
# lists every setting. Not run by CI: it takes minutes, and its figures
# depend on the machine (Benchmarks/Curves/machine.txt names it).
set -euo pipefail
cd "$(dirname "$0")/../Benchmarks"
swift build -c release --product cost-curves
.build/release/cost-curves --output Curves "$@"
python3 ../Scripts/plot-curves.py Curves
# The Performance article shows the same plots: DocC finds images by name in
# its catalog.
mkdir -p ../Sources/Strata/Strata.docc/Resources
for plot in Curves/*.svg; do
    cp "$plot" "../Sources/Strata/Strata.docc/Resources/cost-curves-$(basename "$plot")"
done
