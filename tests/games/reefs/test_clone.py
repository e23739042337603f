"""Reefs states: clones share sheets copy-on-write and never leak."""

from __future__ import annotations

from tests.conformance.copy_on_write import check_clones_never_leak


def test_clones_share_sheets_until_one_changes_and_never_leak() -> None:
    """Copy-on-write sheets: a clone shares its sheets, copies one only when its seat draws,
    and a move on either side never shows on the other; kept sheet keys stay true."""
    check_clones_never_leak("reefs", "sheets", (1, 2, 4), seed=5, level=2)
