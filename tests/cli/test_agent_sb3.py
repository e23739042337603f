"""The ``sb3:`` adapter of ``meeple agent`` end to end, without Stable-Baselines3 (not a
dependency: it brings torch). A stand-in ``sb3_contrib`` package on the agent's path has the
two calls the adapter makes of the real one, ``MaskablePPO.load(path, device=...)`` and
``predict(observation, action_masks=..., deterministic=...)``; it writes down what it was
given. The agent plays a table to its end through it, and every observation it was asked
about was the float vector scaled to [0, 1] as ``maskable_env`` trains on, with a mask of the
legal actions."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from tests.cli.test_agent import agent, bot_token, finish, over, seat_moves, server, table_for
from tests.server.conftest import Server

__all__ = ["server"]  # the fixture, used by name

STAND_IN = textwrap.dedent('''
    """A stand-in for sb3_contrib in meeple's test: load and predict, each call written down."""
    import json
    import os

    import numpy as np
    from gymnasium import spaces


    class MaskablePPO:
        observation_space = spaces.Box(0.0, 1.0, shape=(4,), dtype=np.float32)

        @classmethod
        def load(cls, path, device="auto"):
            with open(path, "rb") as f:
                if f.read() != b"a trained model":
                    raise ValueError("not a model zip")
            assert device == "cpu"
            return cls()

        def predict(self, observation, action_masks=None, deterministic=False):
            legal = np.flatnonzero(action_masks)
            with open(os.environ["SB3_CALLS"], "a") as f:
                f.write(json.dumps({
                    "dtype": str(observation.dtype), "low": float(observation.min()),
                    "high": float(observation.max()), "legal": int(legal.size),
                    "mask": str(action_masks.dtype), "deterministic": deterministic}) + "\\n")
            return legal[-1], None
''')


def test_an_sb3_model_plays_through_the_adapter(server: Server, tmp_path: Path) -> None:
    (tmp_path / "sb3_contrib").mkdir()
    (tmp_path / "sb3_contrib" / "__init__.py").write_text(STAND_IN)
    model = tmp_path / "model.zip"
    model.write_bytes(b"a trained model")
    calls = tmp_path / "calls.jsonl"
    secret, token = bot_token(server, tmp_path)
    proc = agent(server, token, "--policy", f"sb3:{model}", "--games", "1", cwd=tmp_path,
                 env={"SB3_CALLS": str(calls)})
    table = table_for(server, secret, game="takenokolor", variant={})
    code, err = finish(proc)
    assert code == 0, err
    assert over(server, table) and "move refused" not in err and "illegal" not in err, err
    asked = [json.loads(line) for line in calls.read_text().splitlines()]
    assert len(asked) == seat_moves(server, table) > 0
    assert all(a["dtype"] == "float32" and 0 <= a["low"] <= a["high"] <= 1 and a["legal"] > 0
               and a["mask"] == "bool" and a["deterministic"] for a in asked), asked[:5]


def test_a_file_that_is_no_model_is_one_line_and_exit_code_2(server: Server, tmp_path: Path
                                                           ) -> None:
    (tmp_path / "sb3_contrib").mkdir()
    (tmp_path / "sb3_contrib" / "__init__.py").write_text(STAND_IN)
    junk = tmp_path / "junk.zip"
    junk.write_bytes(b"PK not a model")
    _, token = bot_token(server, tmp_path)
    code, err = finish(agent(server, token, "--policy", f"sb3:{junk}", cwd=tmp_path))
    assert code == 2 and "cannot load it (not a model zip)" in err and "Traceback" not in err, err
