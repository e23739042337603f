"""Golden games: Pergola's legal moves, chance outcomes and scores stay exactly as they were.

Seeded random games for 1-4 players and the solo challenges are played to the end. At every
seat decision the legal move texts (in the order the engine lists them, which a seeded bot
depends on, and sorted) and the chosen move go into a SHA-256 digest; at every chance event
the outcomes with their probabilities and the drawn outcome do too. The digest, the number of
decisions and the final score pads are compared with ``golden.json``, made from the engine
before its turn engine was restructured. Any change to a legal-move list, its order, a chance
distribution or a score fails here.

Regenerate (only when a ruling deliberately changes the rules):
``uv run python -m tests.games.pergola.test_golden``.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

import meeple
from meeple.core.rng import Rng

FIXTURE = Path(__file__).with_name("golden.json")

#: (players, challenge, seed, eager): every player count with several seeds, every solo
#: challenge; "eager" games rarely skip or stop, so lanterns, honey pots, long flutters and the
#: bottom of the cascade come up more often.
GAMES: tuple[tuple[int, int | None, int, bool], ...] = (
    *((p, None, seed, False) for p in (1, 2, 3, 4) for seed in (0, 1, 2, 3, 4)),
    *((1, ch, 100 + ch, False) for ch in range(1, 11)),
    *((p, None, 200 + p, True) for p in (1, 2, 3, 4)),
    *((1, ch, 300 + ch, True) for ch in (2, 4, 5)),
)
PASSES = ("skip", "stop")


def _name(players: int, challenge: int | None, seed: int, eager: bool) -> str:
    return f"p{players}-c{challenge or 0}-s{seed}" + ("-eager" if eager else "")


def play_golden(players: int, challenge: int | None, seed: int,
                eager: bool = False) -> dict[str, Any]:
    """Play one seeded random game; return its digest, decision count and score pads."""
    options: dict[str, Any] = {"challenge": challenge} if challenge else {}
    s = meeple.new_game("pergola", players=players, seed=seed, **options)
    rng = Rng(seed * 7919 + players)
    h = hashlib.sha256()
    decisions = 0
    while not s.is_over:
        if s.to_move == meeple.CHANCE:
            outcomes = s.chance_outcomes()
            h.update(("C|" + ";".join(f"{m}={p!r}" for m, p in outcomes)).encode())
            move = s.sample_chance(rng)
            h.update(f">{move}\n".encode())
            continue
        legal = s.legal_moves()
        texts = [str(m) for m in legal]
        if eager and len(legal) > 1 and rng.random() < 0.9:
            move = rng.choice([m for m in legal if str(m) not in PASSES])
        else:
            move = rng.choice(legal)
        h.update((f"S{s.to_move}|" + ";".join(texts) + "|" + ";".join(sorted(texts))
                  + f">{move}\n").encode())
        s.play(move, check=False)
        decisions += 1
    scores = s.scores()
    return {
        "sha256": h.hexdigest(),
        "decisions": decisions,
        "moves": len(s.history),
        "totals": [sc.total for sc in scores],
        "rows": [dict(sc.breakdown) for sc in scores],
    }


def _fixture() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize(("players", "challenge", "seed", "eager"), GAMES,
                         ids=[_name(*g) for g in GAMES])
def test_golden_game(players: int, challenge: int | None, seed: int, eager: bool) -> None:
    want = _fixture()[_name(players, challenge, seed, eager)]
    got = play_golden(players, challenge, seed, eager)
    assert got["totals"] == want["totals"]
    assert got["rows"] == want["rows"]
    assert got["decisions"] == want["decisions"]
    assert got["moves"] == want["moves"]
    assert got["sha256"] == want["sha256"]


def test_golden_replay_by_text_gives_the_same_game() -> None:
    """A record's move texts, parsed back one by one, rebuild the same game (records depend
    on the canonical text and ``parse_move``)."""
    s = meeple.new_game("pergola", players=3, seed=5)
    rng = Rng(5)
    while not s.is_over:
        if s.to_move == meeple.CHANCE:
            s.sample_chance(rng)
        else:
            s.play(rng.choice(s.legal_moves()), check=False)
    again = meeple.replay(s.record())
    assert [str(m) for m in again.history] == [str(m) for m in s.history]
    assert [x.total for x in again.scores()] == [x.total for x in s.scores()]
    assert again.key() == s.key()


def test_fixture_covers_every_game() -> None:
    assert set(_fixture()) == {_name(*g) for g in GAMES}


if __name__ == "__main__":
    out = {_name(*g): play_golden(*g) for g in GAMES}
    lines = [f" {json.dumps(k)}: {json.dumps(out[k], sort_keys=True, separators=(',', ':'))}"
             for k in sorted(out)]  # one line per game
    FIXTURE.write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")
    print(f"wrote {FIXTURE} ({len(out)} games)")
