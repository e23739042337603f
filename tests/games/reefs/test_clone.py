"""Reefs states: clones share sheets copy-on-write and never leak."""

from __future__ import annotations

import meeple


def test_clones_share_sheets_until_one_changes_and_never_leak() -> None:
    """Copy-on-write sheets: a clone shares its sheets, copies one only when its seat draws,
    and a move on either side never shows on the other; kept sheet keys stay true."""
    import random

    from meeple.games.reefs.state import ReefsState

    def fresh_key(s: ReefsState) -> object:
        for sh in s.sheets:
            sh._key = None
        return s.key()

    rng = random.Random(5)
    for players in (1, 2, 4):
        s = meeple.new_game("reefs", players=players, seed=players, level=2)
        assert isinstance(s, ReefsState)
        while not s.is_over:
            before = s.key()
            c = s.clone()
            assert all(a is b for a, b in zip(c.sheets, s.sheets, strict=True))
            if c.to_move is not None and c.to_move >= 0:
                c.play(rng.choice(c.legal_moves()))
                assert s.key() == before == fresh_key(s)
            kept = c.key()
            if s.to_move is not None and s.to_move >= 0:
                s.play(rng.choice(s.legal_moves()))
            else:
                s.sample_chance()
            assert c.key() == kept == fresh_key(c)
            assert s.key() == fresh_key(s)
