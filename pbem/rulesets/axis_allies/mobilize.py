"""Phase 2 (purchase) and phase 6 (mobilize new units).

Units are placed at industrial complexes the power has controlled since the start of its turn, at
most the territory's IPC value per complex; ships go into a sea zone next to such a complex and
count against it; fighters may enter play aboard carriers placed in the same zone. A new complex
goes into a territory held since the start of the turn, worth at least 1 IPC, without one already.
Every unit bought must be placed: orders that buy a unit without a legal placement are refused.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.core.errors import choices
from pbem.core.yamlio import field_name

from pbem.rulesets.axis_allies.names import a
from pbem.rulesets.axis_allies.context import Turn
from pbem.rulesets.axis_allies.orders import Placement
from pbem.rulesets.axis_allies.research import research_cost
from pbem.rulesets.axis_allies.state import Unit


def check_purchase(turn: Turn) -> None:
    """The units bought and the research dice together must not cost more than the treasury."""
    if turn.skip_economy and turn.orders.purchase:
        turn.problem(("purchase",), f"{turn.power}'s capital is held by the enemy: no purchases until it is freed"
                                    + turn.cite("lost_capital_orders"))
        return
    for utype in turn.orders.purchase:
        if not turn.table[utype].buyable:
            turn.problem(("purchase", utype), f"{turn.words.unit(utype, 2)} cannot be bought in {turn.edition.name}",
                         ", ".join(t.id for t in turn.table.types.values() if t.buyable))
    cost = purchase_cost(turn)
    research = research_cost(turn)
    have = turn.pos.treasury.get(turn.power, 0)
    if cost + research > have:
        if cost and research:
            what = f"units {cost} IPCs and research dice {research} IPCs: {cost + research} IPCs in all"
        else:
            what = f"the {'units' if cost else 'research dice'} cost {cost + research} IPCs"
        where = ("purchase",) if turn.orders.purchase else ("research", "dice")
        unread = "" if turn.purchase_readable else ", counting only the units whose names could be read"
        turn.problem(where, f"{what}{unread}; {turn.board.power_names[turn.power]} has {have}",
                     f"{have} IPCs or less")


def purchase_cost(turn: Turn) -> int:
    """What the units bought cost: the unit table's prices, a unit with a price option (Europe's
    bomber_cost: the rulebook prints 25, the English chart 15) at the game's price."""
    units = dict(turn.orders.purchase)
    cost = 0
    for utype, n in units.items():
        option = f"{utype}_cost"
        if turn.edition.has_option(option):
            turn.ruling(option)
            cost += int(turn.opt(option)) * n
        else:
            cost += turn.table[utype].cost * n
    return cost


def purchase_units(turn: Turn) -> None:
    """Phase 2: pay for the units bought (they are placed in phase 6)."""
    if turn.skip_economy or not turn.orders.purchase:
        return
    cost = purchase_cost(turn)
    turn.pos.treasury[turn.power] -= cost
    turn.event("purchase", power=turn.power, units=dict(turn.orders.purchase), cost=cost,
               treasury_after=turn.pos.treasury[turn.power], order="purchase")


@dataclass
class Factory:
    """A complex the power may mobilize at this turn, and how much it may still produce."""

    territory: str
    limit: int
    used: int = 0
    ships: int = 0  # of those used, the units placed at sea next to it (ruling placement_limit)
    zones: list[str] = field(default_factory=list)
    rulings: tuple[str, ...] = ()  # the rulings that set its limit, logged once it places something

    @property
    def room(self) -> int:
        """How many more units the complex may still mobilize this turn."""
        return self.limit - self.used


@dataclass
class NewCarriers:
    """Fighters entering play aboard the carriers placed this turn, gathered over all placements,
    since a carrier and the fighters it takes aboard may be listed in different placements."""

    fighters: dict[str, int] = field(default_factory=dict)  # zone -> fighters going aboard there
    carriers: dict[str, int] = field(default_factory=dict)  # zone -> new carriers placed there
    boarded: set[int] = field(default_factory=set)  # ids of fighters from a complex's territory going aboard
    riders: dict[str, list[Unit]] = field(default_factory=dict)  # zone -> fighters to seat (in play)

    def seat(self, turn: Turn) -> None:
        """Put every rider aboard a carrier placed this turn in its zone, once all are placed."""
        for zone, riders in self.riders.items():
            carriers = [u for u in turn.pos.units_in(zone, owner=turn.power, type="carrier") if u.placed]
            for fighter in riders:
                seat = next((c for c in carriers if turn.pos.room_on(c) > 0), None)
                if seat is None:
                    break
                fighter.aboard = seat.id
                fighter.space = zone


def usable_complexes(turn: Turn) -> dict[str, Factory]:
    """Complexes the power controlled at the start of the turn and may use (not an ally's)."""
    b = turn.board
    result = {}
    for territory in b.sort_spaces(b.territories):
        if turn.start_control.get(territory) != turn.power:
            continue
        if not any(u.type == "industrial_complex" and not u.placed for u in turn.pos.units_in(territory)):
            continue
        if _allys_complex_barred(turn, territory):
            continue
        national, rulings = _national(turn, territory)
        zones = b.coastal_zones(territory)
        if turn.edition.rules.extra_placement.get(turn.power) == territory and turn.opt("canada_placement") == "land_and_air":
            zones = []  # l.817: land and air units only
        result[territory] = Factory(territory, UNLIMITED if national else b.ipc(territory), zones=zones,
                                    rulings=rulings)
    return result


UNLIMITED = 10 ** 6
"""The room of a complex without a placement limit (more than any purchase can be)."""


def _no_ships_by(turn: Turn, zone: str) -> str:
    """Why a zone next to the power's land-and-air-only complex (Europe's Canada) takes no ships."""
    territory = turn.edition.rules.extra_placement.get(turn.power)
    if territory is None or zone not in turn.board.coastal_zones(territory) or \
            turn.opt("canada_placement") != "land_and_air":
        return ""
    return f": {territory} takes only land and air units" + turn.cite("canada_placement", "l.817")


def _national(turn: Turn, territory: str) -> tuple[bool, tuple[str, ...]]:
    """Europe (l.813, l.903): whether a complex in the power's own national territory places without
    limit (by option axis_factories = limited only Germany's capital territory is German national
    territory), and the rulings that decide it."""
    if turn.edition.rules.placement_limit != "captured_complexes":
        return False, ()
    b = turn.board
    if b.territories[territory].original_owner != turn.power:
        return False, ("national_factory",)
    if b.side[turn.power] == "axis" and territory != b.capitals[turn.power]:
        return turn.opt("axis_factories") == "unlimited", ("national_factory", "axis_factories")
    return True, ("national_factory",)


def _allys_complex_barred(turn: Turn, territory: str) -> bool:
    """True for a complex in a territory an ally owned at the start of the game while that ally's
    capital is free: the liberator may use it only while the capital is in enemy hands (it may
    have been freed this very turn, and the territory with it)."""
    b = turn.board
    original = b.territories[territory].original_owner
    return (original not in (None, turn.power) and b.friendly(original, turn.power)
            and turn.pos.capital_held(original))


NO_COMPLEX = "you hold no complex you may mobilize at this turn"


def mobilize(turn: Turn) -> None:
    """Check (while checking) and carry out the placements of the orders."""
    orders = turn.orders
    if turn.skip_economy:
        if orders.placements and turn.checking:
            turn.problem(("place",), f"{turn.power}'s capital is held by the enemy: nothing was bought, nothing is "
                                     "placed" + turn.cite("lost_capital_orders"))
        return
    b, table = turn.board, turn.table
    factories = usable_complexes(turn)
    placed: dict[str, int] = {}
    new_complexes: set[str] = set()
    new_carriers = NewCarriers()
    for p in orders.placements:
        for utype, n in p.units.items():
            placed[utype] = placed.get(utype, 0) + n
        if b.is_land(p.at):
            _place_on_land(turn, p, factories, new_complexes)
        else:
            _place_at_sea(turn, p, factories, new_carriers)
    new_carriers.seat(turn)
    for zone, fighters in new_carriers.fighters.items():
        room = new_carriers.carriers.get(zone, 0) * (table["carrier"].capacity or 2)
        if fighters > room and turn.checking:
            turn.problem(("place",), f"{turn.words.units({'fighter': fighters})} would enter play aboard new carriers in "
                                     f"{zone}, which have room for {room}")
    _check_all_placed(turn, placed)


def _check_all_placed(turn: Turn, placed: dict[str, int]) -> None:
    """Every unit bought is placed exactly once (ruling unplaceable_units)."""
    if turn.checking and turn.purchase_readable:
        bought = turn.orders.purchase
        for utype in turn.table.sort_types(set(bought) | set(placed)):
            if bought.get(utype, 0) != placed.get(utype, 0):
                where = ("purchase", utype) if utype in bought else ("place",)
                turn.problem(where, f"{bought.get(utype, 0)} {turn.words.unit(utype, bought.get(utype, 0))} bought but "
                                    f"{placed.get(utype, 0)} placed: every unit bought must be placed exactly once"
                                    + turn.cite("unplaceable_units"), f"{bought.get(utype, 0)}")


def place_with_advance(turn: Turn) -> None:
    """Europe's set-up round (l.346, ruling cash_advance_placement): units bought with the cash
    advance go into any territory its side controls, or sea zone, where its side already has a unit;
    no complex is needed and there is no limit. Land and air units go on land, ships at sea."""
    b, table = turn.board, turn.table
    placed: dict[str, int] = {}
    if turn.orders.placements:
        turn.ruling("cash_advance_placement")
    for p in turn.orders.placements:
        for utype, n in p.units.items():  # a refused placement is reported once, not also as unplaced
            placed[utype] = placed.get(utype, 0) + n
        side_here = any(b.friendly(u.owner, turn.power) and not u.placed for u in turn.pos.units_in(p.at))
        if b.is_land(p.at) and not turn.friendly_territory_now(p.at):
            _bad(turn, p, ("at",), f"{p.at} is not held by {turn.power}'s side")
            continue
        if not side_here:
            _bad(turn, p, ("at",), f"{turn.power}'s side has no unit in {p.at}: units bought with the cash advance "
                                   "go where the side already has one (l.346)")
            continue
        wrong = [t for t in p.units if (table.cls(t) == "sea") != b.is_sea(p.at) or table.cls(t) == "building"]
        if wrong:
            _bad(turn, p, ("units", wrong[0]), f"{a(wrong[0])} cannot be placed in {p.at}: land and air units go "
                                               "into a territory, ships into a sea zone")
            continue
        if not turn.checking:
            _put(turn, p, dict(p.units))
    _check_all_placed(turn, placed)


def _place_on_land(turn: Turn, p: Placement, factories: dict[str, Factory], new_complexes: set[str]) -> None:
    b, table = turn.board, turn.table
    units = dict(p.units)
    if "industrial_complex" in units:
        n = units.pop("industrial_complex")
        ok = True
        if turn.start_control.get(p.at) != turn.power:
            ok = _bad(turn, p, ("units", "industrial_complex"),
                      f"a new complex goes only where {turn.power} has ruled since the start of the turn")
        elif b.ipc(p.at) < 1:
            ok = _bad(turn, p, ("units", "industrial_complex"), f"{p.at} is worth {b.ipc(p.at)} IPCs: a complex needs "
                                                             "a territory worth at least 1")
        elif n > 1 or p.at in new_complexes or turn.pos.units_in(p.at, type="industrial_complex"):
            ok = _bad(turn, p, ("units", "industrial_complex"), f"{p.at} would have more than one industrial complex")
        new_complexes.add(p.at)
        if ok and not turn.checking:
            turn.ruling("new_complex")
            _put(turn, p, {"industrial_complex": n})
    if not units:
        return
    for utype in units:
        if table.cls(utype) == "sea":
            _bad(turn, p, ("units", utype), f"{a(utype)} is placed in a sea zone next to the complex, not in {p.at}")
            return
    factory = factories.get(p.at)
    if factory is None:
        if p.at in new_complexes:
            why = "a complex placed this turn produces from your next turn" + turn.cite("new_complex")
        elif turn.pos.control.get(p.at) == turn.power != turn.start_control.get(p.at) and turn.pos.units_in(
                p.at, type="industrial_complex"):
            why = ("it has no complex you have held since the start of the turn: one taken this turn produces from "
                   "your next turn" + turn.cite("new_complex"))
        elif (turn.start_control.get(p.at) == turn.power and turn.pos.units_in(p.at, type="industrial_complex")
              and _allys_complex_barred(turn, p.at)):
            original = b.territories[p.at].original_owner
            why = (f"it is {original}'s original territory and {original}'s capital is not in enemy hands: "
                   f"only {original} may use its complex")
        else:
            why = "it has no complex you have held since the start of the turn"
        _bad(turn, p, ("at",), f"you cannot mobilize in {p.at}: {why}", choices(factories, NO_COMPLEX))
        return
    count = sum(units.values())
    if count > factory.room:
        ships = (f"; the {factory.ships} placed at sea next to it count{'s' if factory.ships == 1 else ''}"
                 + turn.cite("placement_limit"))
        _bad(turn, p, ("units",), f"the complex in {p.at} may mobilize {factory.limit} units a turn (its IPC value); "
                                  f"{factory.used} already placed there, {count} more asked"
                                  + (ships if factory.ships else "") + "".join(map(turn.cite, factory.rulings)),
             f"{factory.room} or fewer")
        return
    factory.used += count
    for name in factory.rulings:
        turn.ruling(name)
    if turn.edition.rules.extra_placement.get(turn.power) == p.at:
        turn.ruling("canada_placement")
    if not turn.checking:
        _put(turn, p, units)


def _place_at_sea(turn: Turn, p: Placement, factories: dict[str, Factory],
                  new_carriers: NewCarriers) -> None:
    table = turn.table
    units = dict(p.units)
    for utype in units:
        cls = table.cls(utype)
        if cls in ("land", "building") or utype == "bomber":
            _bad(turn, p, ("units", utype), f"{a(utype)} does not enter play at sea (land units and bombers are placed "
                                            "only in a territory with a complex)")
            return
    near = [f for f in factories.values() if p.at in f.zones]
    if p.via is not None:
        factory = factories.get(p.via)
        if factory is None or p.at not in factory.zones:
            _bad(turn, p, ("via",), f"{p.via} has no usable complex next to {p.at}",
                 choices((f.territory for f in near), f"no complex you may mobilize at borders {p.at}"))
            return
    else:
        if not near:
            _bad(turn, p, ("at",), f"{p.at} borders no complex you may mobilize at" + _no_ships_by(turn, p.at),
                 choices((z for f in factories.values() for z in f.zones), NO_COMPLEX))
            return
        count = sum(units.values())
        fitting = [f for f in near if f.room >= count]
        factory = fitting[0] if fitting else near[0]
        if len(near) > 1:
            turn.ruling("sea_placement_complex")
            turn.default(f"complex for the ships placed in {p.at}", factory.territory,
                         f"{p.at} borders several complexes ({', '.join(f.territory for f in near)}) and `via` was not given")
    count = sum(units.values())
    if count > factory.room:
        _bad(turn, p, ("units",), f"the complex in {factory.territory} may mobilize {factory.limit} units a turn; "
                                  f"{factory.used} already placed there, {count} more asked; units placed at sea next "
                                  "to it count" + turn.cite("placement_limit"), f"{factory.room} or fewer")
        return
    factory.used += count
    factory.ships += count
    for name in factory.rulings:
        turn.ruling(name)
    if units.get("fighter") or (p.aboard or 0):
        turn.ruling("placement_limit")
    new_fighters = units.get("fighter", 0)
    if (new_fighters or p.aboard) and not turn.edition.rules.fighters_on_new_carriers:
        _bad(turn, p, ("units", "fighter") if new_fighters else ("aboard",),
             f"in {turn.edition.name} new fighters do not enter play aboard carriers, not even new ones"
             + turn.cite("new_fighters_on_carriers", "l.809") + ": place them in a territory with a complex")
        return
    aboard = p.aboard if p.aboard is not None else new_fighters
    if aboard < new_fighters:
        _bad(turn, p, ("aboard",), "fighters enter play at sea only aboard new carriers", f"{new_fighters} or more")
        return
    boarding = aboard - new_fighters  # fighters already standing in the complex's territory
    new_carriers.fighters[p.at] = new_carriers.fighters.get(p.at, 0) + aboard
    new_carriers.carriers[p.at] = new_carriers.carriers.get(p.at, 0) + units.get("carrier", 0)
    # a fighter boards one carrier only: those taken by an earlier placement are no longer free
    existing = sorted((u for u in turn.pos.units_in(factory.territory, owner=turn.power, type="fighter")
                       if u.id not in new_carriers.boarded), key=lambda u: u.id)
    if boarding > len(existing):
        if turn.checking:
            _bad(turn, p, ("aboard",), f"{turn.words.units({'fighter': boarding})} from {factory.territory} would board, "
                                       f"{len(existing)} {'is' if len(existing) == 1 else 'are'} there",
                 f"{new_fighters + len(existing)} or fewer")
            return
        turn.default(f"fighters from {factory.territory} boarding new carriers in {p.at}", len(existing),
                     f"only {len(existing)} were there when the units were placed")
        boarding = len(existing)
    new_carriers.boarded.update(u.id for u in existing[:boarding])
    if turn.checking:
        return
    new = _put(turn, p, units)
    new_carriers.riders.setdefault(p.at, []).extend([u for u in new if u.type == "fighter"] + existing[:boarding])


def _put(turn: Turn, p: Placement, units: dict[str, int]) -> list[Unit]:
    space, new = p.at, []
    for utype in turn.table.sort_types(units):
        for _ in range(units[utype]):
            u = turn.pos.add(turn.power, utype, space)
            u.placed = True
            new.append(u)
    turn.event("place", power=turn.power, space=space, units={t: units[t] for t in turn.table.sort_types(units)},
               order=field_name(p.where))
    return new


def _bad(turn: Turn, p: Placement, sub: tuple, message: str, allowed: str | None = None) -> bool:
    """A placement refused: a problem while checking; in play (the position changed since) a skip with why."""
    if turn.checking:
        turn.problem(p.where + sub, message, allowed)
    else:
        turn.event("place_skipped", power=turn.power, space=p.at, units=dict(p.units), reason=message,
                   order=field_name(p.where))
    return False
