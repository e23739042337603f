"""The hint lane (issue 51): hints and analyses apart from the table bots, bounded per client and
in all, tried from outside on real servers as an attacker would; and the lane's own bookkeeping
in this process (:class:`meeple.server.lanes.Lane` with threads).

Clients bind addresses of their own in 127.0.0.0/8, so the server counts each apart (as in
test_quotas.py)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from meeple.server.edge_settings import LaneSettings
from meeple.server.lanes import Lane
from meeple.server.quotas import Throttled
from tests.aio import run
from tests.server.conftest import SQLITE_ONLY, TLS, Server, free_port

#: The lane is the server process's, the same on either store: SQLite only.
pytestmark = SQLITE_ONLY

#: The default lane (docs/server.md): one worker, 8 jobs, 2 a client, 30 CPU-s a minute, 120
#: hints and 10 analyses a minute a client (conftest's TEST_LIMITS lift them for other tests).
DEFAULT_LANE = {
    "MEEPLE_HINT_WORKERS": "1", "MEEPLE_HINT_QUEUE": "8", "MEEPLE_HINT_PER_CLIENT": "2",
    "MEEPLE_HINT_CPU": "30", "MEEPLE_RATE_HINT": "120/minute", "MEEPLE_RATE_ANALYSIS": "10/minute",
}
#: A tight lane: two workers, short deadlines, 1 CPU-s a minute, 3 jobs in all.
TIGHT_LANE = {
    "MEEPLE_HINT_WORKERS": "2", "MEEPLE_HINT_QUEUE": "3", "MEEPLE_HINT_PER_CLIENT": "4",
    "MEEPLE_HINT_CPU": "1", "MEEPLE_HINT_DEADLINE": "4", "MEEPLE_ANALYSIS_DEADLINE": "0.5",
    "MEEPLE_RATE_HINT": "off", "MEEPLE_RATE_ANALYSIS": "off",
}
HEAVY = "mcts:seconds=10"  # a documented budget: ~9 s of a worker on a Pergola turn


def _server(env: dict[str, str], tmp: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(f"sqlite:///{tmp.mktemp('db') / 'meeple.db'}", free_port(),
                 tmp.mktemp("log") / "server.log")
    srv.env = env
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture(scope="module")
def lane_default(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from _server(DEFAULT_LANE, tmp_path_factory)


@pytest.fixture(scope="module")
def lane_tight(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from _server(TIGHT_LANE, tmp_path_factory)


def client(srv: Server, address: str) -> httpx.Client:
    return httpx.Client(base_url=srv.base, timeout=120, verify=TLS,
                        transport=httpx.HTTPTransport(local_address=address))


def seat_to_move(http: httpx.Client, game: str = "pergola") -> tuple[str, int, str]:
    """A new table of a person (us) and a random bot, once the person is to move: its id, the
    seat and its secret."""
    variant = {"level": 1} if game == "gardens" else {}
    made = http.post("/api/tables", json={
        "game": game, "variant": variant, "join_as": "Ann",
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]})
    assert made.status_code == 201, made.text
    table, seat, secret = made.json()["table"]["id"], made.json()["seat"], made.json()["secret"]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        view = http.get(f"/api/tables/{table}/view", params={"seat": seat},
                        headers={"X-Seat-Secret": secret}).json()["view"]
        if view["to_move"] == seat and view["legal_moves"]:
            return table, seat, secret
        time.sleep(0.1)
    raise AssertionError("the person never came to move")


def ask_hint(http: httpx.Client, table: str, seat: int, secret: str, level: str
             ) -> httpx.Response:
    return http.get(f"/api/tables/{table}/hint", params={"seat": seat, "level": level},
                    headers={"X-Seat-Secret": secret})


def answered(r: httpx.Response) -> int:
    """A hint's or analysis's answer as the lane promises: 200, or a JSON 429/503 naming its
    limit with Retry-After (never a 500, never plain text)."""
    assert r.status_code in (200, 429, 503), (r.status_code, r.text)
    body = r.json()
    if r.status_code != 200:
        assert isinstance(body["detail"], str) and body["limit"].startswith("MEEPLE_"), body
        assert int(r.headers["Retry-After"]) >= 1
    return r.status_code


def warm(http: httpx.Client, table: tuple[str, int, str]) -> None:
    """An easy hint answered: the lane's workers have started (they start with the first
    job, and again after a renewal, within a few seconds; longer on a loaded machine)."""
    for _ in range(60):
        r = ask_hint(http, *table, "easy")
        if answered(r) == 200:
            return
        time.sleep(1)
    raise AssertionError(f"the lane never answered: {r.text}")


def bots_table_seconds(http: httpx.Client, limit: float) -> float:
    """Seconds a new table of two greedy bots takes to finish (at most ``limit``)."""
    start = time.monotonic()
    made = http.post("/api/tables", json={"game": "gardens", "variant": {"level": 1}, "seats": [
        {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}]})
    assert made.status_code == 201, made.text
    while time.monotonic() - start < limit:
        if http.get(f"/api/tables/{made.json()['id']}").json()["status"] == "finished":
            return time.monotonic() - start
        time.sleep(0.1)
    return limit


def finished_bot_tables(http: httpx.Client, count: int) -> list[str]:
    """``count`` Pergola tables of two random bots, played to their end."""
    ids = []
    for _ in range(count):
        made = http.post("/api/tables", json={"game": "pergola", "variant": {}, "seats": [
            {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]})
        assert made.status_code == 201, made.text
        ids.append(made.json()["id"])
    deadline = time.monotonic() + 120
    for table in ids:
        while http.get(f"/api/tables/{table}").json()["status"] != "finished":
            assert time.monotonic() < deadline, "the bots' tables did not finish"
            time.sleep(0.2)
    return ids


# ---------------------------------------------------------------- from outside
def test_a_bots_table_finishes_while_a_client_floods_hints(lane_default: Server) -> None:
    """Issue 51 #1: hints (mcts:seconds=10) on six of one client's tables shared the bot
    pool; a bots-only table that ends in half a second was stuck after 40 s, and other
    tables' bots missed their deadlines. Now hints run in their own lane: the bots' table
    finishes (it is not stuck behind them), no bot plays a stand-in
    move, and every hint is answered (200, or 429/503 naming the limit)."""
    with client(lane_default, "127.0.1.2") as flood, client(lane_default, "127.0.1.3") as other:
        alone = bots_table_seconds(other, 120)
        tables = [seat_to_move(flood) for _ in range(6)]
        codes: Counter[int] = Counter()
        stop = threading.Event()

        def hammer(table: str, seat: int, secret: str) -> None:
            with client(lane_default, "127.0.1.2") as http:
                while not stop.is_set():
                    r = ask_hint(http, table, seat, secret, HEAVY)
                    codes[answered(r)] += 1
                    if r.status_code != 200:
                        stop.wait(0.2)

        threads = [threading.Thread(target=hammer, args=t) for t in tables]
        for th in threads:
            th.start()
        try:
            time.sleep(1.0)  # the flood under way: a heavy hint in the worker, others refused
            under = bots_table_seconds(other, 120)
        finally:
            stop.set()
            for th in threads:
                th.join(timeout=60)
        assert not any(th.is_alive() for th in threads)
        # Liveness, not speed (a shared machine's timings are noise): the bots' table ends.
        assert under < 120, f"the bots' table did not finish under the flood ({alone:.1f} s alone)"
        # a heavy hint past its deadline on a starved machine is a 503 naming it, which the
        # lane also promises (answered() checked each names its limit)
        assert codes[429] > 0 and set(codes) <= {200, 429, 503}, codes
    log = lane_default.log.read_text()
    assert "missed its" not in log and "Traceback" not in log


def test_a_clients_analyses_at_once_are_held_to_its_budget(lane_default: Server) -> None:
    """Issue 51 #3: eight bots' tables' analyses asked at once each took 10-50 s of CPU. Now
    a client has at most two in the lane (MEEPLE_HINT_PER_CLIENT), the others are a 429 with
    Retry-After; an analysis made is kept (asked again it is answered at once, not counted),
    and one refused is made once asked again."""
    with client(lane_default, "127.0.1.4") as maker, client(lane_default, "127.0.1.5") as http:
        tables = finished_bot_tables(maker, 8)
        answers: dict[str, httpx.Response] = {}
        start = threading.Barrier(len(tables))

        def analyse(table: str) -> None:
            with client(lane_default, "127.0.1.5") as own:
                start.wait()
                answers[table] = own.get(f"/api/tables/{table}/analysis")

        threads = [threading.Thread(target=analyse, args=(t,)) for t in tables]
        for th in threads:
            th.start()
        for th in threads:
            th.join(timeout=120)
        codes = Counter(answered(r) for r in answers.values())
        assert len(answers) == 8 and codes[200] >= 1 and codes[429] >= 4, codes
        assert all(r.json()["limit"] == "MEEPLE_HINT_PER_CLIENT"
                   for r in answers.values() if r.status_code == 429)
        done = next(t for t, r in answers.items() if r.status_code == 200)
        again = http.get(f"/api/tables/{done}/analysis")
        assert again.status_code == 200 and again.json() == answers[done].json()
        late = next(t for t, r in answers.items() if r.status_code == 429)
        time.sleep(int(answers[late].headers["Retry-After"]))
        for _ in range(20):
            r = http.get(f"/api/tables/{late}/analysis")
            if answered(r) == 200:
                break
            time.sleep(int(r.headers["Retry-After"]))
        assert r.status_code == 200


def test_hints_are_rate_limited_per_client(lane_default: Server) -> None:
    """At most MEEPLE_RATE_HINT hints a client (120 a minute by default): the 121st is a 429
    with Retry-After; another address still gets its hints."""
    with client(lane_default, "127.0.1.6") as http, client(lane_default, "127.0.1.7") as other:
        table, seat, secret = seat_to_move(http)
        codes = [answered(ask_hint(http, table, seat, secret, "easy")) for _ in range(121)]
        assert codes[:120] == [200] * 120 and codes[120] == 429, codes
        r = ask_hint(http, table, seat, secret, "easy")
        assert r.json()["limit"] == "MEEPLE_RATE_HINT"
        mine = seat_to_move(other)
        assert answered(ask_hint(other, *mine, "easy")) == 200


def test_a_pool_renewed_under_hints_answers_503_never_500(lane_tight: Server) -> None:
    """Issue 51 #2: under load hints answered plain-text 500s (the CancelledError of a pool
    renewed under them). Two heavy hints overrun their 4 s deadline while easy ones are
    asked beside them: each overrun stops its worker and renews the pool under the others;
    every answer is a 200 or a JSON 503 with Retry-After, and the lane serves on after."""
    with client(lane_tight, "127.0.2.2") as http:
        tables = [seat_to_move(http) for _ in range(2)]
        warm(http, tables[0])
    answers: list[httpx.Response] = []

    def ask(address: str, table: tuple[str, int, str], level: str, delay: float) -> None:
        time.sleep(delay)
        with client(lane_tight, address) as own:
            answers.append(ask_hint(own, *table, level))

    jobs = [("127.0.2.3", tables[0], "mcts:iterations=20000", 0.0),
            ("127.0.2.4", tables[1], "mcts:iterations=20000", 0.5),
            ("127.0.2.5", tables[0], "easy", 4.5), ("127.0.2.6", tables[1], "easy", 5.0)]
    threads = [threading.Thread(target=ask, args=job) for job in jobs]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=120)
    codes = Counter(answered(r) for r in answers)
    assert len(answers) == 4 and set(codes) <= {200, 503}, [(r.status_code, r.text)
                                                            for r in answers]
    assert codes[503] >= 2  # the two heavy ones, at least
    assert "the hint lane's pool is made anew" in lane_tight.log.read_text()
    with client(lane_tight, "127.0.2.7") as http:
        warm(http, tables[0])  # a fresh pool's workers start within a few seconds
    assert "Traceback" not in lane_tight.log.read_text()


def test_an_analysis_past_its_deadline_is_stopped(lane_tight: Server) -> None:
    """An analysis's cost is bounded by its deadline (MEEPLE_ANALYSIS_DEADLINE, 0.5 s here;
    a Pergola game needs over a second): a 503 naming it, with Retry-After; a worker under
    way is stopped, and the lane answers a hint after."""
    with client(lane_tight, "127.0.2.8") as http:
        table = finished_bot_tables(http, 1)[0]
        mine = seat_to_move(http)
        warm(http, mine)  # the workers started, so the analysis runs and is stopped
    with client(lane_tight, "127.0.2.9") as http:
        r = http.get(f"/api/tables/{table}/analysis")
        assert answered(r) == 503 and r.json()["limit"] == "MEEPLE_ANALYSIS_DEADLINE"
        assert "took longer than 0.5 s" in r.json()["detail"]
    with client(lane_tight, "127.0.2.10") as http:
        warm(http, mine)


def test_a_clients_cpu_seconds_per_minute_are_budgeted(lane_tight: Server) -> None:
    """MEEPLE_HINT_CPU: worker CPU seconds a client's hints and analyses may take a minute
    (1 here, 30 by default). Hints of ~2 s leave the client over it: its next is a 429
    naming the budget, with the seconds until a minute has passed; another address is
    served."""
    with client(lane_tight, "127.0.2.11") as http:
        table = seat_to_move(http)
        warm(http, table)
    with client(lane_tight, "127.0.2.12") as http:
        # a ~2 s search is ~2 CPU-seconds on a quiet machine, much less on a busy one (the
        # lane's workers are niced and may be starved): hints of it until the budget is spent
        assert answered(ask_hint(http, *table, "mcts:seconds=2")) == 200
        for _ in range(25):
            r = ask_hint(http, *table, "mcts:seconds=2")
            if answered(r) != 200:
                break
        assert answered(r) == 429 and r.json()["limit"] == "MEEPLE_HINT_CPU"
        assert 1 <= int(r.headers["Retry-After"]) <= 61
    with client(lane_tight, "127.0.2.13") as http:
        assert answered(ask_hint(http, *table, "easy")) == 200


def test_a_full_lane_answers_503(lane_tight: Server) -> None:
    """At most MEEPLE_HINT_QUEUE jobs in the lane (3 here), whoever asked: the next is a 503
    naming it, with Retry-After."""
    with client(lane_tight, "127.0.2.14") as http:
        table = seat_to_move(http)
    answers: list[httpx.Response] = []

    def ask(address: str, delay: float) -> None:
        time.sleep(delay)
        with client(lane_tight, address) as own:
            answers.append(ask_hint(own, *table, "mcts:seconds=3"))

    threads = [threading.Thread(target=ask, args=(f"127.0.2.{20 + k}", 0.3 * k))
               for k in range(5)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=120)
    full = [r for r in answers if r.status_code == 503
            and r.json()["limit"] == "MEEPLE_HINT_QUEUE"]
    assert all(answered(r) for r in answers) and len(full) >= 1, [r.text for r in answers]


# ---------------------------------------------------------------- the lane alone
def nap(seconds: float) -> dict[str, Any]:
    time.sleep(seconds)
    return {"slept": seconds}


def test_the_lanes_admission_in_this_process() -> None:
    """A lane of threads: per-client and total caps refuse at once (429, 503) and count
    nothing; a job asked again while under way (``share``) runs once; CPU seconds are kept
    per client for a minute."""

    async def main() -> None:
        lane = Lane(LaneSettings(workers=1, queue=3, per_client=2, cpu_per_minute=0),
                    processes=False)
        lane.start()
        a1 = asyncio.ensure_future(lane.run("a", nap, 0.3, 5, "too long"))
        a2 = asyncio.ensure_future(lane.run("a", nap, 0.3, 5, "too long"))
        await asyncio.sleep(0.01)
        with pytest.raises(Throttled) as own:
            await lane.run("a", nap, 0.3, 5, "too long")
        assert own.value.status == 429 and own.value.limit == "MEEPLE_HINT_PER_CLIENT"
        b1 = asyncio.ensure_future(lane.run("b", nap, 0.3, 5, "too long", share="t1"))
        b2 = asyncio.ensure_future(lane.run("c", nap, 0.3, 5, "too long", share="t1"))
        await asyncio.sleep(0.01)
        assert lane.admitted == 3  # b2 waits for b1's answer: not admitted, not refused
        with pytest.raises(Throttled) as full:
            await lane.run("d", nap, 0.3, 5, "too long")
        assert full.value.status == 503 and full.value.limit == "MEEPLE_HINT_QUEUE"
        assert int(full.value.response().headers["Retry-After"]) >= 1
        got = await asyncio.gather(a1, a2, b1, b2)
        assert got == [{"slept": 0.3}] * 4
        assert lane.admitted == 0 and not lane.by_client
        assert lane.spent("a") < 0.1  # sleeping costs no CPU
        lane.stop()

    run(main())
