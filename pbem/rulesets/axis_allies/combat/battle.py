"""A battle's facts before its first die: the edition's combat rules (:class:`CombatRules`, and
:data:`KINDS`, where each unit type fights), the units on the battle board (:class:`Piece`), the
:class:`Battle` they stand in and the check that it can be fought (:func:`check_battle`), and the
pieces counted the way events and the state file list them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:  # for annotations only: battles are fought without the map or the unit table
    from pbem.rulesets.axis_allies.board import Board
    from pbem.rulesets.axis_allies.units import UnitTable

Roll = Callable[[int], list[int]]
"""The caller's dice: ``roll(n)`` returns n dice, each 1-6, from its verifiable dice stream."""

Side = Literal["attacker", "defender"]
Target = Literal["any", "air", "sea", "land", "not_submarine"]

KINDS: Mapping[str, str] = {
    "infantry": "land", "artillery": "land", "tank": "land", "aa_gun": "static", "industrial_complex": "static",
    "fighter": "air", "bomber": "air", "battleship": "sea", "destroyer": "sea", "carrier": "sea",
    "transport": "sea", "submarine": "sea",
}
"""The unit types of the Axis & Allies family and where each fights: ``static`` units (AA gun,
industrial complex) never stand on the battle board. Every edition's unit table agrees (a test
checks it); the numbers of the units are the edition's, in :class:`CombatRules`."""


@dataclass(frozen=True)
class UnitProfile:
    """The combat numbers of one unit type in an edition (its unit table)."""

    cost: int
    attack: int
    defence: int


@dataclass(frozen=True)
class CombatRules:
    """The facts of an edition that battles use, and the steps where editions differ.

    ``units`` is in unit-table order, which is also the order units roll in; ``cargo`` says what
    each carrying unit may have aboard (capacity is the movement rules' business);
    ``casualty_order`` is lost first to last by a power without an order of its own.
    """

    units: Mapping[str, UnitProfile]
    turn_order: tuple[str, ...]
    side_of: Mapping[str, str]
    cargo: Mapping[str, frozenset[str]]
    casualty_order: tuple[str, ...]
    # The steps where editions differ (edition.yaml, combat:); the defaults are Revised's.
    submarine_first_strike: Literal["both_sides", "attackers_only"] = "both_sides"
    """``attackers_only`` (Europe l.502-510): only attacking submarines open fire; defending
    submarines fire with the other defenders at step 5 (still only at sea units)."""
    submerge_instead_of_firing: bool = False
    """Europe (l.506, l.508): a submarine submerges at its own firing step instead of firing, even
    with an enemy destroyer present; Revised: at step 7, never with an enemy destroyer."""
    air_hits_on_submarines_need_destroyer: bool = False
    """Europe (l.1097): aircraft hits go to submarines only with a destroyer of their side in the
    zone; other hits are lost."""
    destroyers_bombard: bool = False
    """Europe (l.653): destroyers bombard without any development (Revised: combined_bombardment)."""
    bombarded_fire_back: bool = False
    """Europe (l.653-655): units hit by bombardment go to the casualty zone and fire back in round 1."""
    allied_ships_take_hits: bool = False
    """Europe (l.1103, example l.777): ships of the attacker's allies in an attacked sea zone do
    not fire but may take the defender's hits (the battle's ``bystanders``)."""
    stranded_fighters_lost_on_retreat: bool = False
    """Europe (l.1007): a fighter with no movement left in a sea battle is lost if the attacker
    retreats (the battle's ``stranded`` pieces)."""
    raid_escorts: bool = False
    """Fighters may escort a bombing raid and the defender's fighters intercept (Europe l.711-729)."""
    raid_cap_per_bomber: bool = True
    """Each bomber's raid damage is capped at the territory's IPC value (Revised); else only the
    victim's cash limits it (Europe l.731)."""

    @classmethod
    def of_edition(cls, table: UnitTable, board: Board, combat: Mapping[str, Any]) -> CombatRules:
        """The rules from an edition's unit table, board and the ``combat`` part of edition.yaml."""
        types = table.types.values()
        return cls(
            {u.id: UnitProfile(u.cost, u.attack, u.defense) for u in types}, tuple(board.powers),
            dict(board.side),
            {"transport": frozenset(u.id for u in types if u.transport_size),
             "carrier": frozenset(u.id for u in types if u.carrier_size)},
            tuple(combat["casualty_order"]), combat["submarine_first_strike"],
            combat["submerge_instead_of_firing"], combat["air_hits_on_submarines_need_destroyer"],
            combat["destroyers_bombard"], combat["bombarded_fire_back"], combat["allied_ships_take_hits"],
            combat["stranded_fighters_lost_on_retreat"], combat["raid_escorts"],
            combat["raid_damage_cap"] == "territory_value")

    def power_rank(self, power: str) -> int:
        """The power's place in the turn order."""
        return self.turn_order.index(power)


@dataclass(frozen=True)
class Piece:
    """One unit on the battle board.

    ``cargo`` holds what a transport or carrier carries (land units; cargo fighters): cargo never
    fights, cannot be chosen as a casualty and dies with its carrier.
    """

    id: int
    type: str
    owner: str
    damaged: bool = False
    cargo: tuple[Piece, ...] = ()

    @property
    def kind(self) -> str:
        """``land``, ``air`` or ``sea`` (``static`` for an AA gun carried as cargo)."""
        return KINDS[self.type]


@dataclass(frozen=True)
class Battle:
    """One battle: who stands where before step 1.

    ``aa_gun`` is the owner of the one defending AA gun that fires (land battles), or None.
    ``bombarding`` are the attacker's ships that bombard in round 1 of an amphibious land battle
    (battleships, and destroyers where the edition or combined_bombardment lets them); they are not
    on the battle board.
    ``amphibious`` marks both parts of an amphibious assault; in the land part attacking land
    units cannot retreat. ``bombardment_targets`` is the ruleset option ``land_units`` (literal
    reading: bombardment hits only land units) or ``any``. ``partial_retreat`` is the ruleset option
    ``subs_submerge`` (attacking submarines retreat only by submerging, [CZ p.15]) or
    ``subs_with_fleet``. ``aa_casualties`` is the Europe option (``attacker_chooses`` or
    ``defender_chooses``: whose casualty order picks the aircraft AA fire shoots down); None in an
    edition without it (the attacker picks). ``bystanders``: ships of the attacker's allies in
    the zone where the edition lets them take hits: they never fire, take the defender's hits only
    when none of the attacker's units may, and their destroyers let the attacker's aircraft hit
    submarines. ``stranded``: ids of attacking fighters with no movement left in a sea battle,
    lost if the attacker retreats (where the edition says so). ``rules``: the edition's facts and
    steps.
    """

    id: str
    space: str
    kind: Literal["land", "sea"]
    attacker: str
    attackers: tuple[Piece, ...]
    defenders: tuple[Piece, ...]
    aa_gun: str | None = None
    bombarding: tuple[Piece, ...] = ()
    amphibious: bool = False
    developments: Mapping[str, frozenset[str]] = field(default_factory=dict)
    bombardment_targets: Literal["land_units", "any"] = "land_units"
    partial_retreat: Literal["subs_submerge", "subs_with_fleet"] = "subs_submerge"
    aa_casualties: Literal["attacker_chooses", "defender_chooses"] | None = None
    bystanders: tuple[Piece, ...] = ()
    stranded: frozenset[int] = frozenset()
    rules: CombatRules = field(kw_only=True)

    def __post_init__(self) -> None:
        # Accept any sequences from callers but keep the battle immutable.
        for name in ("attackers", "defenders", "bombarding", "bystanders"):
            object.__setattr__(self, name, tuple(getattr(self, name)))

    def has(self, power: str, development: str) -> bool:
        """Whether ``power`` has ``development``."""
        return development in self.developments.get(power, frozenset())

    @property
    def event_kind(self) -> str:
        """The ``kind`` of the battle_start event: land, sea, amphibious_land or amphibious_sea."""
        return f"amphibious_{self.kind}" if self.amphibious else self.kind


def check_battle(battle: Battle) -> None:
    """Raise ValueError when ``battle`` cannot be fought as given."""
    problems = []
    if battle.kind not in ("land", "sea"):
        problems.append(f"kind must be land or sea, not {battle.kind!r}")
    if not battle.attackers:
        problems.append("a battle needs attacking units")
    allowed = {"land": {"land", "air"}, "sea": {"sea", "air"}}.get(battle.kind, set())
    everything = [q for p in (*battle.attackers, *battle.defenders, *battle.bombarding, *battle.bystanders)
                  for q in (p, *p.cargo)]
    for piece in everything:
        if piece.type not in battle.rules.units or piece.owner not in battle.rules.side_of:
            problems.append(f"unknown unit type or power: {piece.type} of {piece.owner}")
    if problems:
        raise ValueError("; ".join(problems))
    ids = [p.id for p in everything]
    if len(ids) != len(set(ids)):
        problems.append("piece ids must be unique")
    for piece in (*battle.attackers, *battle.defenders):
        if piece.kind not in allowed:
            problems.append(f"a {piece.type} cannot fight in a {battle.kind} battle")
        if any(c.type not in battle.rules.cargo.get(piece.type, ()) or c.cargo for c in piece.cargo):
            problems.append(f"a {piece.type} cannot carry that cargo")
        if piece.damaged and piece.type != "battleship":
            problems.append(f"only battleships can be damaged, not a {piece.type}")
    if battle.stranded and (not battle.rules.stranded_fighters_lost_on_retreat or battle.kind != "sea"
                            or not battle.stranded <= {p.id for p in battle.attackers if p.type == "fighter"}):
        problems.append("only attacking fighters in a sea battle are stranded, where the edition says so")
    if any(p.owner != battle.attacker for p in battle.attackers + battle.bombarding):
        problems.append(f"all attacking units must be {battle.attacker}'s (allies never attack together)")
    side_of = battle.rules.side_of
    if any(side_of[p.owner] == side_of[battle.attacker] for p in battle.defenders):
        problems.append("defenders must be enemies of the attacker")
    for ship in battle.bystanders:
        if (not battle.rules.allied_ships_take_hits or battle.kind != "sea" or ship.kind != "sea"
                or ship.owner == battle.attacker or side_of[ship.owner] != side_of[battle.attacker]):
            problems.append("only the attacker's allies' ships stand by in a sea battle, where the edition says so")
    if battle.aa_gun is not None and (battle.kind != "land" or side_of[battle.aa_gun] == side_of[battle.attacker]):
        problems.append("only an enemy AA gun in a land battle fires")
    for ship in battle.bombarding:
        if not (battle.kind == "land" and battle.amphibious):
            problems.append("ships bombard only in the land part of an amphibious assault")
        if ship.type not in ("battleship", "destroyer") or (ship.type == "destroyer" and not (
                battle.rules.destroyers_bombard or battle.has(battle.attacker, "combined_bombardment"))):
            problems.append(f"a {ship.type} cannot bombard")
    if problems:
        raise ValueError("; ".join(dict.fromkeys(problems)))


def make_pieces(rules: CombatRules, units: Mapping[str, Mapping[str, int]], first_id: int = 1) -> list[Piece]:
    """Pieces from ``{power: {type: n}}`` with consecutive ids from ``first_id``, in turn order
    and unit-table order (the way the state file lists units)."""
    pieces = []
    table = list(rules.units)
    for power in sorted(units, key=rules.power_rank):
        for unit in sorted(units[power], key=table.index):
            for _ in range(units[power][unit]):
                pieces.append(Piece(first_id + len(pieces), unit, power))
    return pieces


def by_power(rules: CombatRules, pieces: Iterable[Piece]) -> dict[str, Counter[str]]:
    """The pieces' types counted per power, the powers in turn order."""
    counts: dict[str, Counter[str]] = {}
    for piece in pieces:
        counts.setdefault(piece.owner, Counter())[piece.type] += 1
    return {power: counts[power] for power in rules.turn_order if power in counts}


def count_units(rules: CombatRules, pieces: Iterable[Piece]) -> dict[str, int]:
    """``{type: n}`` in unit-table order."""
    counts = Counter(p.type for p in pieces)
    return {unit: counts[unit] for unit in rules.units if counts[unit]}


def count_by_power(rules: CombatRules, pieces: Iterable[Piece]) -> dict[str, dict[str, int]]:
    """``{power: {type: n}}`` in turn order and unit-table order."""
    pieces = list(pieces)
    return {power: count_units(rules, (p for p in pieces if p.owner == power))
            for power in rules.turn_order if any(p.owner == power for p in pieces)}
