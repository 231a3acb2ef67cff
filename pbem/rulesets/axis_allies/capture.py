"""Taking territory: control markers, liberation, capitals and their treasuries, AA guns and complexes.

Control changes at once (a blitzed territory during the move, a conquered one as its battle ends),
and with it the national production level, since that is computed from control. AA guns and
industrial complexes are never destroyed: they belong to whoever controls their territory.
"""

from __future__ import annotations

from pbem.rulesets.axis_allies.context import Turn

CAPTURED_WITH_TERRITORY = ("aa_gun", "industrial_complex")


def new_controller(turn: Turn, territory: str, by: str) -> tuple[str, bool]:
    """Who controls `territory` after `by` takes it, and whether that is a liberation.

    A territory that an ally owned at the start of the game goes back to that ally (liberation),
    unless the ally's capital is in enemy hands: then the liberator keeps it until the capital is
    freed. Liberating the ally's capital itself always returns it.
    """
    b = turn.board
    t = b.territories[territory]
    original = t.original_owner
    if original is None or original == by or not b.friendly(original, by):
        return by, False
    if t.middle_east:
        turn.ruling("liberation")  # Europe: a Middle East country goes back to its owner, its capital held or not
        return original, True
    if t.capital == original or turn.pos.capital_held(original):
        return original, True
    turn.ruling("liberation")
    return by, False


def set_control(turn: Turn, territory: str, power: str) -> None:
    """Put the control marker of `power` on `territory`; its AA guns and complex change hands too."""
    turn.pos.control[territory] = power
    for u in turn.pos.units_in(territory):
        if u.type in CAPTURED_WITH_TERRITORY:
            u.owner = power


def take_territory(turn: Turn, territory: str, by: str) -> str:
    """`by` conquers `territory`: control, liberation, capital plunder; returns the new controller."""
    b, pos = turn.board, turn.pos
    old = pos.control.get(territory)
    new, liberated = new_controller(turn, territory, by)
    if old is not None and b.territories[territory].original_owner == by and old != by:
        turn.ruling("liberation")
    set_control(turn, territory, new)
    turn.captured.add(territory)
    if liberated:
        turn.liberated.add(territory)
    turn.event("capture", space=territory, **{"from": old}, to=new, ipc=b.ipc(territory),
               liberated=liberated, by=by)
    capital_of = b.territories[territory].capital
    if capital_of is not None and old is not None and b.enemies(capital_of, by):
        # the conqueror takes every unspent IPC of the power whose capital fell
        amount = pos.treasury.get(capital_of, 0)
        pos.treasury[capital_of] = 0
        pos.treasury[by] = pos.treasury.get(by, 0) + amount
        turn.event("plunder", power=by, **{"from": capital_of}, ipc=amount)
    if capital_of is not None and new == capital_of:
        # the capital is free again, whether its owner or an ally freed it
        _restore_liberated_power(turn, capital_of, by)
    return new


def _restore_liberated_power(turn: Turn, power: str, by: str) -> None:
    """A freed capital: every territory the power owned at the start that its allies hold goes back
    ([CZ p.16] [HR]: 'if this power or another power on its side liberates the capital')."""
    b, pos = turn.board, turn.pos
    for territory in b.sort_spaces(t for t in pos.control if t in b.territories):  # not convoy centres
        holder = pos.control[territory]
        if b.territories[territory].original_owner == power and holder != power and b.friendly(holder, power):
            set_control(turn, territory, power)
            turn.event("capture", space=territory, **{"from": holder}, to=power, ipc=b.ipc(territory),
                       liberated=True, by=by)
