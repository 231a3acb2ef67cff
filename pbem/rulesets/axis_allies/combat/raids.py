"""Strategic bombing raids and rocket strikes, fought outside any battle: the AA gun fires once
at every raider, intercepting fighters and escorts fight one round of an air battle where the
edition has them, the surviving bombers roll their damage (capped per bomber where the edition
says so) and the victim pays what it can; an AA gun's rocket strike rolls one die, capped at the
territory's IPC value.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from pbem.rulesets.axis_allies.combat.battle import Piece, Roll
from pbem.rulesets.axis_allies.combat.casualties import CasualtyPolicy, take_casualties

# In a raid's air battle fighters fight weaker than in a land battle: interceptors hit on 2 or less,
# escorts on 1 (seed l.723, l.725).
INTERCEPTOR_HITS_ON = 2
ESCORT_HITS_ON = 1


@dataclass(frozen=True)
class RaidResult:
    """The outcome of a strategic bombing raid."""

    shot_down: tuple[Piece, ...]
    """Raiders lost: to the AA gun, then to the interceptors."""
    survivors: tuple[Piece, ...]
    """The bombers left to drop their bombs."""
    damage: int
    """IPC damage after the per-bomber cap, if the edition has one."""
    paid: int
    """What the victim actually pays: the damage, or its whole treasury if that is less."""
    events: tuple[dict, ...]
    interceptors_lost: tuple[Piece, ...] = ()


@dataclass(frozen=True)
class RaidChoices:
    """Who picks the losses in a raid with escorts or interceptors.

    ``aa``: the raiders the AA gun's hits remove (option ``aa_casualties``); ``raiders``: the raiders
    the interceptors' hits remove (the attacker's choice, l.727); ``interceptors``: the interceptors
    the escorts' hits remove (ruling ``escort_hit_choice``)."""

    aa: CasualtyPolicy
    raiders: CasualtyPolicy
    interceptors: CasualtyPolicy


def _type_counts(pieces: Iterable[Piece]) -> dict[str, int]:
    return dict(sorted(Counter(p.type for p in pieces).items()))


def _power_counts(pieces: Iterable[Piece]) -> dict[str, dict[str, int]]:
    owners = sorted({p.owner for p in pieces})
    return {o: _type_counts(p for p in pieces if p.owner == o) for o in owners}


def _losses(pieces: Sequence[Piece], hits: int, policy: CasualtyPolicy | None) -> list[Piece]:
    """The pieces ``hits`` remove; without a policy the pieces are alike (bombers only) and go by id."""
    if policy is None:
        return list(pieces[:hits])
    return list(take_casualties(pieces, hits, "any", policy).killed)


def _air_battle(space: str, power: str, raiders: list[Piece], escorts: list[Piece], interceptors: list[Piece],
                roll: Roll, choices: RaidChoices) -> tuple[list[Piece], list[Piece], dict]:
    """Steps B to D of a raid (l.723-729): interceptors fire, the escorts answer and each of their hits
    removes an interceptor at once, then the attacker removes raiders for the interceptors' hits.
    One round only. Returns the raiders lost, the interceptors lost and the event."""
    dice = roll(len(interceptors))
    hits = sum(1 for d in dice if d <= INTERCEPTOR_HITS_ON)
    escort_dice = roll(len(escorts))
    escort_hits = sum(1 for d in escort_dice if d <= ESCORT_HITS_ON)
    intercepted = _losses(interceptors, escort_hits, choices.interceptors)
    lost = _losses(raiders, hits, choices.raiders)
    event = {"type": "interception", "space": space, "power": power,
             "interceptors": _power_counts(interceptors), "dice": dice, "hits": hits,
             "escorts": _type_counts(escorts), "escort_dice": escort_dice, "escort_hits": escort_hits,
             "interceptors_lost": _power_counts(intercepted), "raiders_lost": _type_counts(lost)}
    return lost, intercepted, event


def resolve_bombing_raid(space: str, bombers: Sequence[Piece], victim: str, cap_per_bomber: int | None,
                         treasury: int, roll: Roll, *, aa_gun: str | None,
                         developments: Mapping[str, frozenset[str]] | None = None,
                         battle: str | None = None, escorts: Sequence[Piece] = (),
                         interceptors: Sequence[Piece] = (), choices: RaidChoices | None = None) -> RaidResult:
    """A strategic bombing raid on the industrial complex in ``space`` (digest §5.8, case 45; Europe
    l.709-745).

    The AA gun (if any) fires once at each raiding aircraft, bombers and escorts, hitting on 1. When
    fighters intercept, the air battle of :func:`_air_battle` follows (``choices`` says who picks the
    losses; needed with escorts or interceptors). Each surviving bomber rolls one die, two with
    heavy_bombers; ``cap_per_bomber`` caps each bomber's damage (Revised: the territory's IPC
    value; None: no cap, the victim pays what it can). Dice: the AA dice, the interceptors', the
    escorts', then every surviving bomber's dice in id order.
    """
    bombers = sorted(bombers, key=lambda p: p.id)
    if not bombers or any(p.type != "bomber" for p in bombers) or len({p.owner for p in bombers}) > 1:
        raise ValueError("a bombing raid is flown by bombers of one power")
    if (escorts or interceptors) and choices is None:
        raise ValueError("a raid with escorts or interceptors needs the casualty choices")
    power = bombers[0].owner
    raiders = sorted([*bombers, *escorts], key=lambda p: p.id)
    events: list[dict] = []
    shot: list[Piece] = []
    if aa_gun is not None:
        dice = roll(len(raiders))
        hits = sum(1 for d in dice if d == 1)
        shot = _losses(raiders, hits, choices.aa if choices else None)
        events.append({"type": "aa_fire", "space": space, "power": aa_gun, "targets": _type_counts(raiders),
                       "dice": dice, "hits": hits, "casualties": _type_counts(shot), "battle": battle})
    raiders = [p for p in raiders if p not in shot]
    intercepted: list[Piece] = []
    if interceptors and raiders:
        assert choices is not None
        # the AA gun's victims count for the counted entries of the raiders' casualty order
        lost, intercepted, event = _air_battle(space, power, raiders, [p for p in raiders if p.type != "bomber"],
                                               list(interceptors), roll,
                                               replace(choices, raiders=choices.raiders.after(shot)))
        shot += lost
        events.append(event)
    survivors = [p for p in bombers if p not in shot]
    per_bomber = 2 if "heavy_bombers" in (developments or {}).get(power, frozenset()) else 1
    dice = roll(per_bomber * len(survivors)) if survivors else []
    rolled = [sum(dice[i:i + per_bomber]) for i in range(0, len(dice), per_bomber)]
    damage = sum(rolled if cap_per_bomber is None else (min(r, cap_per_bomber) for r in rolled))
    paid = min(damage, treasury)
    bombing = {"type": "bombing", "space": space, "power": power, "victim": victim,
               "bombers": len(survivors), "dice": dice, "damage": damage}
    if cap_per_bomber is not None:
        bombing["cap_per_bomber"] = cap_per_bomber
    events.append({**bombing, "paid": paid})
    return RaidResult(tuple(shot), tuple(survivors), damage, paid, tuple(events), tuple(intercepted))


@dataclass(frozen=True)
class RocketResult:
    """The outcome of one AA gun's rocket strike."""

    die: int
    damage: int
    paid: int
    event: dict


def resolve_rocket_strike(origin: str, target: str, power: str, victim: str, territory_value: int,
                          treasury: int, roll: Roll) -> RocketResult:
    """One AA gun's rocket strike at the industrial complex in ``target`` (digest §5.9, case 46):
    one die, capped at the territory's IPC value, paid from the victim's treasury."""
    die = roll(1)[0]
    damage = min(die, territory_value)
    paid = min(damage, treasury)
    event = {"type": "rocket", "from": origin, "target": target, "power": power, "victim": victim,
             "die": die, "damage": damage, "paid": paid}
    return RocketResult(die, damage, paid, event)
