"""The bot workers' shares (meeple.server.table.botfair) on their own: which waiting decision a
freed worker takes, the cap on a bot-only table's thinking, and the settings' checks. The
behaviour against a real server is tests/server/test_bot_fairness.py."""

from __future__ import annotations

import asyncio

import pytest

from meeple.server.table.botfair import BotShares, capped_spec
from meeple.server.table.settings import ShareSettings
from meeple.settings import Settings
from tests import aio


async def _order(shares: BotShares, asks: list[tuple[str, bool]], hold: int) -> list[int]:
    """Ask ``asks`` (client, background) in order while ``hold`` decisions of client ``x``
    already hold workers; release the holders one at a time; return the asks in the order
    they got a worker."""
    got: list[int] = []
    gates = [asyncio.Event() for _ in asks]
    holders = [asyncio.Event() for _ in range(hold)]

    async def run(client: str, background: bool, done: asyncio.Event, i: int | None) -> None:
        async with shares.turn(client, background):
            if i is not None:
                got.append(i)
            await done.wait()

    tasks = [asyncio.ensure_future(run("x", False, h, None)) for h in holders]
    await asyncio.sleep(0)
    tasks += [asyncio.ensure_future(run(c, b, g, i)) for i, ((c, b), g) in
              enumerate(zip(asks, gates, strict=True))]
    await asyncio.sleep(0)
    for event in [*holders, *gates]:
        event.set()
        for _ in range(3):
            await asyncio.sleep(0)
    await asyncio.gather(*tasks)
    return got


def test_a_person_goes_before_bot_only_tables_and_clients_take_turns() -> None:
    shares = BotShares(1, ShareSettings(per_client=1))
    # one worker, held by x: then a bot-only table of a, two of x's tables, one of b's
    order = aio.run(_order(shares, [("a", True), ("x", False), ("x", False), ("b", False)],
                               hold=1))
    # while x holds the worker its own wait; freed, it goes to the tables with a person in the
    # order they asked (each client then has none running), the bot-only table's last
    assert order == [1, 2, 3, 0]


def test_a_client_never_holds_every_worker() -> None:
    shares = BotShares(2)  # per client: every worker but one
    assert shares.per_client == 1

    async def main() -> list[str]:
        started: list[str] = []
        release = asyncio.Event()

        async def run(client: str) -> None:
            async with shares.turn(client, False):
                started.append(client)
                await release.wait()

        tasks = [asyncio.ensure_future(run("flood")) for _ in range(5)]
        await asyncio.sleep(0)
        tasks.append(asyncio.ensure_future(run("person")))
        for _ in range(3):
            await asyncio.sleep(0)
        seen = list(started)
        release.set()
        await asyncio.gather(*tasks)
        return seen

    # one of the flood's five runs, the person's takes the other worker at once
    assert aio.run(main()) == ["flood", "person"]


def test_a_clients_bot_only_tables_think_one_at_a_time() -> None:
    shares = BotShares(3)

    async def main() -> int:
        running, most = 0, 0
        gate = asyncio.Event()

        async def run() -> None:
            nonlocal running, most
            async with shares.turn("flood", True):
                running += 1
                most = max(most, running)
                await gate.wait()
                running -= 1

        tasks = [asyncio.ensure_future(run()) for _ in range(6)]
        for _ in range(3):
            await asyncio.sleep(0)
        gate.set()
        await asyncio.gather(*tasks)
        return most

    assert aio.run(main()) == 1


def test_a_cancelled_wait_gives_its_turn_on() -> None:
    shares = BotShares(1)

    async def main() -> bool:
        hold = asyncio.Event()

        async def run(client: str) -> None:
            async with shares.turn(client, False):
                await hold.wait()

        first = asyncio.ensure_future(run("a"))
        await asyncio.sleep(0)
        waiting = asyncio.ensure_future(run("b"))
        await asyncio.sleep(0)
        waiting.cancel()
        await asyncio.sleep(0)
        hold.set()
        await first
        later = asyncio.ensure_future(run("c"))
        await asyncio.sleep(0)
        await later
        return shares.running == 0 and not shares.waiting

    assert aio.run(main())


@pytest.mark.parametrize(("spec", "capped"), [
    ("mcts:seconds=10", "mcts:seconds=3"),
    ("mcts:iterations=20000", "mcts:iterations=20000;seconds=3"),
    ("mcts:cpu=10;seconds=2", "mcts:cpu=3;seconds=2"),
    ("mcts", "mcts:seconds=3"),
    ("mcts:iterations=200;seconds=0.5", "mcts:iterations=200;seconds=0.5"),
    ("greedy", "greedy"),
    ("hard", "hard"),
])
def test_a_bot_only_tables_thinking_is_capped(spec: str, capped: str) -> None:
    assert capped_spec(spec, 3) == capped
    assert capped_spec(spec, 0) == spec  # 0: no cap


def test_settings_are_checked_naming_the_variable() -> None:
    assert Settings.from_env({}).bot_shares == ShareSettings()
    assert Settings.from_env({"MEEPLE_BOT_PER_CLIENT": "3"}).bot_shares.per_client == 3
    for env in ({"MEEPLE_BOT_BACKGROUND": "0"}, {"MEEPLE_BOT_PER_CLIENT": "-1"},
                {"MEEPLE_BOT_ONLY_SECONDS": "soon"}):
        with pytest.raises(ValueError, match=next(iter(env))):
            Settings.from_env(env)
