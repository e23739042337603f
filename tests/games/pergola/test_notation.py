"""Move notation, refusals with reasons, and the terminal panels."""

from __future__ import annotations

import pytest

import meeple
from meeple.core.view import terminal_text
from tests.games.pergola.helpers import data, legal, start


def test_unknown_text_lists_the_accepted_forms() -> None:
    s = start()
    before = s.key()
    with pytest.raises(meeple.IllegalMove) as exc:
        s.play("plant a tree")
    assert "pick N" in exc.value.reason and "jump LILY" in exc.value.reason
    assert s.key() == before


def test_wrong_move_now_says_what_to_do() -> None:
    s = start()
    with pytest.raises(meeple.IllegalMove) as exc:
        s.play("jump 5")
    assert "pick a tool" in exc.value.reason and "pick 1" in exc.value.reason


def test_case_and_spaces_forgiven() -> None:
    s = start()
    s.play("  PICK   1 ")
    assert s.gardens[0].tools


def test_every_legal_text_parses_back() -> None:
    s = start(sheet=data(S01=["lantern-action", "butterfly"]))
    s.play("pick 1")
    for text in legal(s):
        assert str(s.parse_move(text)) == text


def test_render_shows_board_gardens_score_pad_and_challenge() -> None:
    s = start(challenge=3, sheet=data(S01=["hollyhock-blue", "hollyhock-red"]))
    s.play("pick 1")
    out = terminal_text(s, 0, 0)
    for part in ("Action board", "Tool holder", "Leaf piles", "Pond", "Hollyhocks", "Magnolia",
                 "Pergola", "Score pad", "hollyhocks", "Challenge 3", "Przemek 102"):
        assert part in out, part
    assert "]B[" in out and "]R[" in out  # colour letters always shown
