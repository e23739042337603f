"""What the lobby and the pages ask of the server (issue 39 #6, #9): ``GET /api/games`` says
which games take a sheet of one's own (so the lobby never asks ``/api/sheets/pergola``, which
is refused) and names each solo challenge; a table address that does not exist is a 404 page
with the way back; ``/solo`` and ``/solo/`` without a name are the page that asks for one."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import pytest

from meeple.games.pergola.solo import CHALLENGES
from meeple.store import Store, sqlite_url
from meeple.web import create_web_app

with warnings.catch_warnings():  # starlette would rather have httpx2: httpx is what we have
    warnings.filterwarnings("ignore", "Using `httpx` with `starlette.testclient`")
    from fastapi.testclient import TestClient


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    store = Store(sqlite_url(tmp_path_factory.mktemp("db") / "tables.db"))
    store.migrate()
    with TestClient(create_web_app(store, bots=False)) as c:
        yield c


def test_games_say_which_take_an_own_sheet_and_every_such_game_answers(client: TestClient
                                                                       ) -> None:
    games = {g["name"]: g for g in client.get("/api/games").json()}
    assert {n for n, g in games.items() if g["own_sheet"]} == {"gardens", "reefs", "takenokolor"}
    for name, g in games.items():
        code = client.get(f"/api/sheets/{name}").status_code
        assert code == (200 if g["own_sheet"] else 422), (name, code)


def test_games_name_the_solo_challenges(client: TestClient) -> None:
    games = {g["name"]: g for g in client.get("/api/games").json()}
    assert games["pergola"]["challenges"] == [
        {"number": c.number, "title": c.title, "goal": c.goal} for c in CHALLENGES]
    assert [c["number"] for c in games["pergola"]["challenges"]] == \
        [v for v in games["pergola"]["options"]["challenge"] if v is not None]
    assert all(g["challenges"] == [] for n, g in games.items() if n != "pergola")


@pytest.mark.parametrize("address", ["/t/nosuchtable7", "/t/nosuchtable7?replay",
                                     "/t/not-a-table-id", "/t/" + "x" * 300])
def test_a_missing_table_is_a_404_page_back_to_the_lobby(client: TestClient, address: str
                                                         ) -> None:
    r = client.get(address)
    assert r.status_code == 404
    assert r.headers["content-type"].startswith("text/html")
    assert "There is no table" in r.text and 'href="/"' in r.text
    assert "<script" not in r.text.split("<main>")[1]  # a page, not the table's script
    assert "x" * 41 not in r.text  # a long address is cut short


def test_a_missing_table_address_is_escaped(client: TestClient) -> None:
    r = client.get("/t/%3Cb%3Eevil")
    assert r.status_code == 404 and "<b>evil" not in r.text and "&lt;b&gt;evil" in r.text
    r = client.get("/t/$detail")  # the page's own placeholder, as an address: shown as typed
    assert r.status_code == 404 and "no table “$detail”" in r.text.replace("There is ", "")


def test_an_existing_table_is_the_table_page(client: TestClient) -> None:
    made = client.post("/api/tables", json={"game": "gardens", "variant": {"level": 1},
                                            "seats": [{"kind": "human"}, {"kind": "human"}]})
    assert made.status_code == 201, made.text
    r = client.get(f"/t/{made.json()['id']}?join")
    assert r.status_code == 200 and "/static/js/table.js" in r.text


def test_solo_without_a_name_is_the_solo_page(client: TestClient) -> None:
    r = client.get("/solo", follow_redirects=False)
    assert r.status_code in (307, 308) and r.headers["location"] == "/solo/"
    r = client.get("/solo/")
    assert r.status_code == 200 and "/static/solo/solo.js" in r.text
