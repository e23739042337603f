#!/bin/bash
# after ext2.sh: Pergola greedy self-play to 60 games per seat count
cd /tmp/bal
while ! grep -q " ext2 end$" run.log; do sleep 10; done
export PYTHONPATH=/tmp/wt/src
PY=/work/main/.venv/bin/python
log() { echo "$(date -u +%H:%M:%S) $*" >> run.log; }
sim() { $PY -c "from meeple.cli import main; main()" simulate "$@" -w 2 > /dev/null 2>> sim.err || log "FAILED: $*"; }
log "ext3 start"
sim pergola -n 60 --bots greedy,greedy --out greedy-pergola.jsonl
sim pergola -n 60 --bots greedy,greedy,greedy --out greedy-pergola.jsonl
sim pergola -n 60 --bots greedy,greedy,greedy,greedy --out greedy-pergola.jsonl
log "ext3 end"
