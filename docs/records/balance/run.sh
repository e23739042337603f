#!/bin/bash
# Balance self-play on the current code: greedy 10 games and mcts:iterations=100;seconds=1
# 4 games per (variant, seats), 2-4 seats; Pergola's solo challenges 10 (greedy) and 4 (mcts)
cd /tmp/bal
export PYTHONPATH=/tmp/wt/src
PY=/work/main/.venv/bin/python
M="mcts:iterations=100;seconds=1"
log() { echo "$(date -u +%H:%M:%S) $*" >> run.log; }
sim() { $PY -c "from meeple.cli import main; main()" simulate "$@" -w 2 > /dev/null 2>> sim.err || log "FAILED: $*"; }
variants() {
  case $1 in
    gardens|reefs) echo "--level 1" "--level 2" "--level 3";;
    takenokolor) echo "--sheet 2-pandas" "--sheet 3-pandas" "--sheet 4-pandas-river" "--sheet 4-pandas-dragon";;
    pergola) echo "";;
  esac
}
seats() { local b=$1 n=$2; local out=$b; for ((i=1;i<n;i++)); do out="$out,$b"; done; echo "$out"; }
log start
for g in gardens reefs takenokolor pergola; do
  while read -r v; do
    for p in 2 3 4; do
      sim $g $v -n 10 --bots "$(seats greedy $p)" --out greedy-$g.jsonl
    done
  done < <(variants $g | tr ' ' '\n' | paste -d' ' - - 2>/dev/null | sed 's/^ *$//')
  log "greedy $g done"
done
for k in 1 2 3 4 5 6 7 8 9 10; do sim pergola --challenge $k -n 10 --bots greedy --out greedy-pergola-solo.jsonl; done
log "greedy solo done"
for k in 1 2 3 4 5 6 7 8 9 10; do sim pergola --challenge $k -n 4 --bots "$M" --out mcts-pergola-solo.jsonl; done
log "mcts solo done"
for p in 2 3 4; do
  for g in gardens reefs takenokolor pergola; do
    while read -r v; do
      sim $g $v -n 4 --bots "$(seats "$M" $p)" --out mcts-$g.jsonl
    done < <(variants $g | tr ' ' '\n' | paste -d' ' - - 2>/dev/null | sed 's/^ *$//')
    log "mcts $g $p seats done"
  done
done
log end
