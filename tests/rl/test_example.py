"""examples/train_masked_policy.py runs end to end (a few seconds of training, a few games of
evaluation): it saves a policy that loads and plays legal moves, a learning curve and a result
with intervals. How well it learns is measured in docs/rl.md, not asserted here."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np

from meeple.rl import single_agent_env

ROOT = Path(__file__).resolve().parents[2]


def test_the_training_example_saves_a_policy_a_curve_and_a_result(tmp_path: Path) -> None:
    out = tmp_path / "run"
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "train_masked_policy.py"), "--minutes", "0.1",
         "--eval", "4", "--eval-easy", "4", "--out", str(out)],
        capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "policy vs random" in done.stdout and "95 % CI" in done.stdout
    result = json.loads((out / "result.json").read_text())
    assert result["episodes"] > 0
    for row in result["policy"] + result["random"]:
        lo, hi = row["ci95"]
        assert 0 <= lo <= row["win_rate"] <= hi <= 1 and row["games"] == 4
    assert (out / "curve.png").read_bytes()[:4] == b"\x89PNG"
    saved = np.load(out / "policy.npz")
    meta = json.loads(str(saved["meta"]))
    variant = {k: v for k, v in meta["options"].items() if k != "shaping"}
    g = single_agent_env(meta["game"], opponents=["random"], **variant)
    assert saved["W"].shape == (len(g.encoding.actions), g.encoding.size)
    assert meta["actions"] == list(g.encoding.actions)
    obs, _ = g.reset(seed=0)
    logits = saved["W"] @ (obs["observation"] * saved["scale"]) + saved["b"]
    best = int(np.argmax(np.where(obs["action_mask"] == 1, logits, -np.inf)))
    assert best in g.legal_actions()
