"""Where an attacker may retreat from a battle: to an adjacent friendly space from which attackers
came, in Europe only to a territory held at the start of the turn (option retreat_destination)."""

from __future__ import annotations

from pbem.rulesets.axis_allies.context import Turn


def only_aircraft_leave(turn: Turn, space: str) -> bool:
    """True when a retreat from `space` can only ever move aircraft: every attacker that moved there
    is an aircraft. Cargo landing in an amphibious assault is still aboard when the orders are
    checked, so land units that came overland to such a battle need a `to`: by both rulebooks the
    land part of an assault begins with the landing, and if nothing lands (the landing is cancelled
    or blocked) theirs is an ordinary land battle that they may leave."""
    return all(turn.table.cls(u.type) == "air" for u in turn.pos.all_units()
               if u.owner == turn.power and u.space == space and u.moved)


def retreat_options(turn: Turn, space: str) -> list[str]:
    """Adjacent friendly spaces from which at least one attacker came (the space before the battle)."""
    b = turn.board
    came_from = set()
    for u in turn.pos.all_units():
        if u.owner != turn.power or u.space != space or not u.moved or turn.table.cls(u.type) == "air":
            continue
        came_from.add(u.path[-2] if len(u.path) >= 2 else u.start_space)
    result = []
    for s in b.sort_spaces(came_from):
        if not b.adjacent(s, space):
            continue
        friendly = turn.friendly_territory_now(s) if b.is_land(s) else not turn.hostile_zone_now(s)
        if friendly and b.is_land(s) and turn.edition.has_option("retreat_destination"):
            friendly = _held_at_start_for_retreat(turn, s)
        # while checking, a space attacked this turn may be friendly by the time of the retreat
        if friendly or (turn.checking and s in turn.battle_spaces):
            result.append(s)
    return result


def held_clause(turn: Turn) -> str:
    """What else a retreat's territory must be, in words (Europe: held at the start of the turn)."""
    if not turn.edition.has_option("retreat_destination"):
        return ""
    power = turn.words.power(turn.power)
    who = f"the {power}" if turn.opt("retreat_destination") == "attacker_held" else f"the {power}'s side"
    return f" (a territory: one held by {who} at the start of the turn, l.478)"


def _held_at_start_for_retreat(turn: Turn, territory: str) -> bool:
    """Europe (l.478): land units retreat only to a territory the attacker controlled at the start
    of its turn (option retreat_destination: the power itself, or its side)."""
    turn.ruling("retreat_destination")
    holder = turn.start_control.get(territory)
    if turn.opt("retreat_destination") == "attacker_held":
        return holder == turn.power
    return turn.friendly_at_start(territory)
