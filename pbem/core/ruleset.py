"""What the core asks of a game's ruleset. Each game under `pbem/rulesets/` provides one."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from pbem.core.errors import Problem
from pbem.core.events import EventLog
from pbem.core.words import Words
from pbem.core.yamlio import Document


UNSEEN = "?"
"""What a role's view puts in place of each card it may not know (`Ruleset.view_state`): the list
keeps its length, which is public, and nothing else."""


class Dice(Protocol):
    """A source of dice (`DiceStream` in play, `FixedDice` in tests)."""

    def roll(self, count: int, sides: int = 6) -> list[int]:
        """Roll `count` dice, each 1 to `sides`."""
        ...


@dataclass(frozen=True)
class Option:
    """A documented ruleset option: where players differ or the rulebook is silent."""

    name: str
    default: Any
    allowed: tuple[Any, ...]
    text: str
    legacy: Any = None
    """The value for a game whose options do not name this option (a game begun before the option
    existed keeps the results it had); None: such a game plays the default."""

    def value_in(self, options: dict[str, Any]) -> Any:
        """The value a game with these options plays."""
        if self.name in options:
            return options[self.name]
        return self.default if self.legacy is None else self.legacy


def option_problems(options: tuple[Option, ...], chosen: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(option name, what is wrong, what is allowed) for every unknown option or value not allowed."""
    known = {o.name: o for o in options}
    problems = []
    for name, value in chosen.items():
        if name not in known:
            problems.append((name, f"unknown option {name!r}", ", ".join(known)))
        elif value not in known[name].allowed:
            problems.append((name, f"{value!r} is not allowed", ", ".join(map(str, known[name].allowed))))
    return problems


class Ruleset(ABC):
    """A game's rules as the core sees them. States and orders travel as plain data.

    A turn is one exchange: the roles `awaiting` names each submit one orders file, every other
    role's standing orders are in force, and `resolve` plays it. Games with hidden information
    (`hidden_information`) also give each audience its `view`, mark their private events with
    ``to`` (the roles that may see them), and draw their hidden randomness (shuffles, hidden draws)
    from the `hidden` stream, which is committed when the game begins and proven at its end.
    """

    id: str
    name: str
    powers: tuple[str, ...]
    """The roles of the game (powers, countries, sides) in their order of play."""
    role_field = "power"
    """The field of an orders or standing-orders file that names the role it is for."""
    schema_package: str
    """The package holding the ruleset's orders, standing-orders and state schemas (the game package's
    `schemas`), which refer to nothing outside it."""
    hidden_information = False

    @abstractmethod
    def options(self) -> tuple[Option, ...]:
        """Every option of the ruleset with its default and meaning."""

    def rulings(self) -> tuple[Option, ...]:
        """The documented readings taken where the rulebooks are silent or unclear (one value each)."""
        return ()

    @abstractmethod
    def opening_state(self, game: str, options: dict[str, Any], hidden: Dice | None = None) -> dict[str, Any]:
        """The position before the first turn (the core adds the `dice` block); a game with hidden
        information shuffles and deals with `hidden`."""

    def awaiting(self, state: dict[str, Any]) -> tuple[str, ...]:
        """The roles that must submit orders for the next turn: one, several at once, or none when
        the game is over."""
        return () if state.get("winner") else (state["next_power"],)

    def view_state(self, state: dict[str, Any], audience: str) -> dict[str, Any]:
        """The state as `audience` (``public``, a role, or ``moderator``) may see it, in the state's own
        shape: each card it may not know is `UNSEEN`, and an order it may not know (a deck's) is lost.
        A role's view file holds it, and checks that role's orders as the whole state does. A game
        without secrets shows everyone the whole state; one with secrets must say what each sees."""
        if self.hidden_information and audience != "moderator":
            raise NotImplementedError(f"{self.id} has secrets: its view_state says what {audience} may see")
        return state

    def view(self, state: dict[str, Any], audience: str) -> dict[str, Any]:
        """The position as `audience` may see it, for its reports: made from `view_state` only, so
        that no report can hold what the audience may not know."""
        return self.view_state(state, audience)

    def private_brief(self, state: dict[str, Any], role: str) -> list[str]:
        """What only `role` may know of the position, in a few lines, for a mail that only its
        player reads before a decision (a hand of cards); nothing in a game without secrets."""
        return []

    def preview(self, view: dict[str, Any], orders: dict[str, Any], standing: dict[str, Any] | None,
                warn_below: float) -> dict[str, Any] | None:
        """What a player's valid orders will do, forecast only from what that player may see: `view` is
        `view_state(state, role)`, `orders` the role's orders (plain data, already checked valid),
        `standing` that role's own standing orders or None. Other roles' standing orders are never given:
        where they matter, the defaults stand in (and the preview says so). `warn_below` is a chance in
        [0, 1]: a battle or attack whose chance of success is below it gets a warning.
        Returns {"lines": [str, ...] (the orders read back in the player's terms and each forecast, one
        line each), "warnings": [str, ...], "items": [game-specific plain-data detail, JSON-able]}, or None
        for a game without a preview. Never decides a rule, never draws dice (no randomness at all)."""
        return None

    def order_items(self, orders: dict[str, Any]) -> list[str]:
        """The field of every item of a turn's orders file (``purchase``, ``combat_move[2]``, ``plays[0]``):
        each must end in an event that names it in its ``order`` field and says what became of it
        (carried out, partly, or not and why), so no order is ever dropped without a word."""
        raise NotImplementedError(f"{self.id} does not say which items its orders hold")

    @abstractmethod
    def check_state(self, state: Document) -> list[Problem]:
        """Problems with a state file beyond its schema (unknown spaces or units, ...)."""

    @abstractmethod
    def check_orders(self, state: dict[str, Any], submissions: dict[str, Document],
                     standing: dict[str, Document]) -> list[Problem]:
        """Every problem with the awaited roles' orders (`submissions`: role to its file) and the
        standing orders; empty when legal."""

    @abstractmethod
    def decisions(self, state: dict[str, Any], submissions: dict[str, Document],
                  standing: dict[str, Document]) -> Any:
        """What the turn's submissions decide, as plain JSON data in one canonical form: names
        resolved, no notes, comments or formatting, and the standing orders of every other role in
        force (defaults where a role has none). The dice are bound to its digest, so nothing the
        moderator can vary without changing a decision may change it."""

    @abstractmethod
    def resolve(self, state: dict[str, Any], submissions: dict[str, Document], standing: dict[str, Document],
                dice: Dice, log: EventLog, hidden: Dice | None = None) -> dict[str, Any]:
        """Play the turn: returns the state after it and records every event in `log`.

        Called only with orders for which `check_orders` found nothing. The returned state's
        `round` and `awaiting` roles are those of the following turn; the core sets `dice`.
        `dice` are public (checkable from the revealed seed); `hidden` draws stay secret until the
        game's end.
        """

    def check_standing_orders(self, state: dict[str, Any], standing: Document) -> list[Problem]:
        """Problems with one power's standing orders on their own, beyond their schema (`pbem validate`).

        The default finds none: a ruleset whose standing orders name nothing of its own needs no more.
        """
        return []

    def spaces(self, name: str | None = None) -> list[dict[str, Any]] | None:
        """The board's spaces in board order for `pbem board`, or None for a game without a board.

        Each: ``{"name", "facts" (what matters about the space, in one line), "land_neighbours",
        "sea_neighbours"}`` and whatever else the game tells of it. With `name` (any spelling the
        ruleset reads), only that space; `InputError` with suggestions when it names no space.
        """
        return None

    def names(self) -> dict[str, dict[str, str]] | None:
        """Every spelling the ruleset reads, to its canonical name, by kind: ``power``, ``unit_type``,
        ``development`` and ``space``; None when the ruleset has no names of its own.

        `pbem schema --ruleset` makes editor completions of it.
        """
        return None

    def summary(self, state: dict[str, Any]) -> dict[str, Any] | None:
        """What the reports chart of a state over the game's history (`pbem.core.history`), as plain
        JSON data: the ledger keeps it with each turn, so that no turn reads the earlier states
        again; None for a game whose reports chart nothing."""
        return None

    def brief(self, state: dict[str, Any]) -> list[str]:
        """The position in a few lines for `pbem status` and the mails that announce a turn; none by
        default."""
        return []

    def check_content(self, folder: Path | None) -> tuple[list[str], list[str]] | None:
        """For a game whose material is content files (`pbem content`): the problems of the pack in
        `folder` (None: the pack pbem ships) and the notes on what it reconstructs or lacks; None for
        a game without content files. `InputError` when a file cannot be read."""
        return None

    def words(self) -> Words:
        """How reports write the game's powers and unit types (default: their ids, readably)."""
        return Words()

    def render_reports(self, before: dict[str, Any], after: dict[str, Any], log: EventLog,
                       inputs: Any) -> dict[str, bytes]:
        """A played turn's reports and pictures by file name (report.md, report.bbcode,
        report.html, each role's private ones where the game has secrets, the drawings), made from
        the states, the events and the turn's inputs; they never decide a rule. A game without
        reports of its own writes none."""
        return {}

    def render_board(self, state: dict[str, Any], events: list[dict[str, Any]], title: str,
                     theatre: str | None = None) -> bytes | None:
        """The board of any state as PNG bytes (`pbem render`), with `events` (public ones only)
        drawn on it; None for a game without a board to draw."""
        return None
