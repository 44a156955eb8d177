#!/usr/bin/env bash
# Speed of two checkouts of the project, back to back in one sitting, alternating
# before, after, before, after (the machine is shared: compare ratios, best of runs).
#
#   bench/compare_builds.sh BEFORE_CHECKOUT AFTER_CHECKOUT [OUT_DIR]
#
# Each checkout runs from its own src/ (PYTHONPATH), compiled or not as it is; the
# interpreter is $PYTHON (default: this checkout's .venv). Figures go to OUT_DIR
# (default /tmp/compare_builds) as engine-{before,after}-N.txt and sim-{before,after}-N.txt.
set -euo pipefail
before=$(cd "$1" && pwd); after=$(cd "$2" && pwd); out=${3:-/tmp/compare_builds}
python=${PYTHON:-$(cd "$(dirname "$0")/.." && pwd)/.venv/bin/python}
mkdir -p "$out"
for i in 1 2; do
  for side in before after; do
    dir=$before; [ "$side" = after ] && dir=$after
    (cd "$dir" && PYTHONPATH="$dir/src" "$python" bench/bench_engine.py --quick) > "$out/engine-$side-$i.txt"
    (cd "$dir" && PYTHONPATH="$dir/src" "$python" bench/bench_sim.py --quick --seats 2 4 8) > "$out/sim-$side-$i.txt"
  done
done
echo "figures in $out"
