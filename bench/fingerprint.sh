#!/usr/bin/env bash
# What a checkout does, as files to compare byte for byte with another checkout's:
# five simulations (their JSON without the timing), every scenario file's answer, and
# twenty random games' records, views and replays. A refactoring must leave them equal.
#
#   bench/fingerprint.sh CHECKOUT OUT_DIR && diff -r OUT_BEFORE OUT_AFTER
set -euo pipefail
src=$(cd "$1" && pwd); out=$2; mkdir -p "$out"
python=${PYTHON:-$(cd "$(dirname "$0")/.." && pwd)/.venv/bin/python}
export PYTHONPATH=$src/src
cd "$src"
rummoli() { "$python" -c "import sys; from rummoli.cli import main; sys.argv[0] = 'rummoli'; main()" "$@"; }
strip() { "$python" -c "import json, sys; d = json.load(open(sys.argv[1])); d.pop('run', None); print(json.dumps(d, sort_keys=True, indent=0))" "$1"; }
sim() { name=$1; shift; rummoli simulate "$@" --json "$out/$name.raw" > /dev/null 2>&1; strip "$out/$name.raw" > "$out/$name.json"; rm "$out/$name.raw"; }
sim sim1 --rounds 3000 --bots basic,basic,strong,random --seed 3
sim sim2 --games 20 --bots random,basic,basic --rotate --seed 5 --rule poker=betting
sim sim3 --game rummy --hands 300 --bots basic,strong --seed 7
sim sim4 --game rummy --games 4 --bots random,basic,basic --seed 9
sim sim5 --rounds 2000 --bots random,random,random,random,random,random,random,random --full-table --seed 11
rummoli scenario tests/scenarios/*.json tests/scenarios/rummy/*.json > "$out/scenarios.jsonl" 2>&1 || true
"$python" - "$out" <<'PY'
import json, random, sys
from rummoli.games.registry import new_game, replay
lines = []
tables = [("rummoli", 4, {}), ("rummoli", 3, {"poker": "betting", "rounds": 3}),
          ("rummoli", 8, {"widow": "none"}), ("rummy", 2, {}), ("rummy", 4, {"target": 50})]
for game, seats, rules in tables:
    for seed in range(4):
        state = new_game(game, [f"P{i}" for i in range(seats)], rules, seed)
        rng = random.Random(seed)
        events = []
        for _ in range(3000):
            if state.is_terminal():
                break
            events.append(repr(state.apply(rng.choice(state.legal_actions()))))
        record = state.record()
        lines.append(json.dumps(record, sort_keys=True))
        lines.append(json.dumps([state.view(None), state.view(0)], sort_keys=True, default=str))
        lines.append("".join(events)[:2000])
        lines.append(json.dumps(replay(json.dumps(record)).view(1), sort_keys=True, default=str))
open(f"{sys.argv[1]}/records.txt", "w").write("\n".join(lines))
PY
echo "fingerprint in $out"
