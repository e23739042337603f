"""A page waiting for the server's reply to a click (a preview or a confirmed turn) never stays
``pending``: the page's WebSocket is routed through Playwright, which drops the connection, or
the reply, at the worst moment; the page sends its request again and carries on."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from meeple.core.rng import Rng
from tests.server.conftest import Server
from tests.web.driver import create_from_lobby, phase, play_turn, turn_moves, version

NOT_PENDING = "() => document.body.dataset.phase !== 'pending'"


def route(page: Any, *, page_to_server: Callable[[Any, Any, dict[str, Any]], bool] | None = None,
          server_to_page: Callable[[Any, Any, dict[str, Any]], bool] | None = None) -> None:
    """Route the table's WebSocket through the test: each hook sees (page side, server side,
    frame) and returns whether the frame goes on."""

    def handler(ws: Any) -> None:
        server = ws.connect_to_server()

        def up(message: str | bytes) -> None:
            if page_to_server is None or page_to_server(ws, server, json.loads(message)):
                server.send(message)

        def down(message: str | bytes) -> None:
            if server_to_page is None or server_to_page(ws, server, json.loads(message)):
                ws.send(message)

        ws.on_message(up)
        server.on_message(down)

    page.route_web_socket("**/ws/tables/**", handler)


def first_choice(page: Any) -> str:
    assert phase(page) == "my-turn"
    button = page.locator("#choices button.choice").first
    move = str(button.get_attribute("data-move"))
    button.click()
    return move


def test_a_connection_dropped_with_a_preview_on_its_way_sends_it_again(page: Any,
                                                                        web: Server) -> None:
    dropped: list[dict[str, Any]] = []

    def drop_first_preview(ws: Any, _server: Any, frame: dict[str, Any]) -> bool:
        if frame["type"] == "preview" and not dropped:
            dropped.append(frame)
            ws.close()  # the connection goes down before the server saw the click
            return False
        return True

    route(page, page_to_server=drop_first_preview)
    create_from_lobby(page, web, "gardens", {"level": "1"}, 2)
    move = first_choice(page)
    page.wait_for_function(NOT_PENDING, timeout=60_000)
    assert dropped and dropped[0]["moves"] == [move]
    # the click was not lost: the page asked again after reconnecting and shows its preview
    assert move in turn_moves(page)
    assert page.inner_text("#conn") == "connected"
    assert phase(page) in ("my-turn", "complete")


def test_a_preview_reply_that_never_comes_is_asked_for_again(page: Any, web: Server) -> None:
    page.add_init_script("globalThis.meepleReplyTimeout = 1000")
    swallowed: list[dict[str, Any]] = []

    def swallow_first_reply(_ws: Any, _server: Any, frame: dict[str, Any]) -> bool:
        if frame["type"] == "preview" and not swallowed:
            swallowed.append(frame)  # the connection stays up; only the reply is lost
            return False
        return True

    route(page, server_to_page=swallow_first_reply)
    create_from_lobby(page, web, "gardens", {"level": "1"}, 2)
    move = first_choice(page)
    page.wait_for_function(NOT_PENDING, timeout=60_000)
    assert swallowed and swallowed[0]["moves"][0] == move
    assert move in turn_moves(page)
    assert phase(page) in ("my-turn", "complete")


def test_a_turn_confirmed_as_the_connection_drops_is_played_once(page: Any,
                                                                 web: Server) -> None:
    sent: list[dict[str, Any]] = []

    def drop_after_move(ws: Any, server: Any, frame: dict[str, Any]) -> bool:
        if frame["type"] == "move" and not sent:
            sent.append(frame)
            server.send(json.dumps(frame))  # the server gets the turn...
            ws.close()  # ...but the page's connection drops before the ack
            return False
        return True

    route(page, page_to_server=drop_after_move)
    table = create_from_lobby(page, web, "gardens", {"level": "1"}, 2)
    assert phase(page) == "my-turn"
    before = version(page)
    play_turn(page, Rng(5))
    assert sent, "the turn was not confirmed"
    page.wait_for_function(
        f"() => Number(document.body.dataset.version) > {before}"
        " && !['pending', 'complete'].includes(document.body.dataset.phase)", timeout=60_000)
    # played once: the seat's moves since are exactly the turn's (the resend was acknowledged
    # as already played), the page holds no turn of its own any more and says no refusal
    log = web.api("GET", f"/api/tables/{table}/log", params={"after": before}).json()
    mine = [e["text"] for e in log if e["seat"] == 0 and e["kind"] == "move"]
    assert mine == sent[0]["moves"]
    assert page.inner_text("#buffer") == ""
    assert "already played" not in page.inner_text("body")
