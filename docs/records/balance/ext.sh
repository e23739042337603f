#!/bin/bash
# after run.sh: more greedy self-play (cheap): 50 games per cell (Pergola 20; solo 20)
cd /tmp/bal
while ! grep -q " end$" run.log; do sleep 10; done
export PYTHONPATH=/tmp/wt/src
PY=/work/main/.venv/bin/python
log() { echo "$(date -u +%H:%M:%S) $*" >> run.log; }
sim() { $PY -c "from meeple.cli import main; main()" simulate "$@" -w 2 > /dev/null 2>> sim.err || log "FAILED: $*"; }
seats() { local b=$1 n=$2; local out=$b; for ((i=1;i<n;i++)); do out="$out,$b"; done; echo "$out"; }
log "ext start"
for p in 2 3 4; do
  for v in "--level 1" "--level 2" "--level 3"; do
    sim gardens $v -n 50 --bots "$(seats greedy $p)" --out greedy-gardens.jsonl
    sim reefs $v -n 50 --bots "$(seats greedy $p)" --out greedy-reefs.jsonl
  done
  for v in 2-pandas 3-pandas 4-pandas-river 4-pandas-dragon; do
    sim takenokolor --sheet $v -n 50 --bots "$(seats greedy $p)" --out greedy-takenokolor.jsonl
  done
  sim pergola -n 20 --bots "$(seats greedy $p)" --out greedy-pergola.jsonl
done
log "ext greedy done"
for k in 1 2 3 4 5 6 7 8 9 10; do sim pergola --challenge $k -n 20 --bots greedy --out greedy-pergola-solo.jsonl; done
log "ext end"
