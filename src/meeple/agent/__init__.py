"""``meeple agent``: a program playing for a bot account on a meeple server (docs/agents.md).

:mod:`.policies` reads a policy spec (a built-in bot, a policy file of the RL tools, a
Stable-Baselines3 model, a Python callable) into something that picks a move of a position;
:mod:`.seat` rebuilds a seat's position from the server and plays it over the table's
WebSocket; :mod:`.runner` streams the account's events and runs every seat it holds. The
server never imports this package (an import-linter layer keeps it above the server)."""

from __future__ import annotations

from meeple.agent.policies import AgentError, Policy, load_policy

__all__ = ["AgentError", "Policy", "load_policy"]
