"""The data bundle: shipped files validate and are marked reconstructed; printed counts hold;
broken user data gets a clear error; a user's bundle (directory, one file, dict) plays."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

import meeple
from meeple.core.errors import SheetError
from meeple.games.pergola.sheet import PARTS, SHEETS_DIR, load_bundle
from tests.games.pergola.helpers import data


def test_shipped_files_are_marked_reconstructed() -> None:
    b = load_bundle(None)
    for p in PARTS:
        part = getattr(b, p)
        assert part.reconstructed is True and part.note
        text = (SHEETS_DIR / f"{p}.toml").read_text(encoding="utf-8")
        assert "reconstructed = true" in text


def test_p2_printed_counts() -> None:
    b = load_bundle(None)
    types = Counter(t.type for t in b.tools.tool)
    assert types == {"shovel": 15, "rake": 15, "trowel": 15, "hoe": 18}
    comps = Counter(c for t in b.tools.tool for c in t.components)
    for c in ("hollyhock-blue", "hollyhock-yellow", "hollyhock-red", "magnolia-single",
              "magnolia-double", "buttercup-small", "buttercup-large", "lavender-leaf"):
        assert comps[c] == b.tools.supply[c], c  # every plant comes from a tool
    assert sum(comps[f"lantern-{k}"] for k in ("drip", "jump", "insect", "action")) == 16
    assert all(len(t.components) == 2 for t in b.tools.tool)  # P2a
    s = b.tools.supply
    assert (s["hollyhock-blue"], s["magnolia-single"], s["magnolia-double"]) == (11, 12, 14)
    assert (s["buttercup-small"], s["buttercup-large"], s["lavender-leaf"]) == (10, 10, 19)
    assert (s["lavender-flower"], s["dragonfly-small"], s["dragonfly-medium"]) == (9, 9, 8)
    assert (s["dragonfly-large"], s["butterfly"], s["ladybug"], s["bee"]) == (4, 30, 30, 40)
    leaves = Counter(x.colour for x in b.leaves.leaf)
    assert len(b.leaves.leaf) == 30 and set(leaves.values()) == {6} and len(leaves) == 5
    reqs = sorted(x.dragonfly for x in b.pond.lily if x.dragonfly)
    assert reqs == ["buttercup", "hollyhock", "lavender", "magnolia"]
    assert b.tools.board[0] == "flutter"  # P9


def test_bundle_round_trips_through_sheet_data() -> None:
    s = meeple.new_game("pergola", players=2, seed=3)
    again = meeple.new_game("pergola", players=2, seed=3, sheet=s.sheet_data())
    assert again.key() == s.key()
    assert "sheet" not in s.variant()


def test_user_directory_and_one_file_bundle(tmp_path: Path) -> None:
    d = tmp_path / "mine"
    d.mkdir()
    for p in PARTS:
        (d / f"{p}.toml").write_text((SHEETS_DIR / f"{p}.toml").read_text(encoding="utf-8"),
                                     encoding="utf-8")
    s = meeple.new_game("pergola", players=1, sheet=str(d))
    assert s.sheet_data() == load_bundle(None).as_data()
    one = tmp_path / "one.toml"
    text = ""
    for p in PARTS:
        body = (SHEETS_DIR / f"{p}.toml").read_text(encoding="utf-8")
        # nest each file under its table: prefix every table header
        lines = []
        for line in body.splitlines():
            if line.startswith("[["):
                line = f"[[{p}.{line[2:]}"
            elif line.startswith("["):
                line = f"[{p}.{line[1:]}"
            lines.append(line)
        first = next((i for i, ln in enumerate(lines) if ln.startswith("[")), len(lines))
        text += f"[{p}]\n" + "\n".join(lines[:first]) + "\n" + "\n".join(lines[first:]) + "\n"
    one.write_text(text, encoding="utf-8")
    s2 = meeple.new_game("pergola", players=1, sheet=str(one))
    assert s2.sheet_data() == load_bundle(None).as_data()


def test_broken_user_data_clear_errors(tmp_path: Path) -> None:
    bad = data(S01=["hollyhock-green", "bee"])
    with pytest.raises(SheetError, match="unknown component 'hollyhock-green'"):
        meeple.new_game("pergola", players=1, sheet=bad)
    bad = data()
    bad["pond"]["lily"][0]["adjacent"] = ["2"]
    bad["pond"]["lily"][1]["adjacent"] = ["3"]
    with pytest.raises(SheetError, match="symmetric"):
        meeple.new_game("pergola", sheet=bad)
    bad = data()
    bad["cascade"]["stone"][5]["to"] = ["nowhere"]
    with pytest.raises(SheetError, match="neither a stone nor 'bottom'"):
        meeple.new_game("pergola", sheet=bad)
    bad = data()
    bad["tools"]["board"] = ["bird", "flutter", "drip", "frog"]
    with pytest.raises(SheetError, match="insect flutter first"):
        meeple.new_game("pergola", sheet=bad)
    bad = data()
    del bad["leaves"]
    with pytest.raises(SheetError, match="missing: leaves"):
        meeple.new_game("pergola", sheet=bad)
    f = tmp_path / "pond.toml"
    f.write_text((SHEETS_DIR / "pond.toml").read_text().replace('insect = "bee"',
                                                                  'insect = "wasp"', 1))
    d = tmp_path / "b"
    d.mkdir()
    for p in PARTS:
        src = f if p == "pond" else SHEETS_DIR / f"{p}.toml"
        (d / f"{p}.toml").write_text(src.read_text())
    with pytest.raises(SheetError) as exc:
        meeple.new_game("pergola", sheet=str(d))
    assert exc.value.line is not None and "insect" in str(exc.value)
    with pytest.raises(SheetError, match="shipped: standard"):
        meeple.new_game("pergola", sheet="nonesuch")


def test_a_different_layout_plays() -> None:
    d = data()
    # a pond of two lilies and a tiny cascade, any valid layout must play
    d["cascade"] = {"reconstructed": True, "note": "test", "starts": ["a", "b"], "stone": [
        {"id": "a", "to": ["c"]}, {"id": "b", "to": ["c", "bottom"]},
        {"id": "c", "insect": "bee", "to": ["bottom"]}]}
    s = meeple.new_game("pergola", players=2, seed=1, sheet=d)
    from meeple.core.rng import Rng

    rng = Rng(1)
    while not s.is_over:
        if s.to_move == meeple.CHANCE:
            s.sample_chance(rng)
        else:
            s.play(rng.choice(s.legal_moves()))
    assert len(s.scores()) == 2
