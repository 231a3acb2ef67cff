"""One player's mail, answered: who sent it, whether they know the game password, which game turn
it is for, and what became of the orders or standing orders in it. Every outcome is a journal step
and, but for strangers, an answer; storing a version is journalled before it is written, so a pass
killed in between stores it once."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from pbem.core.errors import InputError, Problem
from pbem.core.folder import STANDING
from pbem.core.moderator import (Position, check, check_standing, next_version, read_submission,
                                 store_version)
from pbem.core.preview import preview, preview_text
from pbem.core.players import Player, Players
from pbem.core.yamlio import parse_document, read_text
from pbem.mail.messages import Incoming, outgoing
from pbem.mail.room import Mailroom, write_whole

GAME_TURN_LINE = re.compile(r"^[ \t]*game_turn[ \t]*:[ \t]*(\S*)[ \t\r]*$", re.IGNORECASE | re.MULTILINE)
STANDING_LINE = re.compile(r"^[ \t]*standing_orders[ \t]*:[ \t]*yes[ \t\r]*$", re.IGNORECASE | re.MULTILINE)
ECHO_LINES = 40
"""An answer repeats at most this many lines of the orders as read."""


class Answers:
    """The answers of one game's pass: built from its players file and its mail room."""

    def __init__(self, game_name: str, players: Players, room: Mailroom) -> None:
        self.game_name, self.players, self.room = game_name, players, room

    def mail(self, key: str, player: Player, subject: str, text: str, **parts) -> None:
        """Queue one mail to `player`, once for `key` in this game."""
        moderator = f"{self.players.moderator_name} <{self.players.moderator_address}>"
        tag = f"[{self.game_name}]"
        self.room.queue(key, outgoing(moderator, f"{player.name} <{player.address}>",
                                      subject if tag in subject else f"{tag} {subject}", text,
                                      key=f"{self.room.game_key}|{key}", **parts))

    def reply(self, player: Player, incoming: Incoming, text: str, refusal: bool = False) -> None:
        """Answer one mail; a refusal only while the address has had few this hour, since anyone
        may send mails in a player's name."""
        if refusal and not self.room.may_refuse(player.address):
            self.room.log(f"{incoming.message_id}: refusal to {player.address} not mailed (limit of the hour)")
            return
        subject = incoming.subject or "your mail"
        self.mail(f"reply|{incoming.message_id}", player, f"Re: {subject}", text,
                  reply_to=incoming.message_id)

    def handle(self, incoming: Incoming, position: Position) -> None:
        """Answer one mail and journal what became of it."""
        room, mid = self.room, incoming.message_id
        player = self.players.by_address(incoming.sender)
        if player is None:  # no answer: a stranger's address may be forged, and an answer would be spam
            room.log(f"{mid} from {incoming.sender}: not a player of this game; ignored")
            room.note("handled", message_id=mid, sender=incoming.sender, outcome="not a player")
            return
        if incoming.problem and not player.knows(incoming.password):
            self._refuse(incoming, player, "unreadable", f"Your mail could not be read: {incoming.problem}. Nothing "
                         "was changed. Send the orders as a YAML attachment or as the plain text of the mail, with "
                         "the line 'password: YOUR-GAME-PASSWORD' above them.\n", why=incoming.problem)
            return
        if not player.knows(incoming.password):
            self._refuse(incoming, player, "wrong password", "Your mail was refused: its game password is wrong or "
                         "missing. Put a line 'password: YOUR-GAME-PASSWORD' above your orders. If you did not send "
                         "it, someone else used your address; your orders on file are unchanged.\n")
            return
        if incoming.problem or not incoming.text or not incoming.text.strip():
            why = incoming.problem or "it held no orders"
            self._refuse(incoming, player, "no orders", f"Your mail could not be used: {why}. Send the orders as a "
                         "YAML attachment or as the text of the mail, with the lines 'password: ...' and "
                         f"'game_turn: {position.turn}' above them.\n", why=why)
            return
        text, standing = _mail_lines(incoming.text, incoming.body)
        if standing:
            self._standing(incoming, player, position, text)
        else:
            self._orders(incoming, player, position, text)

    def _refuse(self, incoming: Incoming, player: Player, outcome: str, text: str, **facts: str) -> None:
        """Answer a mail that changed nothing (within the refusal limit) and journal why."""
        self.reply(player, incoming, text, refusal=True)
        self.room.log(f"{incoming.message_id} from {incoming.sender}: {outcome}"
                      + (f": {facts['why']}" if "why" in facts else ""))
        self.room.note("handled", message_id=incoming.message_id, sender=incoming.sender, outcome=outcome, **facts)

    def _orders(self, incoming: Incoming, player: Player, position: Position, text: str) -> None:
        named = GAME_TURN_LINE.search(incoming.text or "") or GAME_TURN_LINE.search(incoming.body)
        turn = int(named.group(1)) if named and named.group(1).isdigit() else None
        if turn is None:
            self._refuse(incoming, player, "no game turn", "Your orders were not stored: the mail does not say which "
                         f"game turn they are for. Put a line 'game_turn: {position.turn}' above them (game turn "
                         f"{position.turn} awaits {', '.join(position.awaited) or 'nobody'}).\n")
            return
        if turn < position.turn:
            self._refuse(incoming, player, f"for game turn {turn}, played already",
                         f"Your orders for game turn {turn} were not stored: that turn was played already. The game "
                         f"is at game turn {position.turn}.\n")
            return
        default_role = player.roles[0] if len(player.roles) == 1 else None
        try:
            doc, role, unread = read_submission(position, text, "your orders", default_role, turn)
        except InputError as exc:
            self._refuse(incoming, player, "refused", "Your orders were not stored:\n" + _listed(exc.problems))
            return
        if role not in player.roles:
            self._refuse(incoming, player, "not your role", f"Your orders are for {role}, whom you do not play (you "
                         f"play {', '.join(player.roles)}); they were not stored.\n")
            return
        path = self._store(incoming, position, role, turn, text)
        where = path.relative_to(position.folder).as_posix()
        early = turn > position.turn
        problems = [] if early else unread if doc is None else check(position, role, doc)
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
        if early:
            answer = (f"Your orders for {role}, game turn {turn}, are kept as {where}. They are checked when that "
                      f"turn begins (the game is at game turn {position.turn}); the mail that opens it tells you "
                      "whether they count.\n")
        elif problems:
            answer = (f"Your orders for {role}, game turn {turn}, were stored as {where} but are NOT valid: they do "
                      "not count until a valid version comes. Every problem:\n" + _listed(problems))
        else:
            answer = (f"Your orders for {role}, game turn {turn}, are valid and stored as {where}. A later valid "
                      "version replaces them until the turn is played.\n")
        answer += (f"\nSHA-256 of the orders: {digest}\n(the report lists it; `sha256sum` of the file you sent "
                   "gives it too, with Unix line endings)\n")
        answer += "\nYour orders as read:\n" + _echo(text)
        if not early and not problems:
            answer += self._preview(position, role, doc)
        answer += self._standing_on_file(position, role)
        notes = list(incoming.notes) + _repairs(text)
        if notes:
            answer += "\nHow your mail was read:\n" + "".join(f"- {note}\n" for note in notes)
        self.reply(player, incoming, answer)
        state = "kept for later" if early else "not valid" if problems else "valid"
        self.room.log(f"{incoming.message_id} from {incoming.sender}: {role}'s orders for game turn {turn} stored "
                      f"as {where}, {state}")
        self.room.note("handled", message_id=incoming.message_id, sender=incoming.sender, outcome="stored",
                       stored=where, valid=not problems and not early)

    def _store(self, incoming: Incoming, position: Position, role: str, turn: int, text: str) -> Path:
        """The version stored from this mail: the one a killed pass began, or a new one."""
        begun = self.room.storing.get(incoming.message_id)
        if begun is not None:
            path = position.folder / begun["path"]
            store_version(path, text)  # the same bytes again, whether or not the kill came before
            return path
        path = next_version(position, role, turn)
        self.room.note("storing", message_id=incoming.message_id, path=path.relative_to(position.folder).as_posix())
        store_version(path, text)
        return path

    def _standing(self, incoming: Incoming, player: Player, position: Position, text: str) -> None:
        role_field = position.ruleset.role_field
        try:
            doc = parse_document(text, "your standing orders")
        except InputError as exc:
            self._refuse(incoming, player, "standing orders unreadable",
                         "Your standing orders were not stored:\n" + _listed(exc.problems))
            return
        named = doc.data.get(role_field) if isinstance(doc.data, dict) else None
        role = named if isinstance(named, str) else (player.roles[0] if len(player.roles) == 1 else None)
        if role not in player.roles:
            self._refuse(incoming, player, "not your role", f"Your standing orders name {role_field} {role!r}; you "
                         f"play {', '.join(player.roles)}. They were not stored.\n")
            return
        problems = check_standing(position, role, doc)
        if problems:
            self._refuse(incoming, player, "standing orders not valid", "Your standing orders were not stored: the "
                         "ones on file stay in force. Every problem:\n" + _listed(problems))
            return
        write_whole(position.folder / STANDING / f"{role}.yaml", text.encode("utf-8"))
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
        self.reply(player, incoming, f"Your standing orders for {role} are valid and in force from the next game "
                   f"turn on (every turn names the version it played).\nSHA-256: {digest}\n\nAs read:\n" + _echo(text))
        self.room.log(f"{incoming.message_id} from {incoming.sender}: {role}'s standing orders in force")
        self.room.note("handled", message_id=incoming.message_id, sender=incoming.sender, outcome="standing orders",
                       role=role, sha256=digest)

    @staticmethod
    def _preview(position: Position, role: str, doc) -> str:
        """What the valid orders will do, from the role's view and its own standing orders on file
        only (never another role's), with their warn_below threshold."""
        path = position.folder / STANDING / f"{role}.yaml"
        try:
            own = parse_document(read_text(path), "standing orders").data if path.is_file() else None
        except InputError:
            own = None  # stored ones were checked; an unreadable file only loses its threshold
        found = preview(position.ruleset, position.state, role, doc.data, own if isinstance(own, dict) else None)
        text = preview_text(found)
        return f"\n{text}" if text else ""

    @staticmethod
    def _standing_on_file(position: Position, role: str) -> str:
        """One line on the standing orders in force: what they set, so that a player sees whether
        the ones they sent are the ones on file."""
        path = position.folder / STANDING / f"{role}.yaml"
        if not path.is_file():
            return ""
        data = path.read_bytes()
        try:
            doc = parse_document(data.decode("utf-8", errors="replace"), "standing orders")
            fields = [k for k in doc.data if k != position.ruleset.role_field] if isinstance(doc.data, dict) else []
        except InputError:
            fields = []
        return (f"\nYour standing orders on file set {', '.join(fields) or 'nothing: every default applies'} "
                f"(SHA-256 {hashlib.sha256(data).hexdigest()[:16]}...). Send new ones with the line "
                "'standing_orders: yes' above them.\n")


def _mail_lines(text: str, body: str) -> tuple[str, bool]:
    """The orders without the mail's own lines (game turn, standing orders), and whether they are
    standing orders (said in the orders or the mail's text)."""
    standing = bool(STANDING_LINE.search(text) or STANDING_LINE.search(body))
    text = GAME_TURN_LINE.sub("", text, count=1)
    text = STANDING_LINE.sub("", text, count=1)
    return text.lstrip("\n"), standing


def _listed(problems: list[Problem]) -> str:
    return "".join(f"- {p}\n" for p in problems)


def _echo(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    shown = "".join(f"    {line}\n" for line in lines[:ECHO_LINES])
    return shown + (f"    ... and {len(lines) - ECHO_LINES} more lines\n" if len(lines) > ECHO_LINES else "")


def _repairs(text: str) -> list[str]:
    try:
        return [f"line {n.line}: {n.message}" for n in parse_document(text, "orders").notes]
    except InputError:
        return []  # the problems say why it cannot be read
