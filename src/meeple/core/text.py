"""Small helpers for words about seats, shared by every game's renderer and the clients.

A seat's display name is a person's name, a bot's name or "you" (one human at the keyboard):
``possessive("you") == "your"``, ``possessive("Ann") == "Ann's"``; ``verb("you", "rolls")`` is
"roll" and ``verb("Ann", "rolls")`` is "rolls"; ``cap`` starts a sentence that begins with one.
"""

from __future__ import annotations

YOU = "you"


def possessive(name: str) -> str:
    """``name``'s, or "your" for the seat called "you"."""
    if name.lower() == YOU:
        return "your"
    return f"{name}'" if name.endswith("s") and not name.endswith("'s") else f"{name}'s"


def verb(name: str, third_person: str, plain: str | None = None) -> str:
    """The verb agreeing with ``name``: ``third_person`` ("rolls", "has") for a named seat and
    its plain form ("roll", "have") for "you". ``plain`` defaults to ``third_person`` less a
    final "s"."""
    if name.lower() != YOU:
        return third_person
    if plain is not None:
        return plain
    irregular = {"has": "have", "is": "are", "does": "do", "goes": "go"}
    if third_person in irregular:
        return irregular[third_person]
    if third_person.endswith(("ches", "shes", "sses", "xes", "zes")):
        return third_person[:-2]  # reaches, pushes, passes, fixes
    if third_person.endswith("ies") and len(third_person) > 4:
        return third_person[:-3] + "y"  # carries
    return third_person[:-1] if third_person.endswith("s") else third_person


def cap(text: str) -> str:
    """``text`` with its first letter a capital (a sentence that starts with a name: "You
    take", "you" being a seat's name in the middle of one)."""
    return text[:1].upper() + text[1:]


def subject(name: str, third_person: str, plain: str | None = None) -> str:
    """"Ann rolls" / "you roll": the name and its agreeing verb."""
    return f"{name} {verb(name, third_person, plain)}"
