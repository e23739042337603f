"""Takenokolor's score rows in words, for the terminal's score pad (render.py) and the web
view (view.py) alike: what each row of a sheet counts (:func:`row_text`), what a product's
factor measures (:func:`measure_text`) and what a row counts for one seat now
(:func:`row_detail`, e.g. ``3 of 4``). All read from the sheet data, so a user's own sheet is
worded too. Only words: the scores themselves are :mod:`meeple.games.takenokolor.scoring`'s."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from meeple.games.takenokolor import scoring

if TYPE_CHECKING:
    from meeple.games.takenokolor.rules import TakenokolorState
    from meeple.games.takenokolor.sheet import Compiled, Measure, Row

#: What one item of an area is called, per kind (for labels and legends).
ITEM_WORDS: dict[str, str] = {
    "bamboo": "bamboo section", "cloud": "cloud section", "sun": "sun ray", "pond": "pond",
    "river": "river section", "fish": "fish", "lantern": "lantern", "shoot": "bamboo shoot",
    "favour": "party favour", "dragon": "dragon section", "trail": "fireworks trail section",
    "burst": "fireworks burst",
}
#: An area of each kind, in words.
AREA_WORDS: dict[str, str] = {
    "bamboo": "bamboo", "cloud": "cloud", "sun": "sun", "pond": "pond", "river": "river",
    "fish": "fish", "lantern": "lantern", "shoot": "bamboo shoots", "favour": "party favours",
    "dragon": "dragon", "trail": "fireworks trail", "burst": "fireworks bursts",
}


def resolve(cs: Compiled, areas: Sequence[str], kinds: Sequence[str]) -> list[str]:
    """The ids of the areas a row or measure reads (named ones, or all of these kinds)."""
    return [cs.area_ids[ai] for ai in scoring._areas(cs, areas, kinds)]


def _plural(kind: str) -> str:
    word = ITEM_WORDS.get(kind, kind)
    return word if word.endswith(("s", "fish")) else word + "s"


def _kinds_of(cs: Compiled, areas: Sequence[str], kinds: Sequence[str]) -> list[str]:
    found = [cs.sheet.areas[ai].kind for ai in scoring._areas(cs, areas, kinds)]
    return list(dict.fromkeys(found))


def _items_words(cs: Compiled, areas: Sequence[str], kinds: Sequence[str]) -> str:
    """The items a row or measure reads: 'bamboo sections', 'lanterns of lanterns-g'."""
    words = " and ".join(_plural(k) for k in _kinds_of(cs, areas, kinds)) or "items"
    return f"{words} of {', '.join(areas)}" if areas else words


def _areas_words(cs: Compiled, areas: Sequence[str], kinds: Sequence[str]) -> str:
    """The areas a row counts, singular: 'sun', 'pond', 'bamboo'."""
    words = " or ".join(AREA_WORDS.get(k, k) for k in kinds)
    return ", ".join([*([words] if words else []), *areas])


def measure_text(cs: Compiled, m: Measure) -> str:
    """What one factor of a product row measures, in words."""
    if m.op == "sum":
        return f"points of the coloured {_items_words(cs, m.areas, m.kinds)}"
    if m.op == "count":
        return f"{_items_words(cs, m.areas, m.kinds)} coloured"
    ids = resolve(cs, m.areas, m.kinds)
    kinds = _kinds_of(cs, m.areas, m.kinds)
    if kinds == ["bamboo"]:
        return f"the highest coloured leaves of {', '.join(ids)}, added up"
    item = " or ".join(ITEM_WORDS.get(k, k) for k in kinds)
    if len(ids) == 1:
        return f"the points of the last coloured {item}"
    return f"the points of the last coloured {item} of each of {', '.join(ids)}, added up"


def row_text(cs: Compiled, row: Row) -> str:
    """What a score row counts, in words."""
    if row.rule == "sum":
        return f"points printed on the coloured {_items_words(cs, row.areas, row.kinds)}"
    if row.rule == "complete":
        return f"{row.points} per complete {_areas_words(cs, row.areas, row.kinds)}"
    if row.rule == "groups":
        return (f"{row.points} per group of same-colour "
                f"{_areas_words(cs, row.areas, row.kinds)} all complete")
    if row.rule == "majority":
        return (f"{'/'.join(map(str, row.places))} for the most, 2nd and 3rd most coloured "
                f"{_items_words(cs, row.areas, row.kinds)} (ties share the place; none for "
                "none)")
    if row.rule == "races":
        return "the numbers kept in the first-player boxes"
    if row.rule == "product":
        assert row.left is not None and row.right is not None
        return f"({measure_text(cs, row.left)}) x ({measure_text(cs, row.right)})"
    return f"{row.points} per circled ladybug"


def row_detail(st: TakenokolorState, row: Row, p: int) -> str:
    """What a row counts for seat ``p`` now (e.g. ``3 of 4``, ``7 x 2``)."""
    cs = st.cs
    col = st.coloured[p]
    if row.rule in ("sum", "majority", "complete", "groups"):
        ais = scoring._areas(cs, row.areas, row.kinds)
        if row.rule == "complete":
            return f"{sum(cs.complete(col, ai) for ai in ais)} of {len(ais)}"
        if row.rule == "groups":
            groups: dict[tuple[str, str], bool] = {}
            for ai in ais:
                key = cs.area_group[ai]
                if key is not None:
                    groups[key] = groups.get(key, True) and cs.complete(col, ai)
            return f"{sum(groups.values())} of {len(groups)}"
        mask = scoring._mask(cs, ais)
        return f"{(col & mask).bit_count()} of {mask.bit_count()}"
    if row.rule == "races":
        ids = [r.id for r in cs.sheet.races]
        chosen = [ids.index(r) for r in row.races] if row.races else list(range(len(ids)))
        kept = [str(cs.race_first[ri] if st.first[p] >> ri & 1 else cs.race_later[ri])
                for ri in chosen if (st.first[p] | st.later[p]) >> ri & 1]
        return "+".join(kept) if kept else "none"
    if row.rule == "product":
        assert row.left is not None and row.right is not None
        return f"{scoring.measure(cs, row.left, col)} x {scoring.measure(cs, row.right, col)}"
    return f"{st.ladybugs[p].bit_count()} of {len(cs.sheet.ladybugs)}"
