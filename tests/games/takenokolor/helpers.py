"""Forced rolls, turns and small hand-made sheets for Takenokolor scenario tests."""

from __future__ import annotations

from typing import Any

import meeple
from meeple.games.takenokolor.rules import TakenokolorState


def new(sheet: Any = "2-pandas", players: int = 2) -> TakenokolorState:
    s = meeple.new_game("takenokolor", players=players, sheet=sheet)
    assert isinstance(s, TakenokolorState)
    return s


def roll(s: TakenokolorState, spec: str) -> None:
    """Force a roll: spec like 'circle square triangle circle' (B, Y, P, G in rolling order)."""
    for colour, sym in zip("BYPG", spec.split(), strict=True):
        s.play(f"roll {colour} {sym}")


def turn(s: TakenokolorState, marker: str, *items: str) -> None:
    """Take ``marker`` and colour the first item; later items are free colourings."""
    s.play(f"take {marker}")
    s.play(f"colour {items[0]}")
    for it in items[1:]:
        s.play(f"free {it}")


def paint(s: TakenokolorState, seat: int, *ids: str, colour: str = "B") -> None:
    """Test set-up only: colour items for ``seat`` through the engine's own colouring step
    (order rules, ladybugs and races apply), dropping any free colourings it would earn."""
    for iid in ids:
        i = s.cs.index[iid]
        assert s.avail[seat] >> i & 1, f"{iid} is not open for seat {seat}"
        s._colour(seat, i, "BYPG".index(colour))
        s.pending.clear()


def coloured(s: TakenokolorState, seat: int) -> set[str]:
    return {iid for k, iid in enumerate(s.cs.item_ids) if s.coloured[seat] >> k & 1}


def texts(s: TakenokolorState) -> list[str]:
    return [str(m) for m in s.legal_moves()]


def it(iid: str, colour: str, symbol: str, col: int, row: int, **kw: Any) -> dict[str, Any]:
    return {"id": iid, "colour": colour, "symbol": symbol, "col": col, "row": row, **kw}


def mini(areas: list[dict[str, Any]], ladybugs: list[dict[str, Any]] | None = None,
         scoring: list[dict[str, Any]] | None = None, **kw: Any) -> dict[str, Any]:
    """A small sheet as data; three dummy ladybugs by default so it validates."""
    return {
        "name": "test", "areas": areas,
        "ladybugs": ladybugs if ladybugs is not None else [
            {"id": f"lb{k}", "areas": [areas[0]["id"]]} for k in range(3)],
        "scoring": scoring or [{"row": "Points", "rule": "sum", "kinds": [areas[0]["kind"]]},
                               {"row": "Ladybugs", "rule": "ladybugs", "points": 1}],
        **kw,
    }
