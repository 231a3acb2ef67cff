"""The content pack: the board and the cards, read from `content/*.yaml`.

The seed prints only part of either (see the files' headers). A fact the seed does not print is
marked `reconstructed` in the data, a card whose text or country it does not print is marked
`missing`, and `check_content` lists both, so that nobody mistakes the demo pack for the box.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

from pbem.core.cache import kept_data
from pbem.core.errors import InputError, Problem, display_path
from pbem.core.yamlio import file_digests, load_document, reader

COUNTRIES = ("germany", "united_kingdom", "japan", "soviet_union", "italy", "united_states")
"""The six countries in their order of play."""
TEAMS = {"germany": "axis", "japan": "axis", "italy": "axis",
         "united_kingdom": "allies", "soviet_union": "allies", "united_states": "allies"}
PIECES = {  # armies and navies of each country (seed l.24-31)
    "germany": {"army": 7, "navy": 3}, "united_kingdom": {"army": 5, "navy": 5},
    "japan": {"army": 5, "navy": 5}, "soviet_union": {"army": 7, "navy": 1},
    "italy": {"army": 4, "navy": 3}, "united_states": {"army": 5, "navy": 6},
}
BASIC_TYPES = ("build_army", "land_battle", "build_navy", "sea_battle")
BASIC_NAMES = {"build_army": "Build Army", "land_battle": "Land Battle", "build_navy": "Build Navy",
               "sea_battle": "Sea Battle"}
CARD_TYPES = (*BASIC_TYPES, "economic_warfare", "event", "response", "status")


def other_team(team: str) -> str:
    return "allies" if team == "axis" else "axis"


@dataclass(frozen=True)
class Space:
    name: str
    kind: str  # land | sea
    star: bool
    home: str | None
    at: tuple[float, float]


@dataclass
class Board:
    spaces: dict[str, Space]
    neighbours: dict[str, frozenset[str]]
    straits: list[dict[str, Any]]
    reconstructed: list[str] = field(default_factory=list)

    @property
    def order(self) -> list[str]:
        """The spaces in the board file's order, the order reports and defaults use."""
        return list(self.spaces)

    def home_of(self, country: str) -> str:
        return next(s.name for s in self.spaces.values() if s.home == country)

    def adjacent(self, a: str, b: str, team: str, axis_on: set[str]) -> bool:
        """Whether `a` and `b` are adjacent for `team`, given the spaces holding an Axis army: a
        strait joins its two seas for the Axis while an Axis army holds its anchor, else for the
        Allies (seed l.324-349)."""
        return b in self.neighbours_for(a, team, axis_on)

    def neighbours_for(self, space: str, team: str, axis_on: set[str]) -> frozenset[str]:
        found = set(self.neighbours[space])
        for strait in self.straits:
            if space in strait["seas"] and (strait["anchor"] in axis_on) == (team == "axis"):
                found |= set(strait["seas"]) - {space}
        return frozenset(found)


@dataclass(frozen=True)
class Card:
    id: str
    country: str | None
    name: str
    type: str
    text: str | None
    use: dict[str, Any] | None
    missing: str | None = None

    @property
    def playable(self) -> bool:
        return self.country is not None and self.text is not None


@dataclass
class Pack:
    board: Board
    cards: dict[str, Card]
    """Every card kind by id; a country's basic cards are `<country>:<type>`."""
    decks: dict[str, list[str]]
    """Each country's cards as instance ids (`land_battle-3`, `stalingrad`), in pack order."""
    printed_totals: dict[str, int]
    notes: list[str]
    """What the pack lacks or reconstructs, as `pbem content check` lists it."""

    def card(self, country: str, instance: str) -> Card:
        """The card a country's card instance is."""
        kind = re.sub(r"-\d+$", "", instance)
        return self.cards[f"{country}:{kind}" if kind in BASIC_TYPES else kind]

    def name(self, country: str, instance: str) -> str:
        return self.card(country, instance).name


def _board(data: dict[str, Any]) -> Board:
    spaces = {s["name"]: Space(s["name"], s["kind"], bool(s.get("star")), s.get("home"), tuple(s["at"]))
              for s in data["spaces"]}
    neighbours: dict[str, set[str]] = {name: set() for name in spaces}
    for pair in data["adjacent"]:
        a, b = pair["between"]
        neighbours[a].add(b)
        neighbours[b].add(a)
    reconstructed = [f"space {s['name']}" for s in data["spaces"] if s["source"] == "reconstructed"]
    reconstructed += [f"star {s['name']}" for s in data["spaces"] if s.get("star_source") == "reconstructed"]
    reconstructed += [f"adjacency {' - '.join(p['between'])}" for p in data["adjacent"]
                      if p["source"] == "reconstructed"]
    return Board(spaces, {k: frozenset(v) for k, v in neighbours.items()}, data.get("straits") or [], reconstructed)


@cache
def demo_pack() -> Pack:
    """The pack pbem ships: the seed's board and cards, completed and marked as the files say."""
    return load_pack(Path(str(files("pbem.rulesets.qmg") / "content")))


def load_pack(folder: Path) -> Pack:
    """The pack in `folder` (board.yaml and cards.yaml); `InputError` naming the file when either
    does not follow its format."""
    paths = [folder / name for name in ("board.yaml", "cards.yaml")]
    made_from = [*reader(), *file_digests(folder, paths)]
    board_data, cards_data = kept_data("qmg-pack", made_from, lambda: [load_document(path).data for path in paths])
    try:
        board = _board(board_data)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise _format_error(paths[0], exc) from None
    try:
        return _pack(board, cards_data)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise _format_error(paths[1], exc) from None


def _format_error(path: Path, exc: Exception) -> InputError:
    return InputError([Problem(display_path(path), None, "", f"does not follow its format: {type(exc).__name__} {exc}",
                               "the format docs/qmg-content.md describes")])


def _pack(board: Board, data: dict[str, Any]) -> Pack:
    cards: dict[str, Card] = {}
    decks: dict[str, list[str]] = {c: [] for c in COUNTRIES}
    notes = [f"board: {fact} is reconstructed" for fact in board.reconstructed]
    for country, counts in data["basic"].items():
        for kind in BASIC_TYPES:
            cards[f"{country}:{kind}"] = Card(f"{country}:{kind}", country, BASIC_NAMES[kind], kind,
                                              f"The {BASIC_NAMES[kind]} card (seed l.628-668).", None)
            decks[country] += [f"{kind}-{n}" for n in range(1, counts[kind] + 1)]
        notes += [f"cards: {country}'s number of {BASIC_NAMES[k]} cards is reconstructed"
                  for k in counts.get("reconstructed") or []]
    for entry in data["cards"]:
        card = Card(entry["id"], entry.get("country"), entry["name"], entry["type"], entry.get("text"),
                    entry.get("use"), entry.get("missing"))
        cards[card.id] = card
        if card.playable:
            decks[card.country].append(card.id)
        else:
            notes.append(f"cards: {card.name} is not in any deck: {card.missing}")
        if entry.get("type_source") == "reconstructed":
            notes.append(f"cards: {card.name}'s type ({card.type}) is reconstructed")
    totals = {c: v["cards"] for c, v in data["countries"].items()}
    notes += [f"cards: {country} has {len(decks[country])} of its {totals[country]} printed cards"
              for country in COUNTRIES]
    return Pack(board, cards, decks, totals, notes)


CONDITION_FIELDS = {"event", "piece", "owner", "by", "team", "space", "near", "kind", "supplied", "how"}
EVENTS = {"removal", "built", "battle", "play_step", "start_of_turn", "victory_step"}
DISCARD_SOURCES = ("hand", "deck", "responses")
STEPS = {"protect", "remove", "recruit", "battle", "build", "play_from_discard", "discard", "score"}


def check_cards(pack: Pack) -> list[str]:
    """What is wrong with the cards of a pack: unknown words of the vocabulary, spaces not on its
    board, types not of the game, more cards than the box prints."""
    problems = []
    for card in pack.cards.values():
        where = f"card {card.id}"
        if card.type not in CARD_TYPES:
            problems.append(f"{where}: type {card.type!r} is not one of {', '.join(CARD_TYPES)}")
        if card.country not in (*COUNTRIES, None):
            problems.append(f"{where}: country {card.country!r} is not one of {', '.join(COUNTRIES)}")
        use = card.use or {}
        when = use.get("when") or {}
        if when and when.get("event") not in EVENTS:
            problems.append(f"{where}: when.event {when.get('event')!r} is not one of {', '.join(sorted(EVENTS))}")
        problems += [f"{where}: unknown condition {k!r}" for k in when if k not in CONDITION_FIELDS]
        named = [when.get("near")] if when.get("near") else []
        named += when.get("space") or []
        for step in use.get("effect") or []:
            (verb, arg), = step.items()
            if verb not in STEPS:
                problems.append(f"{where}: unknown effect {verb!r}: a hook `_step_{verb}` is needed")
            if verb == "discard" and arg.get("from") not in DISCARD_SOURCES:
                problems.append(f"{where}: discard.from {arg.get('from')!r} is not one of {', '.join(DISCARD_SOURCES)}")
            if isinstance(arg, dict) and "space" in arg:
                named.append(arg["space"])
        problems += [f"{where}: {s!r} is not a space of the board" for s in named if s not in pack.board.spaces]
        if card.playable and card.type in ("event", "economic_warfare", "response", "status") and not use:
            problems.append(f"{where}: a {card.type} card needs `use`")
    for country in COUNTRIES:
        if len(pack.decks[country]) > pack.printed_totals[country]:
            problems.append(f"deck {country}: {len(pack.decks[country])} cards, more than the "
                            f"{pack.printed_totals[country]} the box holds")
    return problems


def check_board(board: Board) -> list[str]:
    """What is wrong with a pack's board: a home or a strait that does not fit the rules."""
    problems = []
    homes = {s.home for s in board.spaces.values() if s.home}
    problems += [f"board: {c} has no home space" for c in COUNTRIES if c not in homes]
    problems += [f"board: home space {s.name} is not a land star space" for s in board.spaces.values()
                 if s.home and not (s.star and s.kind == "land")]
    for strait in board.straits:
        if board.spaces[strait["anchor"]].kind != "land" or any(board.spaces[s].kind != "sea" for s in strait["seas"]):
            problems.append(f"board: the strait at {strait['anchor']} must join two seas from a land space")
    return problems
