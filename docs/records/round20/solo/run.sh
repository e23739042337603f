#!/bin/bash
# Round 20's plan: C38 ends with challenges 8, 9 and 10 (round 19's rules)
cd /tmp/r20/solo
export PYTHONPATH=/tmp/wt/src
PY=/work/main/.venv/bin/python
M37="mcts:iterations=1000;seconds=1;beam=4;rollout=greedy;horizon=1;crn=1;diverse=1;top=4"
log() { echo "$(date -u +%H:%M:%S) $*" >> run.log; }
late() { [ "$(date -u +%H%M)" -ge 1430 ]; }
sim() { $PY -c "from meeple.cli import main; main()" simulate pergola --challenge $1 -n $2 --seed $3 --bots "$4" -w 2 --out $5 > /dev/null 2>> sim.err; }
log "C38 (round 20): challenges 8, 9 and 10"
for k in 8 9 10; do
  late && { log "late: no C38 challenge $k"; break; }
  sim $k 40 100 greedy c38_g_c$k.jsonl; sim $k 40 100 "$M37" c38_c$k.jsonl
  r=$($PY c38_read.py $k); log "C38 half 1: $r"
  echo "$r" | grep -q "; stop" && { log "C38 challenge $k stops (futility)"; continue; }
  late && { log "late: C38 challenge $k's second half not played: not read"; break; }
  sim $k 40 140 greedy c38_g_c$k.jsonl; sim $k 40 140 "$M37" c38_c$k.jsonl
  log "C38 final: $($PY c38_read.py $k)"
done
log end
