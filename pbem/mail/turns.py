"""A game's turns by mail: its announcement, the turns played when the orders are in (or the
deadline's policy says so), each turn's reports mailed once to every player, reminders and late
notices. Every step can be taken again: a turn file written but not played is played by the next
pass, a turn played but not mailed is mailed by it."""

from __future__ import annotations

import hashlib
import html
import re
from datetime import datetime
from pathlib import Path
from typing import Any

from pbem.core.errors import InputError
from pbem.core.folder import TURNS_DIR, private_reports
from pbem.core.game import read_ledger
from pbem.core.moderator import Position, current, latest_valid, play_turn, turn_name, versions, write_next_turn
from pbem.core.views import position_files
from pbem.core.players import PLAYERS_FILE, Player, Players
from pbem.core.yamlio import load_document
from pbem.mail.answers import Answers
from pbem.mail.room import Mailroom, game_identity

MISSED = ".none.yaml"
"""The empty orders a role plays with when the deadline passed without its orders."""


class GameTurns:
    """One game's turns in one pass."""

    def __init__(self, game: Path, players: Players, room: Mailroom, answers: Answers, render) -> None:
        self.game, self.players, self.room, self.answers, self.render = game, players, room, answers, render
        self.wake: datetime | None = None
        """When the game's clock next asks for something (a reminder, the deadline, its grace's end)."""

    # -- the game's start -------------------------------------------------------------------------

    def announce(self, position: Position) -> None:
        """The first pass tells every player the game has begun: the roles, who moves first and by
        when, how to send orders, and privately what each needs for their first decision."""
        if not any(step.get("step") == "baseline" for step in self.room.steps):
            # the turns played before the game went by mail are not mailed
            self.room.note("baseline", turns=len(read_ledger(self.game) or []))
        self._start_clock(position)
        roles = "\n".join(f"- {p.name}: {', '.join(p.roles)}" for p in self.players.players)
        first = self._whose_turn(position)
        for player in self.players.players:
            text = (f"The game {position.state['game']} ({position.ruleset.name}) is run by mail from now on.\n\n"
                    f"Who plays what:\n{roles}\n\n{first}\n\n" + self._how_to_send(position, player)
                    + self._private(position, player))
            self.answers.mail(f"announce|{player.address}", player, "The game begins", text,
                              attachments=self._position(position, player))
        self.room.note("announced")
        self.room.log(f"game announced to {len(self.players.players)} players")

    def announce_players(self) -> None:
        """Tell everyone who plays what when the players file changed (a player replaced, say);
        the announcement of the game told them first."""
        digest = hashlib.sha256((self.game / PLAYERS_FILE).read_bytes()).hexdigest()
        told = [step["sha256"] for step in self.room.steps if step.get("step") == "players"]
        if told and told[-1] == digest:
            return
        if told:  # else the game's announcement listed them
            roles = "\n".join(f"- {p.name}: {', '.join(p.roles)}" for p in self.players.players)
            for player in self.players.players:
                self.answers.mail(f"players|{digest}|{player.address}", player, "The players of the game",
                                  f"The moderator changed the players file. Who plays what now:\n{roles}\n")
        self.room.note("players", sha256=digest)

    def _start_clock(self, position: Position) -> dict[str, Any]:
        clock = self.room.turns.get(str(position.turn))
        if clock is None:
            clock = {"started": self.room.now.isoformat(), "reminded": [], "late": False}
            self.room.turns[str(position.turn)] = clock
            self.room.save_turns()
        return clock

    def _due(self, position: Position) -> datetime:
        return self.players.deadline.due(datetime.fromisoformat(self._start_clock(position)["started"]))

    def _whose_turn(self, position: Position) -> str:
        if not position.awaited:
            return "The game is over."
        return (f"Game turn {position.turn} awaits orders from {', '.join(position.awaited)}, due "
                f"{self._due(position):%A %d %B %Y %H:%M} UTC.")

    def _how_to_send(self, position: Position, player: Player) -> str:
        position_file = self._position(position, player)[0][0]
        return (f"You play {', '.join(player.roles)}. To send orders, reply to this address with the orders as a "
                "YAML attachment (or as the text of the mail) and these lines above them:\n"
                "    password: YOUR-GAME-PASSWORD\n"
                f"    game_turn: {position.turn}\n"
                "Orders for a later game turn may be sent early with its number. Standing orders (your decisions "
                "in the others' turns) go with the line 'standing_orders: yes' instead of game_turn. The orders "
                f"format: `pbem schema orders --ruleset {position.ruleset.id}` and pbem's docs/orders.md. Check "
                f"them before sending with `pbem validate ORDERS.yaml --state {position_file}`, the position as "
                "you may see it, which the mails that open a turn bring.\n")

    def _position(self, position: Position, player: Player) -> list[tuple[str, bytes, str]]:
        """The position the player checks orders on: their roles' views, never another's secrets."""
        return [(name, data, "application/yaml")
                for name, data in position_files(position.ruleset, position.state, player.roles).items()]

    def _private(self, position: Position, player: Player) -> str:
        """What only this player may know before their next decision (a hand of cards)."""
        lines = [f"{role}: {line}" for role in player.roles
                 for line in position.ruleset.private_brief(position.state, role)]
        return "\nFor your eyes only:\n" + "".join(f"- {line}\n" for line in lines) if lines else ""

    # -- recovering what a killed pass left -------------------------------------------------------

    def recover(self) -> None:
        """Play a turn file written but never played, and mail every turn played but not mailed."""
        position = current(self.game)
        pending = self.game / TURNS_DIR / f"{turn_name(position)}.yaml"
        if position.awaited and pending.exists():
            self._play(position, pending, resumed=True)
        baseline = next((s["turns"] for s in self.room.steps if s.get("step") == "baseline"), 0)
        for index, entry in enumerate(read_ledger(self.game) or []):
            if index >= baseline and entry["turn"] not in self.room.reported:
                self._mail_reports(entry)

    # -- playing turns ----------------------------------------------------------------------------

    def advance(self) -> None:
        """Play while every awaited role has valid orders (or the deadline's policy says to play
        without them); else remind and warn as the deadline nears."""
        for _ in range(100):  # a pass never plays more turns than this (a runaway guard)
            position = current(self.game)
            if not position.awaited:
                return
            clock = self._start_clock(position)
            started = datetime.fromisoformat(clock["started"])
            missing = [role for role in position.awaited if latest_valid(position, role)[0] is None]
            late = self.room.now >= self.players.deadline.late(started)
            if missing and not (late and self.players.missing_orders == "standing"):
                self._remind(position, clock, missing)
                return
            if missing:
                self.room.log(f"game turn {position.turn}: the deadline passed; {', '.join(missing)} play with "
                              "empty orders")
            turn = write_next_turn(position, "standing" if missing else "wait")
            if not self._play(position, turn):
                return

    def _play(self, position: Position, turn: Path, resumed: bool = False) -> bool:
        """Adjudicate a turn file and mail its reports; whether it was played. A turn file that
        cannot be played is removed, so that the game is not stuck on it, and the moderator told.
        An output folder of this turn, left by a pass stopped before the ledger, is replaced: the
        turn is not in the ledger, so nobody has seen it."""
        try:
            out, _ = play_turn(turn, self.render, force=True)
        except InputError as exc:
            turn.unlink(missing_ok=True)
            self.room.log(f"game turn {position.turn} could not be played; its turn file was removed: "
                          + "; ".join(str(p) for p in exc.problems))
            self.room.note("unplayable", turn=position.turn, problems=[str(p) for p in exc.problems])
            return False
        self.room.log(f"game turn {position.turn} played{' (begun by an earlier pass)' if resumed else ''}: "
                      f"{out.name}")
        self._mail_reports((read_ledger(self.game) or [])[-1])
        return True

    def _remind(self, position: Position, clock: dict[str, Any], missing: list[str]) -> None:
        """One reminder mail for the latest reminder time passed (never two in one pass), and a
        late notice once the deadline passed."""
        deadline = self.players.deadline
        started = datetime.fromisoformat(clock["started"])
        due = deadline.due(started)
        owing = {self.players.of_role(role).address: self.players.of_role(role) for role in missing}
        reached = [hours for hours in deadline.reminders if hours not in clock["reminded"]
                   and (at := deadline.reminder(started, hours)) is not None and at <= self.room.now < due]
        if reached:
            clock["reminded"] += reached
            hours = min(reached)
            for player in owing.values():
                roles = ", ".join(r for r in missing if r in player.roles)
                self.answers.mail(f"reminder|{position.turn}|{hours}|{player.address}", player,
                                  f"Reminder: orders for {roles} due {due:%a %d %b %H:%M} UTC",
                                  f"Game turn {position.turn} still needs valid orders for {roles}. They are due "
                                  f"{due:%A %d %B %H:%M} UTC.\n\n" + self._how_to_send(position, player))
        if self.room.now >= due and not clock["late"]:
            clock["late"] = True
            policy = "they will be played with empty orders and your standing orders" \
                if self.players.missing_orders == "standing" else "the game waits for them"
            for player in owing.values():
                roles = ", ".join(r for r in missing if r in player.roles)
                self.answers.mail(f"late|{position.turn}|{player.address}", player, f"Late: orders for {roles}",
                                  f"The orders for {roles} were due {due:%A %d %B %H:%M} UTC and are not in. After "
                                  f"{self.players.deadline.grace_hours} hours of grace {policy}.\n")
        self.room.save_turns()
        coming = [at for hours in deadline.reminders if (at := deadline.reminder(started, hours)) is not None]
        coming += [due] + ([deadline.late(started)] if self.players.missing_orders == "standing" else [])
        self.wake = min((at for at in coming if at > self.room.now), default=None)

    # -- the reports ------------------------------------------------------------------------------

    def _mail_reports(self, entry: dict[str, Any]) -> None:
        """Every player's mail of one played turn: the public report, their own private reports,
        who missed the deadline, and what the next turn awaits of them."""
        out = self.game / entry["output"]
        files = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}
        turn_doc = load_document(self.game / entry["turn_file"]).data
        orders = turn_doc["orders"] if isinstance(turn_doc["orders"], dict) else {entry["power"]: turn_doc["orders"]}
        missed = sorted(role for role, path in orders.items() if str(path).endswith(MISSED))
        after = current(self.game)
        if after.turn == entry["turn"] + 1:
            self._start_clock(after)  # the next turn's clock starts with the report that opens it
        following = self._whose_turn(after) if after.turn == entry["turn"] + 1 else ""
        subject = f"Game turn {entry['turn']} ({', '.join(orders)}) played"
        if after.awaited and after.turn == entry["turn"] + 1:
            subject += f": {', '.join(after.awaited)} to play by {self._due(after):%a %d %b %H:%M} UTC"
        preface = "".join(f"{role} sent no valid orders by the deadline and played with empty orders and its "
                          "standing orders.\n" for role in missed)
        preface += following + "\n" if following else ""
        inline, body_html = mail_html(files)
        for player in self.players.players:
            text = preface
            if after.turn == entry["turn"] + 1:
                text += self._on_file(after, player) + self._private(after, player)
                if any(role in after.awaited for role in player.roles):
                    text += "\n" + self._how_to_send(after, player)
            attachments = [("report.md", files["report.md"], "text/markdown"),
                           ("report.bbcode", files["report.bbcode"], "text/plain")]
            attachments += [(name, files[name], "text/html" if name.endswith(".html") else "text/markdown"
                             if name.endswith(".md") else "text/plain")
                            for role in player.roles for name in private_reports(role) if name in files]
            if after.turn == entry["turn"] + 1:
                attachments += self._position(after, player)
            page = body_html.replace("<body>", "<body>" + "".join(f"<p>{html.escape(line)}</p>"
                                                                    for line in text.splitlines() if line), 1)
            self.answers.mail(f"report|{entry['turn']}|{player.address}", player, subject,
                              text + "\n" + files["report.md"].decode("utf-8"), html=page,
                              attachments=attachments, inline=inline)
        self.room.note("reported", turn=entry["turn"])
        self.room.log(f"reports of game turn {entry['turn']} queued for {len(self.players.players)} players")

    def _on_file(self, position: Position, player: Player) -> str:
        """What this player's roles have on file for the turn that now begins: orders sent early
        are checked now."""
        lines = []
        for role in player.roles:
            if role not in position.awaited:
                continue
            if not versions(position, role):
                continue
            chosen, refused = latest_valid(position, role)
            if chosen is not None:
                lines.append(f"Your orders for {role} sent early ({chosen.name}) are valid and count for game "
                             f"turn {position.turn}.")
            else:
                lines.append(f"Your orders for {role} sent early are NOT valid for game turn {position.turn}: "
                             + "; ".join(str(p) for p in refused[0][1]))
        return "".join(f"{line}\n" for line in lines)


def mail_html(files: dict[str, bytes]) -> tuple[dict[str, bytes], str]:
    """The report's HTML for a mail: its images as inline parts (`cid:`), each once, and without
    the board viewer's script and image map, which no mail client runs."""
    page = files["report.html"].decode("utf-8")
    page = re.sub(r"<script\b.*?</script>", "", page, flags=re.S)
    page = re.sub(r"<map\b.*?</map>", "", page, flags=re.S)
    inline = {}
    if "map-forum.png" in files or "map.png" in files:
        inline["map"] = files.get("map-forum.png") or files["map.png"]
        page = re.sub(r'src="data:image/png;base64,[^"]*"', 'src="cid:map"', page, count=1)
    if "charts.png" in files:  # the page's charts are SVG, which few mail clients show
        inline["charts"] = files["charts.png"]
        page = re.sub(r'src="data:image/svg\+xml;base64,[^"]*"', 'src="cid:charts"', page, count=1)
    return inline, page



def mail_password(game: Path, players: Players, player: Player, password: str, kept: str) -> None:
    """Queue a player's new game password for the next pass (the outbox file holds it until sent,
    inside the game folder, which only the moderator reads)."""
    from datetime import datetime, timezone

    name, key = game_identity(game)
    room = Mailroom(game, datetime.now(timezone.utc).replace(tzinfo=None), key)
    Answers(name, players, room).mail(
        f"password|{kept}", player, "Your game password",
        f"Your game password for {name} is:\n\n    {password}\n\nPut the line 'password: {password}' above "
        "the orders in every mail you send to the game. Keep it to yourself: whoever knows it can send orders "
        "in your name.\n")
