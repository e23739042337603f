"""Every game's layout names its score-pad rows for the end-of-game table: the rows in the
engine's order, each with a label in words (Gardens and Reefs ``score_rows``, Pergola
``score_pad``; Takenokolor's rows are named as printed, its ``scoring[].row``)."""

from __future__ import annotations

import pytest

import meeple
from meeple.core.present import presentation

VARIANTS = [(g.name, dict(v)) for g in meeple.games() for v in g.variants]


@pytest.mark.parametrize(("game", "variant"), VARIANTS,
                         ids=[f"{g}-{'-'.join(map(str, v.values())) or 'std'}"
                              for g, v in VARIANTS])
def test_the_layout_labels_every_score_row_in_pad_order(game: str, variant: dict[str, object]
                                                        ) -> None:
    players = 1 if variant.get("challenge") else 2
    state = meeple.new_game(game, players=players, seed=3, **variant)
    keys = list(state.scores()[0].breakdown)
    layout = presentation(game).view_layout(state)
    if game == "takenokolor":
        assert [r["row"] for r in layout["scoring"]] == keys
        return
    rows = layout["score_rows"] if "score_rows" in layout else layout["score_pad"]
    assert [r["key"] for r in rows] == keys
    labels = [r["label"] for r in rows]
    assert all(label and label[0].isupper() for label in labels)
    assert len(set(labels)) == len(labels)
    if game in ("gardens", "reefs"):  # words, not the engine's keys
        assert all(r["label"] != r["key"] for r in rows)
