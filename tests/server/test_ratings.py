"""Ratings (issue 53), from outside on real server processes, on SQLite and PostgreSQL: rated
games between accounts (and a bot) move the ratings exactly as OpenSkill's own ``rate`` does
on the recorded results; a casual game moves none; a kill -9 right after the game's end is
committed, before its reply, leaves the rating stored; guests are refused at rated tables;
leaving a running rated game places the leaver below the others; the leaderboard's pages and
bounds."""

from __future__ import annotations

import contextlib
import itertools
import time
from collections.abc import Iterator
from typing import Any

import pytest
from openskill.models import PlackettLuce
from sqlalchemy import select
from websockets.exceptions import ConnectionClosed

from meeple.bots.ratings import seed_for, shown
from meeple.core.rng import Rng
from meeple.store import Store
from meeple.store.models import AccountRow, RatingHistoryRow, RatingRow
from tests.server.client import Player
from tests.server.conftest import Server, free_port
from tests.server.test_accounts import Browser, new_name

_moves = itertools.count()

#: The game of these tests: Takenokolor is short (about 22 decisions a seat).
GAME = "takenokolor"


@pytest.fixture(scope="module")
def store(db_url: str, server: Server) -> Iterator[Store]:
    """The server's database, read directly (the stored ratings, to the last bit)."""
    s = Store(db_url)
    yield s
    s.close()


def signed_up(server: Server, prefix: str) -> tuple[Browser, str]:
    """A browser signed in to a new account, and the account's id."""
    b = Browser(server)
    b.sign_up(new_name(prefix))
    me = b.request("GET", "/api/me")
    assert me.status_code == 200, me.text
    return b, str(me.json()["account"]["id"])


def rated_table(owner: Browser, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    r = owner.request("POST", "/api/tables", json={"game": GAME, "variant": {}, "seats": seats,
                                                   "join_as": "Owner", "rated": True, **extra})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def joined(b: Browser, table: str) -> dict[str, Any]:
    r = b.request("POST", f"/api/tables/{table}/join", json={"name": b.username[:20]})
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def stored(store: Store, subject: str, game: str = GAME) -> tuple[float, float] | None:
    with store.session() as s:
        row = s.execute(select(RatingRow.mu, RatingRow.sigma).where(
            RatingRow.subject == subject, RatingRow.game == game)).first()
    return None if row is None else (float(row.mu), float(row.sigma))


def before(store: Store, subject: str) -> tuple[float, float]:
    """A subject's rating now: stored, or where it starts (a bot's seed, a new player's)."""
    found = stored(store, subject)
    if found is not None:
        return found
    if subject.startswith("bot:"):
        return seed_for(GAME, subject[4:])
    m = PlackettLuce()
    return float(m.mu), float(m.sigma)


def drive(players: dict[int, Player], rng: Rng, limit: int = 10_000) -> str:
    """Play the people's seats (seat -> its connection) with random legal moves, the bots
    and chance played by the server: "over" at the game's end, "limit" after ``limit``
    moves of theirs, "closed" if the server went away at a move (no reply)."""
    first = next(iter(players.values()))
    for _ in range(limit):
        while True:  # every connection at the newest version, then whose turn it is
            newest = max(p.version for p in players.values())
            for p in players.values():
                while p.version < newest:
                    p.recv(180)
            if first.view.get("over"):
                return "over"
            seat = first.view.get("to_move")
            if seat in players and players[seat].view.get("legal_moves"):
                break
            first.recv(180)  # a bot, chance or a stand-in to move: the next view
        p = players[seat]
        try:
            got = p.move(rng.choice(p.view["legal_moves"]), f"m{next(_moves)}")
        except ConnectionClosed:
            return "closed"
        assert got["type"] == "ack", got
    return "limit"


def connect(server: Server, table: str, secrets: dict[int, str]) -> dict[int, Player]:
    return {seat: Player(server.ws_base, table, seat, secret) for seat, secret in secrets.items()}


def close(players: dict[int, Player]) -> None:
    for p in players.values():
        with contextlib.suppress(Exception):  # (its server may be gone)
            p.close()


def play_out(server: Server, table: str, secrets: dict[int, str], rng: Rng) -> dict[str, Any]:
    """The people's seats played with random legal moves to the end: the finished table."""
    players = connect(server, table, secrets)
    try:
        assert drive(players, rng) == "over"
    finally:
        close(players)
    return wait_finished(server, table)


def wait_finished(server: Server, table: str) -> dict[str, Any]:
    deadline = time.monotonic() + 300
    while True:
        out: dict[str, Any] = server.api("GET", f"/api/tables/{table}").json()
        if out["status"] == "finished":
            return out
        assert time.monotonic() < deadline, "the table did not finish"
        time.sleep(0.2)


def expected(store: Store, subjects: list[str], totals: list[int], forfeits: list[bool],
             priors: dict[str, tuple[float, float]]) -> dict[str, tuple[float, float]]:
    """What OpenSkill's own ``PlackettLuce().rate`` gives on the recorded result: places by
    total (equal totals tied: no rulebook breaks ties, A4), a seat that left behind all."""
    keys = [(f, -t) for t, f in zip(totals, forfeits, strict=True)]
    ranks = [1 + sum(1 for k in keys if k < mine) for mine in keys]
    m = PlackettLuce()
    teams = [[m.rating(mu=priors[s][0], sigma=priors[s][1])] for s in subjects]
    got = m.rate(teams, ranks=ranks)
    return {s: (float(t[0].mu), float(t[0].sigma)) for s, t in zip(subjects, got, strict=True)}


def assert_rated(store: Store, want: dict[str, tuple[float, float]]) -> None:
    for subject, (mu, sigma) in want.items():
        have = stored(store, subject)
        assert have is not None, subject
        assert have[0] == pytest.approx(mu, rel=1e-12, abs=1e-12), subject
        assert have[1] == pytest.approx(sigma, rel=1e-12, abs=1e-12), subject


def test_rated_games_move_ratings_as_openskill_rates_them(server: Server, store: Store
                                                          ) -> None:
    """Two rated games in a row (two accounts and the easy bot, then the two alone): after
    each, every rating is OpenSkill's ``rate`` of the ratings before on the recorded totals;
    the table's seats show them; a casual game between the same accounts moves none."""
    rng = Rng(53)
    ann, ann_id = signed_up(server, "ann")
    bob, bob_id = signed_up(server, "bob")
    try:
        # 1: Ann, Bob and the easy bot
        t = rated_table(ann, [{"kind": "human"}, {"kind": "human"},
                              {"kind": "bot", "bot": "easy"}])
        table = t["table"]["id"]
        assert t["table"]["rated"] is True
        b = joined(bob, table)
        subjects = [ann_id, bob_id, "bot:easy"]
        priors = {s: before(store, s) for s in subjects}
        done = play_out(server, table, {0: t["secret"], 1: b["secret"]}, rng)
        totals = [r["total"] for r in done["result"]]
        want = expected(store, subjects, totals, [False] * 3, priors)
        assert_rated(store, want)
        # the seats show the rating the game gave and its change
        for seat, subject in enumerate(subjects):
            chip = done["seats"][seat]
            assert chip["rating"] == shown(*want[subject])
            assert chip["rating_change"] == shown(*want[subject]) - shown(*priors[subject])
        # 2: the two alone
        t = rated_table(bob, [{"kind": "human"}, {"kind": "human"}])
        table = t["table"]["id"]
        a = joined(ann, table)
        subjects = [bob_id, ann_id]
        priors = {s: before(store, s) for s in subjects}
        done = play_out(server, table, {0: t["secret"], 1: a["secret"]}, rng)
        want = expected(store, subjects, [r["total"] for r in done["result"]], [False] * 2,
                        priors)
        assert_rated(store, want)
        mine = server.api("GET", f"/api/users/{ann.username.upper()}/ratings").json()
        game = next(g for g in mine["ratings"] if g["game"] == GAME)
        assert game["games"] == 2 and game["rating"] == shown(*want[ann_id])
        assert [p["rating"] for p in game["history"]][-1] == shown(*want[ann_id])
        assert game["level"] is not None and "level" in game["level"]
        # a casual game between them: nothing moves
        now = {s: stored(store, s) for s in subjects}
        r = ann.request("POST", "/api/tables", json={
            "game": GAME, "variant": {}, "seats": [{"kind": "human"}, {"kind": "human"}],
            "join_as": "Ann"})
        assert r.status_code == 201, r.text
        casual = r.json()
        assert casual["table"]["rated"] is False
        c = joined(bob, casual["table"]["id"])
        play_out(server, casual["table"]["id"], {0: casual["secret"], 1: c["secret"]}, rng)
        assert {s: stored(store, s) for s in subjects} == now
        with store.session() as s:
            assert not list(s.scalars(select(RatingHistoryRow).where(
                RatingHistoryRow.table_id == casual["table"]["id"])))
    finally:
        ann.close()
        bob.close()


def test_leaving_a_running_rated_game_counts_as_last_place(server: Server, store: Store
                                                           ) -> None:
    """A person who leaves a running rated game (their seat is played on by the stand-in) is
    placed last however the game ends; the leave is charged when the game ends, in its
    transaction."""
    rng = Rng(7)
    ann, ann_id = signed_up(server, "leaver")
    bob, bob_id = signed_up(server, "stayer")
    try:
        t = rated_table(ann, [{"kind": "human"}, {"kind": "human"},
                              {"kind": "bot", "bot": "medium"}])
        table = t["table"]["id"]
        b = joined(bob, table)
        subjects = [ann_id, bob_id, "bot:medium"]
        priors = {s: before(store, s) for s in subjects}
        players = connect(server, table, {0: t["secret"], 1: b["secret"]})
        try:
            assert drive(players, rng, limit=6) == "limit"
            players.pop(0).close()  # Ann goes: her page closed, her seat left
            r = ann.request("POST", f"/api/tables/{table}/leave",
                            json={"seat": 0, "secret": t["secret"]})
            assert r.status_code == 200, r.text
            assert r.json()["seats"][0]["forfeit"] is True
            assert stored(store, ann_id) is None  # (a new account's: charged at the end)
            assert drive(players, rng) == "over"  # Bob plays on; a stand-in plays for Ann
        finally:
            close(players)
        done = wait_finished(server, table)
        assert done["seats"][0]["forfeit"] is True
        totals = [r["total"] for r in done["result"]]
        want = expected(store, subjects, totals, [True, False, False], priors)
        assert_rated(store, want)
        with store.session() as s:
            place = s.scalar(select(RatingHistoryRow.place).where(
                RatingHistoryRow.table_id == table, RatingHistoryRow.subject == ann_id))
        assert place == 3
    finally:
        ann.close()
        bob.close()


def test_guests_are_refused_at_rated_tables(server: Server, store: Store) -> None:
    ann, _ = signed_up(server, "host")
    try:
        t = rated_table(ann, [{"kind": "human"}, {"kind": "human"}])
        table = t["table"]["id"]
        r = server.api("POST", f"/api/tables/{table}/join", json={"name": "Guest"})
        assert r.status_code == 403, r.text
        assert "rated" in r.json()["detail"] and "signed-in account" in r.json()["detail"]
        after = server.api("GET", f"/api/tables/{table}").json()
        assert after["open_seats"] == [1] and after["status"] == "waiting"
        # the same account twice at one rated table: refused, nothing changed
        r = ann.request("POST", f"/api/tables/{table}/join", json={"name": "Ann again"})
        assert r.status_code == 409, r.text
        assert "one seat" in r.json()["detail"]
        assert server.api("GET", f"/api/tables/{table}").json()["open_seats"] == [1]
        # a guest cannot create one
        r = server.api("POST", "/api/tables", json={
            "game": GAME, "variant": {}, "seats": [{"kind": "human"}, {"kind": "human"}],
            "rated": True, "join_as": "Guest"})
        assert r.status_code == 403, r.text
        # what a rated table may not seat: 422 naming the rule
        for seats, words in (
                ([{"kind": "human"}], "at least 2 seats"),
                ([{"kind": "bot", "bot": "easy"}, {"kind": "bot", "bot": "hard"}], "person"),
                ([{"kind": "human"}, {"kind": "bot", "bot": "random"}], "easy, medium, hard"),
                ([{"kind": "human"}, {"kind": "bot", "bot": "mcts:seconds=1"}], "named")):
            r = ann.request("POST", "/api/tables", json={"game": GAME, "variant": {},
                                                         "seats": seats, "rated": True})
            assert r.status_code == 422, (seats, r.text)
            assert words in r.json()["detail"], r.text
        r = ann.request("POST", "/api/tables", json={"game": GAME, "variant": {}, "seats": [
            {"kind": "human"}, {"kind": "human"}], "rated": "yes"})
        assert r.status_code == 422, r.text
    finally:
        ann.close()


@pytest.fixture(scope="module")
def crashing(db_url: str, server: Server, tmp_path_factory: pytest.TempPathFactory
             ) -> Iterator[Server]:
    """A second server on the same database that dies as a kill -9 would right after it
    committed the move that ends a game, before it replies."""
    srv = Server(db_url, free_port(), tmp_path_factory.mktemp("log") / "server.log")
    srv.env = {"MEEPLE_FAULT": "crash-after-commit:finish"}
    srv.start()
    try:
        yield srv
    finally:
        srv.env = {}
        srv.stop()


def test_a_kill_9_between_the_games_end_and_its_reply_keeps_the_rating(
        crashing: Server, store: Store) -> None:
    rng = Rng(9)
    ann, ann_id = signed_up(crashing, "crash")
    bob, bob_id = signed_up(crashing, "crash")
    try:
        t = rated_table(ann, [{"kind": "human"}, {"kind": "human"}])
        table = t["table"]["id"]
        b = joined(bob, table)
        subjects = [ann_id, bob_id]
        priors = {s: before(store, s) for s in subjects}
        players = connect(crashing, table, {0: t["secret"], 1: b["secret"]})
        try:
            died = drive(players, rng) == "closed"  # the last move: committed, no reply
        finally:
            close(players)
        assert died
        assert crashing.proc is not None
        assert crashing.proc.wait(timeout=30) == 137  # killed at the fault, as kill -9 would
        # the rating is stored: the game's end and its rating committed together
        with store.session() as s:
            lines = list(s.scalars(select(RatingHistoryRow).where(
                RatingHistoryRow.table_id == table)))
        assert sorted(r.subject for r in lines) == sorted(subjects)
        log = store.log(table)
        finished = store.table(table)
        assert finished.status == "finished" and finished.result is not None
        want = expected(store, subjects, [r["total"] for r in finished.result], [False] * 2,
                        priors)
        assert_rated(store, want)
        # and a server started again shows it
        crashing.env = {}
        crashing.start()
        got = crashing.api("GET", f"/api/users/{ann.username}/ratings").json()
        points = next(g for g in got["ratings"] if g["game"] == GAME)["history"]
        assert points[-1]["table"] == table and len(log) == finished.version
    finally:
        ann.close()
        bob.close()


def test_the_leaderboard_pages_and_its_bounds(server: Server, store: Store) -> None:
    """Accounts by rating, paged within its bounds, the bots as reference lines; a deleted
    account leaves it; bad pages and unknown games are refused with a reason."""
    game = "gardens"
    made = []
    for k in range(7):
        b, account = signed_up(server, "board")
        made.append((b, account))
        with store.writing() as s:  # a rating as rated games would leave it
            mu, sigma = 20.0 + k, 3.0
            s.add(RatingRow(subject=account, game=game, mu=mu, sigma=sigma,
                            ordinal=mu - 3 * sigma, games=k + 1))
    try:
        whole = server.api("GET", f"/api/leaderboard/{game}?limit=100").json()
        ours = [p for p in whole["players"] if p["username"] in {b.username for b, _ in made}]
        assert [p["username"] for p in ours] == [b.username for b, _ in reversed(made)]
        ratings = [p["rating"] for p in whole["players"]]
        assert ratings == sorted(ratings, reverse=True)
        assert whole["total"] == len(whole["players"]) >= 7
        assert [b["difficulty"] for b in whole["bots"]] == ["easy", "medium", "hard"]
        # pages: no overlap, no gap, ranks go on
        pages, offset = [], 0
        while True:
            r = server.api("GET", f"/api/leaderboard/{game}?limit=3&offset={offset}")
            assert r.status_code == 200, r.text
            assert r.headers["X-Total-Count"] == str(whole["total"])
            page = r.json()["players"]
            if not page:
                break
            assert len(page) <= 3
            assert [p["rank"] for p in page] == list(range(offset + 1, offset + len(page) + 1))
            pages += page
            offset += 3
        assert [p["username"] for p in pages] == [p["username"] for p in whole["players"]]
        # bounds
        for query in ("limit=0", "limit=101", "offset=-1", "limit=x", "offset=99999999999"):
            r = server.api("GET", f"/api/leaderboard/{game}?{query}")
            assert r.status_code == 422, (query, r.text)
            assert "detail" in r.json()
        r = server.api("GET", f"/api/leaderboard/{game}?offset=1000000")
        assert r.status_code == 200 and r.json()["players"] == []
        r = server.api("GET", "/api/leaderboard/chess")
        assert r.status_code == 404 and "gardens" in r.json()["detail"]
        for name in ("nobody-" + "x" * 10, "x" * 500, "%00"):
            r = server.api("GET", f"/api/users/{name}/ratings")
            assert r.status_code == 404, (name, r.text)
        r = server.api("GET", f"/api/users/{made[0][0].username}/ratings?history=501")
        assert r.status_code == 422
        # a deleted account leaves the leaderboard, its ratings with it
        gone, gone_id = made[-1]
        r = gone.request("DELETE", "/api/me", json={"password": "correct horse battery"})
        assert r.status_code in (200, 204), r.text
        after = server.api("GET", f"/api/leaderboard/{game}?limit=100").json()
        assert gone.username not in [p["username"] for p in after["players"]]
        assert after["total"] == whole["total"] - 1
        assert stored(store, gone_id, game) is None
        with store.session() as s:
            assert s.get(AccountRow, gone_id) is not None  # (the row stays, marked deleted)
    finally:
        for b, _ in made:
            b.close()
