"""``meeple agent``: connect a policy to a meeple server as a bot account (docs/agents.md).

The command reads and checks its input (the server's address, the token, the policy spec,
the challenge filter), then runs :func:`meeple.agent.runner.run_agent`: the account's event
stream, the challenges, Play now and tournaments, every seat the account holds played over
its WebSocket. A bad input is one line on stderr and exit code 2; SIGINT or SIGTERM stop it
cleanly (each socket closed with a close frame) with exit code 0, as does ``--games N``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from meeple.cli.common import app, refuse


@app.command("agent")
def agent_cmd(
    server: Annotated[str, typer.Option(
        "--server", help="the server's address, e.g. http://127.0.0.1:8000")],
    policy: Annotated[str, typer.Option(
        "--policy", help="bot:<bot spec> (bot:greedy), npz:<policy file of "
        "train_masked_policy.py>, sb3:<model zip> or py:<module>:<function>")],
    token_file: Annotated[Path | None, typer.Option(
        "--token-file", help="a file holding the bot account's API token (default: the "
        "MEEPLE_TOKEN variable)")] = None,
    accept: Annotated[str | None, typer.Option(
        "--accept", help="accept the challenges that match, e.g. game=gardens,pace=live,"
        "rated=any (or 'any'); the others are declined with a reason. Left out: decline "
        "all")] = None,
    play_now: Annotated[str | None, typer.Option(
        "--play-now", help="wait in Play now for GAME[:SEATS] whenever no game is being "
        "played (bots may fill the table)")] = None,
    tournament: Annotated[list[str] | None, typer.Option(
        "--tournament", help="join this tournament (by id); may be given several times")
    ] = None,
    games: Annotated[int | None, typer.Option(
        "--games", min=1, help="stop after this many finished games")] = None,
    quiet: Annotated[bool, typer.Option(
        "--quiet", help="print only finished games and errors")] = False,
) -> None:
    """Play for a bot account with a policy: stream its events, accept challenges by a
    filter, join Play now and tournaments, and play every seat it holds, until stopped
    (Ctrl-C, SIGTERM) or after --games finished games."""
    from meeple.agent.http import Api
    from meeple.agent.policies import AgentError, load_policy
    from meeple.agent.runner import (
        ChallengeFilter,
        Options,
        checked_url,
        parse_play_now,
        read_token,
        run_agent,
    )
    from meeple.settings import Settings, SettingsError

    try:
        env_token = Settings.from_env().client.token
    except SettingsError as exc:
        raise refuse(str(exc)) from None
    try:
        base = checked_url(server)
        token = read_token(token_file, env_token)
        options = Options(policy=load_policy(policy),
                          accept=ChallengeFilter.parse(accept) if accept is not None else None,
                          play_now=parse_play_now(play_now) if play_now else None,
                          tournaments=tuple(tournament or ()), games=games, quiet=quiet)
        code = run_agent(Api(base, token), options)
    except AgentError as exc:
        raise refuse(str(exc)) from None
    raise typer.Exit(code)
