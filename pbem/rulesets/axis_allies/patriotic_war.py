"""Europe's Patriotic War (l.791-805): at the end of its noncombat move the USSR may take over
British and American units standing in Soviet territory (red or pink on the map), whoever holds the
territory now. They become Soviet for good; the moves of the turn are over, so they do not move
before the next Soviet turn."""

from __future__ import annotations

from pbem.core.yamlio import field_name

from pbem.rulesets.axis_allies.context import Turn


def take_over(turn: Turn) -> None:
    """Check (while checking) and carry out the orders' `patriotic_war` entries."""
    rule = turn.edition.rules.takeover
    entries = turn.orders.patriotic_war
    if not entries:
        return
    if turn.power != rule["by"]:
        for e in entries:
            turn.problem(e.where, f"only the {turn.words.power(rule['by'])} takes over allied units (the Patriotic War, "
                                    "l.797)")
        return
    turn.ruling("patriotic_war")
    b = turn.board
    for e in entries:
        if e.power not in rule["from"]:
            turn.problem(e.where + ("power",), "the Patriotic War takes over units of "
                         f"{' and '.join(turn.words.power(p) for p in rule['from'])} only",
                         ", ".join(rule["from"]))
            continue
        if not b.is_land(e.territory) or b.territories[e.territory].soviet is None:
            turn.problem(e.where + ("territory",), f"{e.territory} is not Soviet territory (red or pink on the map)",
                         ", ".join(t for t in b.sort_spaces(b.territories) if b.territories[t].soviet))
            continue
        taken = []
        for utype, n in e.units.items():
            there = [u for u in turn.pos.units_in(e.territory, owner=e.power, type=utype) if u.aboard is None]
            if turn.table.cls(utype) == "building":
                movable = sorted({u.type for u in turn.pos.units_in(e.territory, owner=e.power)
                                  if u.aboard is None and turn.table.cls(u.type) != "building"})
                turn.problem(e.where + ("units", utype), f"the Patriotic War takes over units, not "
                             f"{turn.words.unit(utype, 2)}, which belong to the territory (l.797)",
                             ", ".join(movable) or "none: no unit of that power stands there")
                continue
            if len(there) < n:
                turn.problem(e.where + ("units", utype), f"{turn.words.power(e.power)} has {len(there)} "
                                                         f"{turn.words.unit(utype, len(there))} "
                                                         f"in {e.territory} that can be taken over", f"at most {len(there)}")
                continue
            taken += sorted(there, key=lambda u: u.id)[:n]
        if turn.checking or not taken:
            continue
        for u in taken:
            u.owner = turn.power
            u.moved_noncombat = True  # it may not move again this turn
        turn.event("patriotic_war", power=turn.power, territory=e.territory, **{"from": e.power},
                   units=turn.counts(taken), order=field_name(e.where))
