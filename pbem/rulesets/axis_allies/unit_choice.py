"""Which units a move takes.

A move names how many units of each type go from a space. Those that can go are the mover's units
there that may still move in this phase (not placed this turn, not given another move, and in the
noncombat move none that moved or fought in the combat move, but aircraft coming back, transports
that fought loading or unloading in place and carriers making a declared pick-up). Of those, the
move takes the ones with the most movement left (aircraft: the least that still covers the path),
then transports and carriers with the least aboard (to unload, the most), then the lowest ids. In the
noncombat move as played, a move whose units were lost in battle or to AA fire goes ahead with the
survivors. In Europe any Ally may move the AA guns of a Middle East country its side holds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from pbem.core.yamlio import field_name
from pbem.rulesets.axis_allies.context import Turn
from pbem.rulesets.axis_allies.move_plan import Error, is_air
from pbem.rulesets.axis_allies.orders import Move
from pbem.rulesets.axis_allies.state import Unit


def can_move_now(turn: Turn, u: Unit, phase: str) -> bool:
    """Whether a unit may be given a move at all in this phase (the finer rules come later)."""
    if u.placed:
        return False
    if phase == "combat":
        return not u.moved and not u.fought
    if u.moved_noncombat:
        return False
    if is_air(turn, u):
        return True  # aircraft that moved or fought make their landing move now
    if u.type == "transport":
        # one that did not move in the combat move may move; one that fought (and did not retreat)
        # may still load or unload in place, even if it moved into its battle
        return not u.moved or (u.fought and not u.retreated)
    if u.type == "carrier" and not u.moved:
        return True  # a carrier that fought may still make a declared pick-up
    return not u.used


def pick_units(turn: Turn, move: Move, phase: str, taken: dict[int, Move], errors: list[Error],
               missing: dict[str, int]) -> list[Unit]:
    """The pieces a move takes: for each type, the units that can move, least used first. In play, a
    noncombat move takes what survives of the units it names; `missing` gets {type: n} of the lost."""
    chosen: list[Unit] = []
    for utype, n in move.units.items():
        where = move.where + ("units", utype)
        cls = turn.table.cls(utype)
        if cls == "building":
            errors.append((where, "an industrial complex never moves", None))
            continue
        if utype == "aa_gun" and move.frm in turn.captured and turn.edition.rules.captured_aa_guns_stay:
            errors.append((where, f"{move.frm} was captured this turn: its AA guns do not move until the next turn"
                                  + turn.cite("aa_gun_captured_territory", "l.785, l.869"), None))
            continue
        candidates = _movable(turn, move, utype, phase, taken, n + 1)
        if (len(candidates) > n
                and _pick_key(turn, candidates[n - 1], move)[:2] != _pick_key(turn, candidates[n], move)[:2]):
            turn.ruling("unit_choice")  # the units left behind differ from those that go
        if len(candidates) < n:
            present = len(_present(turn, move, utype))
            if _survivors_move(turn, phase, present, candidates):
                # the orders passed the check with all n; the others were lost in this turn's battles
                missing[utype] = n - present
                n = present
        if len(candidates) < n:
            gone = _gone(turn, move, utype, phase, taken)
            if gone and present + gone >= n:
                errors.append((where, f"only {len(candidates)} of your {present + gone} {utype} in {move.frm} "
                                      "can move: the others are used by an earlier move", f"at most {len(candidates)}"))
                continue
            if present == 0:
                message = _none_here(turn, move, utype, phase)
            elif present < n:
                message = f"you have only {present} {utype} in {move.frm}"
            elif move.cargo is not None and utype in ("transport", "carrier"):
                message = f"only {len(candidates)} {utype} in {move.frm} carry exactly {move.cargo} and can move"
            else:
                others = "already moved or fought" if phase == "noncombat" else "are used by an earlier move"
                message = (f"only {len(candidates)} of your {present} {utype} in {move.frm} can move: "
                           f"the others {others}")
            errors.append((where, message, f"at most {len(candidates)}"))
            continue
        if cls == "air" and any(u.movement_left < len(move.path) for u in candidates[:n]):
            conflict = _reach_taken(turn, move, utype, taken)
            if conflict is not None:
                errors.append(conflict)
                continue
        chosen += candidates[:n]
    if missing and not chosen and not errors:
        # nothing named is left: the move is skipped
        errors += [(move.where + ("units", t), f"no {t} of yours is left in {move.frm} (lost in battle or to AA fire)",
                    "at most 0") for t in missing]
    return chosen


def _none_here(turn: Turn, move: Move, utype: str, phase: str) -> str:
    """Why a move finds no unit of a type to take, naming the rule when units were there."""
    pos = turn.pos
    if utype == "aa_gun" and pos.aa_guns_moved.get(move.frm) and middle_east_guns(turn, move.frm) == []:
        return (f"the AA guns in {move.frm} moved this round already: a Middle East country's AA gun moves once a "
                "game round, by whichever Ally (l.869-871)")
    went = [u for u in pos.all_units() if u.owner == turn.power and u.type == utype and u.start_space == move.frm
            and u.moved]
    if went and phase == "noncombat":
        return (f"your {utype} that began in {move.frm} moved in the combat move: units that moved or fought stay "
                "where their battle leaves them in the noncombat move, a retreat included")
    bringing = next((m for m in turn.refused if m.to == move.frm and utype in m.units
                     or m.unload == move.frm and any(utype in load.units for load in m.load)), None)
    if bringing is not None:
        fate = "refused" if turn.checking else "not carried out"
        return f"{field_name(bringing.where)} was {fate}, so you have no {utype} in {move.frm}"
    return f"you have no {utype} in {move.frm}"


def _gone(turn: Turn, move: Move, utype: str, phase: str, taken: dict[int, Move]) -> int:
    """How many units of a type that began the turn in the move's space earlier moves took away.
    It changes only when `taken` grows: a file of thousands of moves that all ask for more units than
    remain counts once."""
    key = (phase, move.frm, utype)
    known = turn.gone_counts.get(key)
    if known is None or known[0] != len(taken):
        count = sum(1 for uid in taken if (u := turn.pos.units.get(uid)) is not None and u.type == utype
                    and u.start_space == move.frm and u.space != move.frm)
        known = turn.gone_counts[key] = (len(taken), count)
    return known[1]


def middle_east_guns(turn: Turn, space: str) -> list[Unit]:
    """Europe (l.869-871): the AA guns in a Middle East country held by the mover's side that any
    Ally may move, less those that already moved this round; none where the rule does not apply."""
    b, pos = turn.board, turn.pos
    if not (turn.edition.rules.middle_east_aa_guns and b.is_land(space) and b.territories[space].middle_east
            and turn.friendly_territory_now(space)):
        return []
    guns = sorted((u for u in pos.units_in(space, type="aa_gun") if b.friendly(u.owner, turn.power)),
                  key=lambda u: (u.owner != turn.power, u.id))
    return guns[:max(0, len(guns) - pos.aa_guns_moved.get(space, 0))]


def _present(turn: Turn, move: Move, utype: str) -> list[Unit]:
    """The mover's units of a type in the move's space, in id order: in a sea zone its land units are
    cargo, in a territory only those not aboard anything."""
    guns = middle_east_guns(turn, move.frm) if utype == "aa_gun" else []
    if guns:
        return guns
    units = turn.pos.units_in(move.frm, owner=turn.power, type=utype, include_cargo=True)
    if turn.table.cls(utype) == "land":
        at_sea = turn.board.is_sea(move.frm)
        units = [u for u in units if (u.aboard is not None) == at_sea]
    return units


def _free(turn: Turn, u: Unit, phase: str, taken: dict[int, Move]) -> bool:
    """Whether a unit of the move's space may still be given this move."""
    return u.id not in taken and can_move_now(turn, u, phase)


@dataclass
class PickQueue:
    """A space's units of one type with the same movement left, in id order, for one phase. A unit
    that stops being free never becomes free again in the same phase (it moved, fought, was lost or
    was taken by a move), so the queue only ever drops units at its head."""

    units: list[Unit]
    head: int = 0

    def take(self, free: Callable[[Unit], bool], most: int, into: list[Unit]) -> None:
        """Add the free units, in order, to `into` until it holds `most`."""
        i = self.head
        while i < len(self.units) and len(into) < most:
            if free(self.units[i]):
                into.append(self.units[i])
            elif i == self.head:
                self.head += 1
            i += 1


def _movable(turn: Turn, move: Move, utype: str, phase: str, taken: dict[int, Move], most: int) -> list[Unit]:
    """The units of a type that can make this move, best first; at least the first `most` of them.

    Carrying ships are ranked by their cargo, which changes within a phase: they are sorted afresh.
    Other units rank by their movement left and then id, so each space keeps, per type and movement,
    a queue for the phase, and a file of thousands of moves from one space does not sort the space
    for each. A unit that comes into the space may be free (cargo of a transport that moved): the
    queues of that space are then built again."""
    if turn.table[utype].capacity:
        units = [u for u in _present(turn, move, utype) if _free(turn, u, phase, taken)]
        if move.cargo is not None:
            units = [u for u in units if _cargo_counts(turn, u) == move.cargo]
        return sorted(units, key=lambda u: _pick_key(turn, u, move))
    key = (phase, move.frm, utype)
    arrivals = turn.pos.index.arrivals.get(move.frm, 0)
    built = turn.pick_queues.get(key)
    if built is None or built[0] != arrivals:
        queues: dict[int, PickQueue] = {}
        for u in _present(turn, move, utype):
            queues.setdefault(u.movement_left, PickQueue([])).units.append(u)
        built = turn.pick_queues[key] = (arrivals, queues)
    queues = built[1]
    result: list[Unit] = []
    for left in sorted(queues, key=lambda m: _movement_rank(turn, utype, m, move)):
        queues[left].take(lambda u: u.space == move.frm and u.id in turn.pos.units and _free(turn, u, phase, taken),
                          most, result)
    return result


def _survivors_move(turn: Turn, phase: str, present: int, candidates: list[Unit]) -> bool:
    """Whether a noncombat move being played goes ahead without some of the units it names: it does
    when they were lost in battle (or to AA fire) and every survivor can still move."""
    return not turn.checking and phase == "noncombat" and present == len(candidates)


def _cargo_counts(turn: Turn, carrier: Unit) -> dict[str, int]:
    return turn.counts(turn.pos.cargo_of(carrier))


def _pick_key(turn: Turn, u: Unit, move: Move) -> tuple:
    aboard = len(turn.pos.cargo_of(u)) if u.type in ("transport", "carrier") else 0
    # a transport asked to unload (and not to load) should be one that carries something
    cargo_pref = -aboard if (move.unload and not move.load) else aboard
    return (_movement_rank(turn, u.type, u.movement_left, move), cargo_pref, u.id)


def _movement_rank(turn: Turn, utype: str, left: int, move: Move) -> tuple[bool, int]:
    """Which units a move takes first by their movement left: the most, but for aircraft the least
    that still covers the path (taking the closest fit never spoils a set of landing moves that can
    all be flown, in whatever order they are listed)."""
    if turn.table.cls(utype) == "air":
        short = left < len(move.path)
        return (short, -left if short else left)
    return (False, -left)


def _reach_taken(turn: Turn, move: Move, utype: str, taken: dict[int, Move]) -> Error | None:
    """When the aircraft of this type left in the move's space cannot fly its path but earlier moves
    took some that could: a problem naming those moves."""
    need = len(move.path)
    takers = []
    for uid, other in taken.items():
        u = turn.pos.units.get(uid)
        if (u is not None and u.type == utype and other.frm == move.frm and other is not move
                and u.movement_left + len(other.path) >= need):
            takers.append(field_name(other.where))
    if not takers:
        return None
    return (move.where + ("path",), f"the {utype}s in {move.frm} with the {need} spaces of movement this path needs "
                                    f"are taken by {', '.join(dict.fromkeys(takers))}", None)
