"""Random games on every sheet, checked move by move against the rulebook's round (T2, T4)."""

from __future__ import annotations

import pytest

import meeple
from meeple.games.takenokolor.sheet import COLOURS, SYMBOLS, load
from tests.games.takenokolor.helpers import new


@pytest.mark.parametrize("sheet", ["2-pandas", "3-pandas", "4-pandas-river", "4-pandas-dragon"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_follow_the_round(sheet: str, players: int) -> None:
    items = {i.id: i for a in load(sheet).areas for i in a.items}
    for seed in range(6):
        s = new(sheet, players)
        rng = meeple.Rng(seed)
        rolled: dict[str, str] = {}
        takers: list[int] = []
        hand = ""
        while not s.is_over:
            if s.to_move == meeple.CHANCE:
                if len(rolled) == 4 or not rolled:
                    if rolled:  # a round is over
                        assert len(takers) == len(set(takers)) <= players  # one marker each
                        assert s.rounds >= 1
                    rolled, takers = {}, []
                move = s.sample_chance(rng)
                _, colour, sym = str(move).split()
                rolled[colour] = sym
                continue
            seat = s.to_move
            move = rng.choice(s.legal_moves())
            word, _, arg = str(move).partition(" ")
            if word == "take":
                takers.append(seat)
                hand = arg
            elif word == "colour":
                it = items[arg]
                assert it.symbol == rolled[hand]  # colour AND symbol (T2)
                assert it.colour in (hand, "any")
            s.play(move)
            if s.to_move == meeple.CHANCE and s.n_rolled == 0:
                assert max(lb.bit_count() for lb in s.ladybugs) < 3  # T4: no early end
        need = s.cs.sheet.ladybugs_to_end
        assert max(lb.bit_count() for lb in s.ladybugs) >= need or not any(s.avail)
        assert set(COLOURS) >= set(rolled) and set(SYMBOLS) >= set(rolled.values())
