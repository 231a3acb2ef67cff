"""Reading the names players write: spaces, unit types, developments and powers.

Players write `sz5`, `Sea Zone 5`, `anglo egypt`, `Karelia`, `armour` or `Jet Fighters`; files
written by pbem always use the canonical names of docs/architecture.md. Short names (`Karelia`,
`W Russia`) come from a curated list, `data/aliases.yaml`, never from guessing: a name that matches
nothing is refused. A name that matches nothing gets the
nearest known names as a suggestion, so a typo costs one round trip, not two.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

_SEA_ZONE = re.compile(r"^(?:sz|seazone|sea)(\d+)$|^(\d+)(?:sz|seazone)$")


def normalise(text: str) -> str:
    """The comparison key of a name: lower case, letters and digits only.

    `Sea Zone 5`, `sz 5` and `5 Sea Zone` (TripleA's spelling) all become `sz5`; `Anglo Egypt` and
    `anglo-egypt` both become `angloegypt`.
    """
    key = re.sub(r"[^0-9a-z]", "", str(text).lower())
    match = _SEA_ZONE.match(key)
    if match:
        return "sz" + (match.group(1) or match.group(2)).lstrip("0")
    return key


def numbered_sea_zone(text: object) -> bool:
    """Whether `text` names a sea zone by number (`SZ 14`, `sea zone 14`)."""
    return bool(_SEA_ZONE.match(normalise(str(text))))


@dataclass
class NameTable:
    """Canonical names of one kind of thing, with the spellings that lead to them."""

    kind: str  # "space", "unit type", ... used in messages
    canonical: list[str] = field(default_factory=list)
    spellings: dict[str, str] = field(default_factory=dict)  # as written in the data, for schemas
    named_seas: list[str] = field(default_factory=list)  # a board whose sea zones have names, not numbers
    _keys: dict[str, str] = field(default_factory=dict)
    _suggested: dict[tuple[str, int], list[str]] = field(default_factory=dict)  # a file may repeat a misspelling thousands of times

    def add(self, name: str, *aliases: str) -> None:
        """Register a canonical name and any other spellings of it."""
        if name not in self.canonical:
            self.canonical.append(name)
        self._suggested.clear()
        for spelling in (name, *aliases):
            self.spellings.setdefault(spelling, name)
            self._keys.setdefault(normalise(spelling), name)

    def get(self, text: object) -> str | None:
        """The canonical name `text` stands for, or None."""
        if not isinstance(text, str):
            return None
        return self._keys.get(normalise(text))

    def suggest(self, text: object, count: int = 3) -> list[str]:
        """The canonical names closest to an unknown `text` (difflib's ratio on the keys)."""
        key = normalise(str(text))
        if (key, count) not in self._suggested:
            found: list[str] = []
            # the close names, else the least far: a refused name always gets suggestions
            close = difflib.get_close_matches(key, list(self._keys), n=count * 3, cutoff=0.5) \
                or difflib.get_close_matches(key, list(self._keys), n=count * 3, cutoff=0.0)
            for spelling in close:
                name = self._keys[spelling]
                if name not in found:
                    found.append(name)
            self._suggested[key, count] = found[:count]
        return list(self._suggested[key, count])

    def unknown_message(self, text: object) -> tuple[str, str | None]:
        """Message and `allowed` text for a name that is not known."""
        if self.named_seas and numbered_sea_zone(text):
            return (f"unknown {self.kind} {text!r}: the sea zones of this board have names, not numbers",
                    ", ".join(self.named_seas))
        if not self.canonical:
            return f"unknown {self.kind} {text!r}: this game has no {self.kind}s", None
        near = self.suggest(text)
        message = f"unknown {self.kind} {text!r}"
        if near:
            message += "; did you mean " + " or ".join(repr(n) for n in near) + "?"
        allowed = ", ".join(self.canonical) if len(self.canonical) <= 15 else None
        return message, allowed


def a(word: str) -> str:
    """`word` with its indefinite article: "an infantry", "a tank"."""
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word
