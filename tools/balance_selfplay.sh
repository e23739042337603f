#!/usr/bin/env bash
# The self-play records behind docs/balance.md (2376 games, about 45 minutes on 2 workers).
#
#   bash tools/balance_selfplay.sh [DIR]          # records into DIR (default: balance-records)
#   uv run python tools/balance_doc.py DIR/*.jsonl --figures docs/balance
#
# greedy: 50 games per game, variant and seat count (Pergola 60), 20 per solo challenge;
# mcts at a tenth of its default budget (100 iterations, 1 s cap) so that every cell can be
# played: 12 games per cell, 10 per solo challenge. Every seat plays the same bot; seeds start
# at 0. `meeple simulate --out` skips the seeds a file already holds, so an interrupted run
# resumes where it stopped. greedy's games are the same on every machine; mcts's depend on how
# many iterations fit in its second, so they match the committed ones in distribution only.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-balance-records}"
mkdir -p "$out"
M="mcts:iterations=100;seconds=1"

sim() { uv run --locked meeple simulate "$@" -w 2 > /dev/null; }
seats() { local bot=$1 n=$2 all=$1; for ((i = 1; i < n; i++)); do all="$all,$bot"; done; echo "$all"; }

for p in 2 3 4; do
  for level in 1 2 3; do
    sim gardens --level "$level" -n 50 --bots "$(seats greedy "$p")" --out "$out/greedy-gardens.jsonl"
    sim reefs --level "$level" -n 50 --bots "$(seats greedy "$p")" --out "$out/greedy-reefs.jsonl"
  done
  for sheet in 2-pandas 3-pandas 4-pandas-river 4-pandas-dragon; do
    sim takenokolor --sheet "$sheet" -n 50 --bots "$(seats greedy "$p")" --out "$out/greedy-takenokolor.jsonl"
  done
  sim pergola -n 60 --bots "$(seats greedy "$p")" --out "$out/greedy-pergola.jsonl"
done
for k in 1 2 3 4 5 6 7 8 9 10; do
  sim pergola --challenge "$k" -n 20 --bots greedy --out "$out/greedy-pergola-solo.jsonl"
done

for p in 2 3 4; do
  for level in 1 2 3; do
    sim gardens --level "$level" -n 12 --bots "$(seats "$M" "$p")" --out "$out/mcts-gardens.jsonl"
    sim reefs --level "$level" -n 12 --bots "$(seats "$M" "$p")" --out "$out/mcts-reefs.jsonl"
  done
  for sheet in 2-pandas 3-pandas 4-pandas-river 4-pandas-dragon; do
    sim takenokolor --sheet "$sheet" -n 12 --bots "$(seats "$M" "$p")" --out "$out/mcts-takenokolor.jsonl"
  done
  sim pergola -n 12 --bots "$(seats "$M" "$p")" --out "$out/mcts-pergola.jsonl"
done
for k in 1 2 3 4 5 6 7 8 9 10; do
  sim pergola --challenge "$k" -n 10 --bots "$M" --out "$out/mcts-pergola-solo.jsonl"
done
echo "records in $out; now: uv run python tools/balance_doc.py $out/*.jsonl --figures docs/balance"
