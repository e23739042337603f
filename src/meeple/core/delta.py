"""A view's update as a delta: what changed between two JSON documents, as JSON Patch.

The server sends a connection its whole view once (on hello) and then, for each new version,
only what changed since the version that connection has (an ``update`` frame, see
src/meeple/server/table/README.md, *Updates*). The changes are RFC 6902 JSON Patch operations, a
standard any client can apply, limited to three of its operations:

- ``{"op": "replace", "path": P, "value": V}``: the value at ``P`` becomes ``V``;
- ``{"op": "add", "path": P, "value": V}``: a new object member, or a new list item at the
  list's end (``P`` ends in ``/-``);
- ``{"op": "remove", "path": P}``: an object member, or a list item (the list closes up).

Paths are JSON Pointers (RFC 6901: ``/board/sheets/0/cells``; ``~`` and ``/`` inside a key are
written ``~0`` and ``~1``). :func:`diff` makes the operations and :func:`apply_patch` applies
them (the browser's ``applyPatch`` in net.js does the same).

Lists are compared item by item when they keep their length. A list that grew or shrank at
its end gets ``add`` or ``remove`` operations at the end; a list whose first items fell off and
new ones came at the end (the log's last lines, a sliding window) gets ``remove`` operations at
its start and ``add`` at its end. Any other change of length replaces the list whole.
"""

from __future__ import annotations

import copy
from typing import Any

#: How far a sliding list (the log tail) is looked at for items dropped at its start.
MAX_SHIFT = 8


class PatchError(ValueError):
    """A patch that does not fit the document it is applied to."""


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def _unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


#: The operations already made between two containers at a path, by ``(id(old), id(new),
#: path)``, with the two containers kept (so their ids are not taken by others meanwhile).
Shared = dict[tuple[int, int, str], tuple[Any, Any, list[dict[str, Any]]]]


def diff(old: Any, new: Any, path: str = "", shared: Shared | None = None
         ) -> list[dict[str, Any]]:
    """The operations that turn ``old`` into ``new`` (both JSON values: dicts, lists,
    strings, numbers, booleans, None). ``apply_patch(old, diff(old, new)) == new``.

    ``shared``: a dict kept between calls whose documents share parts (the views of several
    seats of one position hold the same public board, and so did their views before): a
    part already compared with the same part at the same path gives the same operations
    again without being compared twice. Read the operations, never change them (the patches
    share them)."""
    ops: list[dict[str, Any]] = []
    if not (old == new and type(old) is type(new)):
        _diff(old, new, path, ops, shared)
    return ops


def _diff(old: Any, new: Any, path: str, ops: list[dict[str, Any]],
          shared: Shared | None = None) -> None:
    """The operations between ``old`` and ``new``, which differ (the caller compared them)."""
    if shared is not None and isinstance(old, dict | list):
        key = (id(old), id(new), path)
        made = shared.get(key)
        if made is not None:
            ops.extend(made[2])
            return
        start = len(ops)
        _diff_container(old, new, path, ops, shared)
        shared[key] = (old, new, ops[start:])
        return
    _diff_container(old, new, path, ops, shared)


def _diff_container(old: Any, new: Any, path: str, ops: list[dict[str, Any]],
                    shared: Shared | None) -> None:
    if isinstance(old, dict) and isinstance(new, dict):
        for key, value in old.items():
            if key not in new:
                ops.append({"op": "remove", "path": f"{path}/{_escape(key)}"})
                continue
            now = new[key]
            if value == now and type(value) is type(now):  # most of a view: no path made
                continue
            _diff(value, now, f"{path}/{_escape(key)}", ops, shared)
        for key, value in new.items():
            if key not in old:
                ops.append({"op": "add", "path": f"{path}/{_escape(key)}", "value": value})
        return
    if isinstance(old, list) and isinstance(new, list):
        _diff_list(old, new, path, ops, shared)
        return
    ops.append({"op": "replace", "path": path, "value": new})


def _diff_list(old: list[Any], new: list[Any], path: str, ops: list[dict[str, Any]],
               shared: Shared | None = None) -> None:
    n, m = len(old), len(new)
    if n == m:
        # a window that slid by a few items (the log's tail) is better sent as a slide
        shift = _shift(old, new)
        if shift:
            _slide(new, shift, path, ops)
            return
        for i, (was, now) in enumerate(zip(old, new, strict=True)):
            if was != now or type(was) is not type(now):
                _diff(was, now, f"{path}/{i}", ops, shared)
        return
    if m > n and new[:n] == old:  # grown at the end
        ops.extend({"op": "add", "path": f"{path}/-", "value": v} for v in new[n:])
        return
    if m < n and old[:m] == new:  # shortened at the end
        ops.extend({"op": "remove", "path": f"{path}/{i}"} for i in range(n - 1, m - 1, -1))
        return
    shift = _shift(old, new)
    if shift:
        _slide(new, shift, path, ops, len(old) - shift)
        return
    ops.append({"op": "replace", "path": path, "value": new})


def _shift(old: list[Any], new: list[Any]) -> int:
    """The k (1..MAX_SHIFT) for which ``old[k:]`` starts ``new``, and is not empty; else 0."""
    if not new:
        return 0
    first = new[0]
    for k in range(1, min(MAX_SHIFT, len(old) - 1) + 1):
        if old[k] != first:  # (one item compared before the whole rest)
            continue
        kept = old[k:]
        if len(kept) <= len(new) and new[:len(kept)] == kept:
            return k
    return 0


def _slide(new: list[Any], shift: int, path: str, ops: list[dict[str, Any]],
           kept: int | None = None) -> None:
    kept = len(new) - shift if kept is None else kept
    ops.extend({"op": "remove", "path": f"{path}/0"} for _ in range(shift))
    ops.extend({"op": "add", "path": f"{path}/-", "value": v} for v in new[kept:])


def apply_patch(doc: Any, ops: list[dict[str, Any]], *, in_place: bool = False) -> Any:
    """``doc`` with the operations of :func:`diff` applied. ``doc`` is not changed (the result
    is a copy) unless ``in_place``: then it is changed and returned, which a client that
    owns its view does (a copy of a whole view costs ten times the patch). Raises
    :class:`PatchError` on an operation that does not fit ``doc``, before changing anything
    when not ``in_place``."""
    if not in_place:
        doc = copy.deepcopy(doc)
    for op in ops:
        doc = _apply_one(doc, op)
    return doc


def _apply_one(doc: Any, op: dict[str, Any]) -> Any:
    kind, path = op.get("op"), op.get("path")
    if not isinstance(path, str) or (path and not path.startswith("/")):
        raise PatchError(f"a path is a JSON Pointer, not {path!r}")
    if kind not in ("add", "replace", "remove"):
        raise PatchError(f"op must be add, replace or remove, not {kind!r}")
    if path == "":
        if kind == "remove":
            raise PatchError("the whole document cannot be removed")
        return copy.deepcopy(op.get("value"))
    *parents, key = (_unescape(t) for t in path[1:].split("/"))
    target = doc
    for token in parents:
        target = _step(target, token, path)
    if isinstance(target, dict):
        if kind == "add" or (kind == "replace" and key in target):
            target[key] = copy.deepcopy(op.get("value"))
        elif key in target:
            del target[key]
        else:
            raise PatchError(f"{path}: no member {key!r} to {kind}")
    elif isinstance(target, list):
        if kind == "add" and key == "-":
            target.append(copy.deepcopy(op.get("value")))
            return doc
        index = _index(target, key, path)
        if kind == "replace":
            target[index] = copy.deepcopy(op.get("value"))
        elif kind == "remove":
            del target[index]
        else:
            target.insert(index, copy.deepcopy(op.get("value")))
    else:
        raise PatchError(f"{path}: {type(target).__name__} has no members")
    return doc


def _step(target: Any, token: str, path: str) -> Any:
    if isinstance(target, dict):
        if token not in target:
            raise PatchError(f"{path}: no member {token!r}")
        return target[token]
    if isinstance(target, list):
        return target[_index(target, token, path)]
    raise PatchError(f"{path}: {type(target).__name__} has no members")


def _index(target: list[Any], token: str, path: str) -> int:
    if not token.isdigit() or int(token) >= len(target):
        raise PatchError(f"{path}: {token!r} is no index of a list of {len(target)}")
    return int(token)
