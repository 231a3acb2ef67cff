"""The orders a battle is fought with, given before its first die so that nobody is asked during
it: each power's casualty order (:class:`CasualtyOrder`), when its submarines submerge and how
allied defenders share hits (:class:`PowerOrders`), when the attacker retreats
(:class:`RetreatRule`), and all of them for one battle (:class:`BattleOrders`). They map one to one
to the battle decisions and standing orders of the schemas.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from pbem.rulesets.axis_allies.combat.battle import KINDS

SubmergePolicy = Literal["never", "always", "when_alone"]
SharedCasualties = Literal["own_first", "allies_first", "cheapest_first"]


Entry = str | tuple[str, int]
"""One entry of a casualty order: a unit type (all its units left) or ``(type, count)`` (up to
``count`` units of the type, counted over the whole battle)."""


@dataclass(frozen=True)
class CasualtyOrder:
    """A power's casualty priority: entries, the first lost first.

    A bare type takes all the units of the type not taken by an earlier entry; a counted entry
    ``(type, n)`` takes the next ``n`` of them, counting the units of the type the battle has
    already cost the side, so ``(("tank", 1), "infantry", "tank")`` loses one tank, then the
    infantry, then the other tanks. Units not taken by any entry are lost after the listed ones,
    in the edition's default order (all of them when ``types`` is empty).
    ``damage_battleships_first``: an undamaged battleship takes a hit before anything dies.
    ``keep_land_unit``: an attacker in a land battle loses aircraft before its last unit that can
    take the territory. ``label`` names the order in casualties events.
    """

    types: tuple[Entry, ...] = ()
    damage_battleships_first: bool = True
    keep_land_unit: bool = True
    label: str = "default order (cheapest first)"

    places: Mapping[str, tuple[tuple[int, int | None], ...]] = field(init=False, repr=False, compare=False)
    """Each listed type's entries as (position, count), count None for a bare type."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "types", tuple(self.types))
        places: dict[str, list[tuple[int, int | None]]] = {}
        for position, entry in enumerate(self.types):
            unit, count = (entry, None) if isinstance(entry, str) else entry
            places.setdefault(unit, []).append((position, count))
        unknown = [t for t in places if t not in KINDS]
        if unknown:
            raise ValueError(f"casualty order names unknown unit types: {', '.join(unknown)}")
        object.__setattr__(self, "places", {unit: tuple(p) for unit, p in places.items()})

    @property
    def counted(self) -> bool:
        """Whether an entry counts units (then a unit's place depends on the side's losses so far)."""
        return any(isinstance(e, tuple) for e in self.types)

    def rank(self, unit: str, default: Sequence[str], lost_before: int = 0) -> int:
        """Position of ``unit`` in this order (listed entries first, then the ``default`` order),
        when ``lost_before`` units of its type are lost before it in the battle."""
        for position, count in self.places.get(unit, ()):
            if count is None or lost_before < count:
                return position
            lost_before -= count
        return len(self.types) + list(default).index(unit)


DEFAULT_ORDER = CasualtyOrder()


@dataclass(frozen=True)
class PowerOrders:
    """One power's standing decisions for a battle."""

    casualties: CasualtyOrder = DEFAULT_ORDER
    submerge: SubmergePolicy = "never"
    """``always``: at every step 7 where it may; ``when_alone``: when submarines are the only units
    of its side left that can fire."""
    shared_casualties: SharedCasualties = "cheapest_first"
    """Defenders only: how this power wants hits shared with allied defenders."""


@dataclass(frozen=True)
class RetreatRule:
    """When the attacker retreats at step 7 (any condition met; default never).

    ``after_round``: at the step 7 of that round or later; ``below_units``: when fewer attacking
    units than this are left on the board; ``when_weaker``: when the attackers' firepower (sum of
    the values of all their dice) is below the defenders'. ``to`` is only passed on to the event.
    """

    after_round: int | None = None
    below_units: int | None = None
    when_weaker: bool = False
    to: str | None = None


@dataclass(frozen=True)
class BattleOrders:
    """All decisions needed to fight a battle without asking anyone.

    ``defenders`` maps a defending power to its orders (missing powers use the defaults).
    ``enemy_casualties`` is the order the attacker picks allied defenders' casualties in when they
    do not agree (default: the default order, so that the attacker gains nothing by default).
    """

    attacker: PowerOrders = PowerOrders()
    defenders: Mapping[str, PowerOrders] = field(default_factory=dict)
    retreat: RetreatRule = RetreatRule()
    enemy_casualties: CasualtyOrder = CasualtyOrder(label="pick of the defenders' losses, cheapest first")

    def for_defender(self, power: str) -> PowerOrders:
        """The orders of a defending power (defaults when it gave none)."""
        return self.defenders.get(power, PowerOrders())
