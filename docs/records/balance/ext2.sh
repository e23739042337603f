#!/bin/bash
# after ext.sh: more mcts self-play: 12 games per cell, solo 10 per challenge
cd /tmp/bal
while ! grep -q " ext end$" run.log; do sleep 10; done
export PYTHONPATH=/tmp/wt/src
PY=/work/main/.venv/bin/python
M="mcts:iterations=100;seconds=1"
log() { echo "$(date -u +%H:%M:%S) $*" >> run.log; }
sim() { $PY -c "from meeple.cli import main; main()" simulate "$@" -w 2 > /dev/null 2>> sim.err || log "FAILED: $*"; }
seats() { local b=$1 n=$2; local out=$b; for ((i=1;i<n;i++)); do out="$out,$b"; done; echo "$out"; }
late() { [ "$(date -u +%H%M)" -ge 1440 ]; }
log "ext2 start"
for p in 2 3 4; do
  late && { log "late: ext2 stops before $p seats"; break; }
  for v in "--level 1" "--level 2" "--level 3"; do
    sim gardens $v -n 12 --bots "$(seats "$M" $p)" --out mcts-gardens.jsonl
    sim reefs $v -n 12 --bots "$(seats "$M" $p)" --out mcts-reefs.jsonl
  done
  for v in 2-pandas 3-pandas 4-pandas-river 4-pandas-dragon; do
    sim takenokolor --sheet $v -n 12 --bots "$(seats "$M" $p)" --out mcts-takenokolor.jsonl
  done
  sim pergola -n 12 --bots "$(seats "$M" $p)" --out mcts-pergola.jsonl
  log "ext2 $p seats done"
done
late || for k in 1 2 3 4 5 6 7 8 9 10; do sim pergola --challenge $k -n 10 --bots "$M" --out mcts-pergola-solo.jsonl; done
log "ext2 end"
