"""The players file of a game run by mail (GAME/players.yaml): who plays which roles at which
address, each player's game password (kept as a salted hash only), the moderator's address, the
deadline policy and what happens when orders are missing at the deadline.

    moderator: {name: Mo, address: mo@example.org}
    players:
      - {name: Alice, address: alice@example.org, roles: [germany, italy], password: "sha256:SALT:HASH"}
    deadline: {hours: 72, grace_hours: 12, weekdays: [mon, tue, wed, thu, fri], reminders: [24, 2]}
    missing_orders: wait            # or standing: play the role with empty orders at the deadline
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from pbem.core.errors import InputError, Problem
from pbem.core.schemas import validate
from pbem.core.yamlio import Document, load_document

PLAYERS_FILE = "players.yaml"
WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
ADDRESS = re.compile(r"^[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+$")


@dataclass(frozen=True)
class Player:
    name: str
    address: str
    roles: tuple[str, ...]
    password: str | None
    """The salted hash of the game password, ``sha256:SALT:HASH``; None: no password is asked."""

    def knows(self, password: str | None) -> bool:
        """Whether `password` is this player's game password (compared in constant time)."""
        if self.password is None:
            return True
        if password is None:
            return False
        _, salt, digest = self.password.split(":")
        return hmac.compare_digest(password_hash(salt, password), digest)


@dataclass(frozen=True)
class Deadline:
    hours: int = 72
    grace_hours: int = 0
    weekdays: tuple[str, ...] = WEEKDAYS
    reminders: tuple[int, ...] = (24,)
    """Hours before the deadline at which those who have not sent valid orders are reminded."""

    def due(self, start: datetime, hours: float | None = None) -> datetime:
        """The deadline of a turn that began at `start`: `hours` (the policy's) later, counting only
        the hours of the days the policy counts (a weekend off pushes a Friday turn into the next
        week)."""
        left, moment = self.hours if hours is None else hours, start
        while True:
            counting = WEEKDAYS[moment.weekday()] in self.weekdays
            day_end = (moment + timedelta(days=1)).replace(hour=0, minute=0, second=0, microsecond=0)
            span = (day_end - moment).total_seconds() / 3600
            if counting and span >= left:
                return moment + timedelta(hours=left)
            if counting:
                left -= span
            moment = day_end

    def reminder(self, start: datetime, before: int) -> datetime | None:
        """When the reminder `before` counted hours ahead of the deadline goes out; None when the
        turn is shorter than that."""
        return self.due(start, self.hours - before) if before < self.hours else None

    def late(self, start: datetime) -> datetime:
        """When the grace after the deadline is over and the missing-orders policy applies."""
        return self.due(start) + timedelta(hours=self.grace_hours)


@dataclass(frozen=True)
class Players:
    moderator_name: str
    moderator_address: str
    players: tuple[Player, ...]
    deadline: Deadline
    missing_orders: str

    def without_password(self) -> list[str]:
        return [p.name for p in self.players if p.password is None]

    def of_role(self, role: str) -> Player:
        return next(p for p in self.players if role in p.roles)

    def by_address(self, address: str) -> Player | None:
        return next((p for p in self.players if p.address.lower() == address.lower()), None)


def password_hash(salt: str, password: str) -> str:
    return hashlib.sha256(f"pbem-player/1|{salt}|{password}".encode()).hexdigest()


def new_password() -> tuple[str, str]:
    """A fresh game password and the hash the players file keeps of it."""
    password, salt = secrets.token_urlsafe(9), secrets.token_hex(8)
    return password, f"sha256:{salt}:{password_hash(salt, password)}"


def read_players(folder: Path, roles: tuple[str, ...]) -> Players | None:
    """The game's players file, checked against its schema and the game's roles; None without one."""
    path = folder / PLAYERS_FILE
    if not path.exists():
        return None
    doc = load_document(path)
    problems = validate("players", doc)
    if not problems:
        problems = _check(doc, roles)
    if problems:
        raise InputError(problems)
    data = doc.data
    players = tuple(Player(p["name"], p["address"], tuple(p["roles"]), p.get("password"))
                    for p in data["players"])
    policy = data.get("deadline") or {}
    deadline = Deadline(policy.get("hours", 72), policy.get("grace_hours", 0),
                        tuple(policy.get("weekdays") or WEEKDAYS), tuple(policy.get("reminders", [24])))
    return Players(data["moderator"]["name"], data["moderator"]["address"], players, deadline,
                   data.get("missing_orders", "wait"))


def _check(doc: Document, roles: tuple[str, ...]) -> list[Problem]:
    data: dict[str, Any] = doc.data
    problems = []
    held: dict[str, int] = {}
    for i, player in enumerate(data["players"]):
        if not ADDRESS.match(player["address"]):
            problems.append(doc.problem(("players", i, "address"), f"{player['address']!r} is not a mail address",
                                        "name@example.org"))
        for j, role in enumerate(player["roles"]):
            if role not in roles:
                problems.append(doc.problem(("players", i, "roles", j), f"{role!r} is not a role of this game",
                                            ", ".join(roles)))
            elif role in held:
                problems.append(doc.problem(("players", i, "roles", j), f"{role} is played by "
                                            f"{data['players'][held[role]]['name']} already", "one player a role"))
            held.setdefault(role, i)
    addresses = [p["address"].lower() for p in data["players"]] + [data["moderator"]["address"].lower()]
    problems += [doc.problem(("players",), f"{a} is given twice", "one address each")
                 for a in sorted({a for a in addresses if addresses.count(a) > 1})]
    problems += [doc.problem(("players",), f"nobody plays {role}", "every role played by one player")
                 for role in roles if role not in held]
    if not ADDRESS.match(data["moderator"]["address"]):
        problems.append(doc.problem(("moderator", "address"), "not a mail address", "name@example.org"))
    return problems
