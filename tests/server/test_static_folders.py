"""Each feature's page code sits in its own folder under ``static/`` (the ``STATIC`` its package
names), and every page still loads: each style sheet and module script a page names, and every
module those import (followed through relative imports), answers 200 from a real server."""

from __future__ import annotations

import importlib
import pkgutil
import posixpath
import re

import pytest

import meeple.server.features
from meeple.web import PAGES, STATIC
from tests.server.conftest import SQLITE_ONLY, Server

pytestmark = SQLITE_ONLY

#: A page's style sheets and module scripts, and an ES module's static imports.
ASSET = re.compile(r'(?:href|src)="(/static/[^"]+\.(?:css|js))"')
IMPORT = re.compile(r'\bfrom\s+"(\.{1,2}/[^"]+\.js)"')


def feature_folders() -> dict[str, str]:
    """Each feature package that names a static folder -> that folder."""
    found = {}
    for info in pkgutil.iter_modules(meeple.server.features.__path__):
        module = importlib.import_module(f"meeple.server.features.{info.name}")
        if hasattr(module, "STATIC"):
            found[info.name] = module.STATIC
    return found


def test_each_feature_names_a_folder_that_holds_its_page_code() -> None:
    folders = feature_folders()
    assert set(folders) >= {"accounts", "chat", "mail", "playnow", "profiles", "ratings",
                            "rules", "sheets", "solo", "tablelife"}
    for feature, folder in folders.items():
        files = [p.name for p in (STATIC / folder).iterdir()]
        assert any(name.endswith((".js", ".css")) for name in files), (feature, folder, files)


@pytest.mark.parametrize("page", ["/", "/solo/someone", "/account", "/u/someone",
                                  "/leaderboard/pergola", "/rules", "/rules/pergola", "/mail/verify",
                                  "/ratings"])
def test_every_asset_a_page_names_loads(server: Server, page: str) -> None:
    html = server.api("GET", page).text
    assets = ASSET.findall(html)
    assert assets, page
    seen: set[str] = set()
    todo = list(assets)
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        r = server.api("GET", path)
        assert r.status_code == 200, (page, path, r.status_code)
        if path.endswith(".js"):
            todo += [posixpath.normpath(posixpath.join(posixpath.dirname(path), spec))
                     for spec in IMPORT.findall(r.text)]


def test_table_page_modules_load(server: Server) -> None:
    """The table page (its path needs a table): its sheets and modules, chat's and table
    life's among them."""
    html = server.api("GET", "/static/js/table.js").text
    wanted = {"../chat/chat.js", "../tablelife/tablelife.js", "../ratings/ratingchart.js"}
    assert wanted <= set(IMPORT.findall(html))
    for spec in wanted:
        assert server.api("GET", "/static/js/" + spec).status_code == 200, spec
    for css in PAGES["table"][1]:
        assert server.api("GET", f"/static/{css}").status_code == 200, css
