"""A shared check for states whose clones share the seats' parts (sheets, gardens)
copy-on-write (``meeple.core.state.part_for_update``)."""

from __future__ import annotations

import random
from typing import Any

import meeple


def check_clones_never_leak(game: str, parts: str, players: tuple[int, ...], seed: int,
                            only_mover_copies: bool = False, **variant: Any) -> None:
    """Random games of ``game``: a clone shares every part in the state's ``parts`` list; a
    move on the clone never shows on the original nor the other way round; a kept part key
    always equals one made afresh. With ``only_mover_copies``, a seat move copies exactly the
    mover's part (games where every seat move changes it)."""

    def fresh_key(s: Any) -> object:
        for part in getattr(s, parts):
            part._key = None
        return s.key()

    rng = random.Random(seed)
    for n in players:
        s = meeple.new_game(game, players=n, seed=n, **variant)
        while not s.is_over:
            before = s.key()
            c = s.clone()
            assert all(a is b for a, b in zip(getattr(c, parts), getattr(s, parts), strict=True))
            moves = c.legal_moves() if c.to_move is not None and c.to_move >= 0 else None
            if moves:
                mover = c.to_move
                c.play(rng.choice(moves))
                assert s.key() == before == fresh_key(s)
                if only_mover_copies:
                    shared = [a is b for a, b in zip(getattr(c, parts), getattr(s, parts),
                                                     strict=True)]
                    assert shared == [seat != mover for seat in range(n)]
            # and the other way round: the original moves on, the clone keeps its position
            kept = c.key()
            if s.to_move is not None and s.to_move >= 0:
                s.play(rng.choice(s.legal_moves()))
            else:
                s.sample_chance()
            assert c.key() == kept == fresh_key(c)
            assert s.key() == fresh_key(s)
