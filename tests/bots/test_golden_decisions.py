"""Every bot decision on fixed seeds is the one recorded in golden_decisions.json.

The cases (tests/bots/golden.py) cover every game, the variants and seat counts whose bot
defaults differ, ``random``, ``greedy`` and ``mcts`` with an iteration budget (so the search is
deterministic), from the start and from the middle of a game. A restructuring of the bots must
leave every decision as it was; only the moves are compared, not how a search found them.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.bots.golden import CASES, DATA, play_case

GOLDEN: dict[str, list[str]] = json.loads(DATA.read_text())


def test_every_case_has_golden_data() -> None:
    assert sorted(GOLDEN) == sorted(cid for cid, *_ in CASES)


@pytest.mark.parametrize(("cid", "game", "options", "bots", "seed", "decisions", "skip"), CASES,
                         ids=[c[0] for c in CASES])
def test_decisions_match_the_golden_record(cid: str, game: str, options: dict[str, Any],
                                           bots: tuple[str, ...], seed: int, decisions: int,
                                           skip: int) -> None:
    got = play_case(game, options, bots, seed, decisions, skip)
    want = GOLDEN[cid]
    for i, (g, w) in enumerate(zip(got, want, strict=False)):
        assert g == w, f"{cid}: decision {i} differs: now {g!r}, recorded {w!r}"
    assert len(got) == len(want)
