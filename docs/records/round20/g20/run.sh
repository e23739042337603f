#!/bin/bash
# Round 20's second plan: G20, greedy and random on seeds 200-219 of each solo challenge
cd /tmp/r20/g20
export PYTHONPATH=/tmp/wt/src
PY=/work/main/.venv/bin/python
log() { echo "$(date -u +%H:%M:%S) $*" >> run.log; }
late() { [ "$(date -u +%H%M)" -ge 1420 ]; }
sim() { $PY -c "from meeple.cli import main; main()" simulate pergola --challenge $1 -n $2 --seed $3 --bots "$4" -w 2 --out $5 > /dev/null 2>> sim.err; }
log "G20: greedy and random, challenges 1-10, seeds 200-219"
for k in 1 2 3 4 5 6 7 8 9 10; do
  late && { log "late: no G20 challenge $k"; break; }
  sim $k 20 200 greedy g20_g_c$k.jsonl; sim $k 20 200 random g20_r_c$k.jsonl
  log "G20 challenge $k: $($PY /work/main/tools/strength_table.py --bot greedy g20_g_c$k.jsonl g20_r_c$k.jsonl | tail -1)"
done
log end
