"""Takenokolor in words, for the terminal (render.py) and the web view (boards.py) alike.

The score rows: what each row of a sheet counts (:func:`row_text`), what a product's factor
measures (:func:`measure_text`) and what a row counts for one seat now (:func:`row_detail`, e.g.
``3 of 4``). All read from the sheet data, so a user's own sheet is worded too. Only words: the
scores themselves are :mod:`meeple.games.takenokolor.scoring`'s.

The game's story: an area's name (:func:`area_label`), the end of the game (:func:`end_reason`,
:func:`game_over_text`; from plain data, for the terminal drawing of a view: :func:`end_words`,
:func:`game_over_line`) and what happened between two states (:func:`announce`, registered as
``PRESENTATION.announce``), which the terminal prints after a move."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.markup import escape

from meeple.core.text import cap, possessive, subject, verb
from meeple.games.takenokolor import scoring
from meeple.games.takenokolor.moves import FREE, TAKE
from meeple.games.takenokolor.rules import OVER, TakenokolorState

if TYPE_CHECKING:
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


def area_label(st: TakenokolorState, ai: int) -> str:
    """A short name for an area, as written in the grid: its id when it names its kind
    (``cloud``, ``favours``), else kind and id (``lantern l1``); a bamboo is its id."""
    area = st.cs.sheet.areas[ai]
    if area.kind == "bamboo" or area.id.startswith(area.kind[:4]):
        return area.id
    return f"{area.kind} {area.id}"


def game_over_text(st: TakenokolorState) -> str:
    """The terminal's game-over line for ``st``."""
    return game_over_line(st.rounds, end_reason(st), [st.seats[w] for w in st.winners()],
                          [s.total for s in st.scores()])


def game_over_line(rounds: int, reason: str, winners: Sequence[str],
                   totals: Sequence[int]) -> str:
    """The game-over line (Rich markup): after which round and why (``reason``), then the
    winners' names and score, or the final score of a game alone (one total)."""
    head = f"Game over after round {rounds}: {reason}."
    if len(totals) == 1:  # a practice game alone has a score, not a winner (A5)
        return f"{head} Final score: {totals[0]}."
    names = " and ".join(escape(n) for n in winners)
    verb = "share the win" if len(winners) > 1 else "wins"
    return f"{head} {names} {verb} with {max(totals)}."


def end_reason(st: TakenokolorState, cite: bool = True) -> str:
    """Why the game ended; ``cite``: followed by the rule (the terminal's words), without it
    for the web view."""
    need = st.cs.sheet.ladybugs_to_end
    done = [st.seats[q] for q in range(st.players) if st.ladybugs[q].bit_count() >= need]
    return end_words(done, need, cite)


def end_words(done: Sequence[str], need: int, cite: bool = True) -> str:
    """Why the game ended, from the seats ``done`` that circled ``need`` ladybugs (none: no
    one could colour anything any more); ``cite`` adds the rule."""
    if done:
        return f"{', '.join(done)} circled {need} ladybugs" + (" (T4)" if cite else "")
    return ("nobody could colour anything any more, whatever the rolls"
            + (" (see docs/rules/takenokolor.md)" if cite else ""))


def announce(before: TakenokolorState, after: TakenokolorState) -> list[str]:
    """What happened between two states of one game, in words, for the players."""
    out: list[str] = []
    for q in range(after.players):
        out += _areas_completed(before, after, q)
        out += _free_colourings(before, after, q)
        out += _ladybugs_circled(before, after, q)
        out += _races_reached(before, after, q)
        out += _areas_locked(before, after, q)
    if after.rounds - before.rounds <= 1:
        out.extend(_skipped(before, after))
    if after.rounds > before.rounds and after.phase != OVER:
        out.append(f"Round {after.rounds} is over; the panda passes to "
                   f"{after.seats[after.holder]}, who rolls next")
    if after.phase == OVER and before.phase != OVER:
        out.append(game_over_text(after))
    return out


def _areas_completed(before: TakenokolorState, after: TakenokolorState, q: int) -> list[str]:
    """Each area seat ``q`` completed in between."""
    cs = after.cs
    name = after.seats[q]
    new = after.coloured[q] & ~before.coloured[q]
    out: list[str] = []
    for ai in range(len(cs.sheet.areas)):
        if new & cs.area_mask[ai] and cs.complete(after.coloured[q], ai) \
                and not cs.complete(before.coloured[q], ai):
            area = cs.sheet.areas[ai]
            what = area_label(after, ai)
            if area.kind == "bamboo":
                what = f"bamboo {what}"
            out.append(f"{cap(subject(name, 'completes'))} {possessive(name)} {what}")
    return out


def _free_colourings(before: TakenokolorState, after: TakenokolorState, q: int) -> list[str]:
    """T3: each free colouring seat ``q`` earned, by an item coloured or an area it completed,
    and whether it is lost (nothing it could go to)."""
    cs = after.cs
    name = after.seats[q]
    earned = []
    i_bits = after.coloured[q] & ~before.coloured[q]
    while i_bits:
        low = i_bits & -i_bits
        i = low.bit_length() - 1
        i_bits ^= low
        earned += [cs.grants[g] for g in cs.item_grants[i]]
        ai = cs.item_area[i]
        if cs.complete(after.coloured[q], ai) and not cs.complete(before.coloured[q], ai):
            earned += [cs.grants[g] for g in cs.area_grants[ai]]
    out: list[str] = []
    for g in earned:
        lost = not (after.phase == FREE and after.seat == q)
        out.append(f"{cap(subject(name, 'earns'))} a free colouring: {g.label or g.target}"
                   + (" (nothing it could go to: lost, T3)" if lost else " (T3)"))
    return out


def _ladybugs_circled(before: TakenokolorState, after: TakenokolorState, q: int) -> list[str]:
    """Each ladybug seat ``q`` circled, and T4: the game ends after the round that reaches
    the sheet's number."""
    cs = after.cs
    name = after.seats[q]
    need = cs.sheet.ladybugs_to_end
    out: list[str] = []
    for li, lb in enumerate(cs.sheet.ladybugs):
        if after.ladybugs[q] >> li & 1 and not before.ladybugs[q] >> li & 1:
            n = after.ladybugs[q].bit_count()
            text = (f"{cap(subject(name, 'circles'))} a ladybug: {lb.label or lb.id} "
                    f"({n} of {need})")
            if n >= need > before.ladybugs[q].bit_count():
                text += "; the game ends after this round (T4)"
            out.append(text)
    return out


def _races_reached(before: TakenokolorState, after: TakenokolorState, q: int) -> list[str]:
    """A3: each race seat ``q`` reached, first or after someone else, and what it keeps."""
    name = after.seats[q]
    out: list[str] = []
    for ri, race in enumerate(after.cs.sheet.races):
        label = race.label or race.id
        if after.first[q] >> ri & 1 and not before.first[q] >> ri & 1:
            out.append(f"{cap(subject(name, 'reaches', 'reach'))} {label} first: {name} "
                       f"{verb(name, 'keeps')} {race.first}; anyone later keeps {race.later} "
                       "(A3)")
        if after.later[q] >> ri & 1 and not before.later[q] >> ri & 1:
            out.append(f"{cap(subject(name, 'reaches', 'reach'))} {label} after someone else: "
                       f"{name} {verb(name, 'keeps')} {race.later}")
    return out


def _areas_locked(before: TakenokolorState, after: TakenokolorState, q: int) -> list[str]:
    """T6: seat ``q``'s area locked because someone completed theirs first."""
    cs = after.cs
    locked = after.blocked[q] & ~before.blocked[q]
    if not locked:
        return []
    areas = {cs.sheet.areas[cs.item_area[locked.bit_length() - 1]].kind}
    return [f"{cap(possessive(after.seats[q]))} {', '.join(areas)} is locked: someone "
            "completed theirs first (T6)"]


def _skipped(before: TakenokolorState, after: TakenokolorState) -> list[str]:
    """T2: seats passed over because they could colour nothing with the markers left."""
    if after.players == 1:
        return []
    if after.rounds > before.rounds:
        end = after.players
    elif after.phase == TAKE and after.pos > before.pos:
        end = after.pos
    else:
        return []
    names = [after.seats[(before.holder + k) % after.players]
             for k in range(max(before.pos + 1, 0), end)]
    return [f"{cap(n)} can colour nothing with the markers left and {verb(n, 'is')} "
            "skipped (T2)" for n in names]
