"""experiments/reward_spread.py: how far apart a search's root turns come out."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

TOOL = Path(__file__).resolve().parents[1] / "reward_spread.py"
SMALL = ("--seeds", "2", "--per-seed", "3", "--every", "4", "--iterations", "40")


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(TOOL), *args], capture_output=True, text=True)


def _saturated(out: str) -> int:
    found = re.search(r"saturated (\d+)%", out)
    assert found, out
    return int(found.group(1))


def test_a_wide_scale_never_saturates_and_a_narrow_one_does() -> None:
    """The same searches with the logistic's scale far wider than any margin keep every mean
    reward near 1/2 (0 % saturated); with a scale far narrower than the margins most
    positions' best turn sits at the reward's edge."""
    wide = _run("reefs", "--players", "3", "--variant", "level=2", "--bot", "mcts:scale=1000",
                *SMALL)
    assert wide.returncode == 0, wide.stderr
    assert wide.stdout.startswith("reefs level=2, 3 seats, mcts:scale=1000, 40 iterations: ")
    assert _saturated(wide.stdout) == 0
    narrow = _run("reefs", "--players", "3", "--variant", "level=2", "--bot", "mcts:scale=0.01",
                  *SMALL)
    assert narrow.returncode == 0, narrow.stderr
    assert _saturated(narrow.stdout) >= 50
    assert re.search(r"median gap \d\.\d{4}, top visits \d\.\d\d$", narrow.stdout.strip())


def test_the_default_bot_is_the_default_search() -> None:
    out = _run("takenokolor", "--players", "3", "--variant", "sheet=2-pandas", *SMALL)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("takenokolor sheet=2-pandas, 3 seats, mcts, 40 iterations: ")
    assert 0 <= _saturated(out.stdout) <= 100


def test_bad_input_is_refused_with_what_is_allowed() -> None:
    game = _run("chess", *SMALL)
    assert game.returncode == 2 and "unknown game 'chess'" in game.stderr
    assert "reefs" in game.stderr and game.stdout == ""
    bot = _run("reefs", "--bot", "greedy", *SMALL)
    assert bot.returncode == 2 and "--bot must be an mcts spec" in bot.stderr
    variant = _run("reefs", "--variant", "level", *SMALL)
    assert variant.returncode == 2 and "must be written key=value" in variant.stderr
    option = _run("reefs", "--bot", "mcts:bogus=1", *SMALL)
    assert option.returncode == 2 and "unknown mcts option(s) bogus" in option.stderr
