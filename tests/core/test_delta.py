"""The view's delta (meeple.core.delta): a diff applied gives the new document back, for any
two JSON documents, and a patch that does not fit is refused without changing anything."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meeple.core.delta import PatchError, apply_patch, diff

scalars = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.text(max_size=3))
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=6)
    | st.dictionaries(st.sampled_from(["a", "b", "c/d", "e~f", "", "0"]), inner, max_size=4),
    max_leaves=25)


@settings(max_examples=400, deadline=None)
@given(json_values, json_values)
def test_a_diff_applied_gives_the_new_document(old: Any, new: Any) -> None:
    before = copy.deepcopy(old)
    ops = diff(old, new)
    assert apply_patch(old, ops) == new
    assert old == before  # neither diff nor apply changes the old document
    if old == new and type(old) is type(new):
        assert ops == []


@settings(max_examples=200, deadline=None)
@given(st.lists(scalars, min_size=2, max_size=12), st.integers(1, 4), st.data())
def test_a_sliding_window_is_sent_as_a_slide(items: list[Any], k: int, data: st.DataObject
                                             ) -> None:
    """The log's last lines: some fell off the start, new ones came at the end."""
    new_items = data.draw(st.lists(scalars, min_size=k, max_size=k))
    old, new = items, items[k:] + new_items
    ops = diff({"log": old}, {"log": new})
    assert apply_patch({"log": old}, ops) == {"log": new}
    assert len(ops) <= 2 * k or k >= len(old)


def test_an_unchanged_view_costs_nothing_and_a_changed_field_one_operation() -> None:
    view = {"version": 3, "board": {"cells": [[0, 1], [1, 0]], "name": "x"}, "log": ["a", "b"]}
    assert diff(view, copy.deepcopy(view)) == []
    after = copy.deepcopy(view)
    after["board"]["cells"][1][0] = 7
    assert diff(view, after) == [{"op": "replace", "path": "/board/cells/1/0", "value": 7}]
    after["log"] = ["b", "c"]
    assert diff(view, after)[1:] == [{"op": "remove", "path": "/log/0"},
                                     {"op": "add", "path": "/log/-", "value": "c"}]


@pytest.mark.parametrize(("doc", "op", "why"), [
    ({"a": 1}, {"op": "replace", "path": "/b", "value": 2}, "no member 'b'"),
    ({"a": [1]}, {"op": "remove", "path": "/a/3"}, "no index"),
    ({"a": [1]}, {"op": "replace", "path": "/a/x", "value": 1}, "no index"),
    ({"a": 1}, {"op": "add", "path": "/a/b", "value": 1}, "has no members"),
    ({"a": 1}, {"op": "move", "path": "/a"}, "op must be"),
    ({"a": 1}, {"op": "add", "path": "a", "value": 1}, "JSON Pointer"),
    ({"a": 1}, {"op": "remove", "path": ""}, "cannot be removed"),
])
def test_a_patch_that_does_not_fit_is_refused_and_changes_nothing(
        doc: dict[str, Any], op: dict[str, Any], why: str) -> None:
    before = copy.deepcopy(doc)
    with pytest.raises(PatchError, match=why):
        apply_patch(doc, [op])
    assert doc == before


def test_escaped_keys_round_trip() -> None:
    old = {"a/b": {"~": 1}}
    new = {"a/b": {"~": 2}}
    ops = diff(old, new)
    assert ops == [{"op": "replace", "path": "/a~1b/~0", "value": 2}]
    assert apply_patch(old, ops) == new


@settings(max_examples=300, deadline=None)
@given(json_values, json_values, json_values, json_values)
def test_views_that_share_a_part_get_the_same_patches_with_it_shared(
        old_part: Any, new_part: Any, old_own: Any, new_own: Any) -> None:
    """Two seats' views of one position hold the same public board (as did their views
    before): with ``shared`` their patches are what diff makes without it, each seat's own
    part is diffed as its own."""
    shared: dict[Any, Any] = {}
    seat0 = ({"board": old_part, "own": old_own}, {"board": new_part, "own": new_own})
    seat1 = ({"board": old_part, "own": None}, {"board": new_part, "own": [new_own]})
    for old, new in (seat0, seat1):
        assert diff(old, new, shared=shared) == diff(old, new)
        assert apply_patch(old, diff(old, new, shared=shared)) == new


class _Walked(dict[str, Any]):
    """A dict that counts how often a diff walks its members."""

    walked = 0

    def items(self) -> Any:
        _Walked.walked += 1
        return dict.items(self)


def test_a_shared_part_is_walked_once_for_every_view_that_holds_it() -> None:
    old_board = _Walked(cells=list(range(50)), turn=1)
    new_board = _Walked(cells=[*range(49), 99], turn=2)
    shared: dict[Any, Any] = {}
    patches = [diff({"board": old_board, "viewer": v}, {"board": new_board, "viewer": v},
                    shared=shared) for v in range(4)]
    assert _Walked.walked == 2  # the first view walked both boards; the other three reused it
    assert patches == [[{"op": "replace", "path": "/board/cells/49", "value": 99},
                        {"op": "replace", "path": "/board/turn", "value": 2}]] * 4
