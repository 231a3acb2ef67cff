"""Ruleset options and rulings: every point where players differ or the rulebooks are unclear.

`OPTIONS` are chosen per game (`pbem new --option name=value`) and stored in the state's `options`.
`RULINGS` are the readings this engine takes where the rules digest marks a point (?): they have
one value, are listed here so they can be read in one place, and each is logged as a `ruling`
event the first time it decides something in a turn. Nothing is decided silently.
"""

from __future__ import annotations

from typing import Any, Mapping

from pbem.core.ruleset import Option

OPTIONS: tuple[Option, ...] = (
    Option("victory_cities", 10, (8, 10, 12),
           "Victory cities a side must hold at the end of a round to win: 8 (minor), 10 (major) or "
           "12 (total victory)."),
    Option("individual_winner", False, (False, True),
           "true: when a side wins, the power of that side whose production level rose most since the start "
           "of the game is named individual winner (the optional rule of the Czech rulebook, p.20); the "
           "victory_check event then lists it in `individual_winners` (several on a tie)."),
    Option("research_rule", "chart_number", ("chart_number", "any_six"),
           "chart_number: research succeeds when any die shows the chosen development's chart number "
           "(both rulebooks: Super Submarines need a 3). any_six: a 6 succeeds for any development "
           "(TripleA's reading)."),
    Option("noncombat_overfly", "allow", ("allow", "forbid"),
           "Both rulebooks open the noncombat move with 'you may not move into hostile territories' "
           "([CZ p.19], [HR p.18]), then say of aircraft only that they may not end their move in a hostile "
           "territory or one taken this turn; aircraft fly over hostile territories as if friendly ([CZ p.9], "
           "the Croatian unit profiles [HR p.23]). allow: a noncombat flight may pass over hostile "
           "territories (it must still land in a friendly one) and is not fired at there, as AA guns fire "
           "only in the combat move. forbid: a noncombat flight may not enter a hostile territory at all "
           "(the phase's opening sentence read for every unit). Aircraft returning from a battle are fired "
           "at either way."),
    Option("partial_retreat", "subs_submerge", ("subs_submerge", "subs_with_fleet"),
           "How submarines take part in an attacker's retreat from a sea battle. subs_submerge: "
           "submarines 'may retreat only by using their special ability, submerging' ([CZ p.15]): the "
           "rest of the fleet leaves, the submarines submerge where they are, and with an enemy destroyer "
           "present they cannot and fight on. subs_with_fleet: submarines leave with the fleet (the reading "
           "of games begun before this option existed, which keep it when their options do not name it). "
           "Either way a retreat takes every other attacker, except in the land battle of an amphibious "
           "assault, where only aircraft leave (digest §5.2 step 7).",
           legacy="subs_with_fleet"),
    Option("bombardment_targets", "land_units", ("land_units", "any"),
           "land_units: shore bombardment hits only the defender's land units (the rulebooks: ships "
           "fire 'at enemy land units'); any: the defender may take bombardment hits on any unit."),
    Option("rocket_range", "land_and_sea", ("land_and_sea", "land_only"),
           "How the 3 spaces of a rocket strike are counted: over territories and sea zones alike, or "
           "over territories only."),
    Option("rockets_per_complex", "several", ("several", "one"),
           "several: more than one AA gun may fire rockets at the same industrial complex in a turn "
           "(each gun's damage capped separately); one: at most one gun per complex per turn."),
    Option("rockets_from_captured", "forbid", ("forbid", "allow"),
           "forbid: AA guns in a territory captured this turn cannot fire rockets (TripleA's reading); "
           "allow: they can."),
)

RULINGS: tuple[Option, ...] = (
    Option("research_owned", "refuse", ("refuse",),
           "Researching a development the power already has is refused at validation (digest §11 case 7)."),
    Option("research_this_turn", "orders_may_count_on_it", ("orders_may_count_on_it",),
           "A development works from the moment it is gained, this turn included (both rulebooks), so "
           "orders are checked as if this turn's research succeeds. If it fails, a move or rocket strike "
           "that needed the development is skipped with the reason, and an aircraft that needed the "
           "longer range to land is lost (digest 6.1, 11 case 6)."),
    Option("unplaceable_units", "reject", ("reject",),
           "Every unit bought must have a placement in the orders that the rules allow; orders that buy a "
           "unit without placing it are rejected before the turn is played (digest §7, §11 case 53)."),
    Option("hostile_sea_zone", "any_enemy_unit", ("any_enemy_unit",),
           "A sea zone holding any enemy unit that is not a submerged submarine is hostile, even when "
           "the mover's own units are there too (digest §4.1)."),
    Option("transport_hostile_zone", "no_load_no_unload", ("no_load_no_unload",),
           "A transport may not load or unload in a sea zone holding enemy units other than submerged "
           "submarines; an amphibious assault from such a zone unloads only once its sea battle has "
           "cleared the zone (digest §3.14, §11 case 18)."),
    Option("transport_in_attacked_zone", "joins_the_battle", ("joins_the_battle",),
           "A transport of the attacker that stands in a sea zone where its power attacks (it stayed while "
           "its fleet fights there) is part of the attacking force even without a combat move of its own: "
           "it rolls no dice but may be taken as a casualty, and with it its cargo (digest §3.14)."),
    Option("combat_move_support", "assault_zone", ("assault_zone",),
           "Besides the rulebooks' exceptions, a sea unit may end its combat move in a friendly sea zone "
           "where one of its power's transports unloads for an amphibious assault (to bombard or to "
           "escort it), and fighters may go there with a declared carrier (digest §11 case 8)."),
    Option("carrier_pickup", "did_not_move", ("did_not_move",),
           "A carrier that did not move in the combat move may make a declared fighter pick-up in the "
           "noncombat move even if it was in a battle; a carrier that moved in the combat move cannot "
           "(digest §4.6)."),
    Option("fighters_launch_first", "listed_moves_launch", ("listed_moves_launch",),
           "Fighters of the moving power for which a move from a carrier's sea zone is listed take off "
           "before any carrier moves; fighters not listed stay aboard and travel with their carrier as "
           "cargo (digest §3.8, §11 case 16)."),
    Option("unit_choice", "least_used_first", ("least_used_first",),
           "A move names unit types and numbers, not individual units. When units of one type in a "
           "space differ, the move takes those with the most movement left, then transports and "
           "carriers with the least cargo (unless `cargo` picks them), in a fixed order; aircraft are "
           "taken by range instead: those with the least movement left that still cover the path, so "
           "that every set of flights that can be flown is."),
    Option("noncombat_order", "surface_then_air", ("surface_then_air",),
           "Noncombat moves are carried out in the order listed, all land and sea moves first, then all "
           "aircraft moves, so fighters land only on carriers whose move is complete (digest §4.3)."),
    Option("aircraft_landing_default", "nearest", ("nearest",),
           "An aircraft that needs to land and has no landing move carried out flies to the nearest legal "
           "landing place within its remaining movement (fewest spaces, then fewest enemy AA guns on the "
           "way, then the space it took off from, then board order), reported as a default; with none "
           "it is lost."),
    Option("battle_order", "air_then_listed", ("air_then_listed",),
           "Flak on flight paths is rolled during the combat move in the order listed, each path in path "
           "order. In conduct combat: strategic bombing raids, then rocket strikes, then the sea battles "
           "of amphibious assaults, then every other battle in the attacker's `battle_order`, battles not "
           "named there following in the order of the combat moves that created them."),
    Option("transport_unload", "all_own_cargo", ("all_own_cargo",),
           "A transport that unloads puts all of its power's cargo ashore in the one territory named; "
           "allied cargo stays aboard (it unloads on its owner's turn)."),
    Option("aa_gun_in_assault", "stays_aboard", ("stays_aboard",),
           "An AA gun may ride a transport in the combat move [HR] but never attacks: when the transport "
           "unloads for an amphibious assault, the gun stays aboard and the rest of the cargo lands."),
    Option("allied_transport", "land_unit_moves", ("land_unit_moves",),
           "Land units board an ally's transport by a move from their territory into the transport's sea "
           "zone, and leave it by a move from the sea zone into a coastal territory, on their own "
           "power's turn; the ally's transport does not move (digest §3.14)."),
    Option("placement_limit", "all_units_count", ("all_units_count",),
           "Ships placed in a sea zone and fighters placed on new carriers count against the limit of "
           "the industrial complex they are placed by (digest §7, §11 case 50)."),
    Option("new_complex", "next_turn", ("next_turn",),
           "A complex placed this turn produces from the power's next turn (it was not controlled since "
           "the start of the turn) (digest §11 case 52)."),
    Option("sea_placement_complex", "first_with_room", ("first_with_room",),
           "Ships placed in a sea zone next to several usable complexes, without `via`, count against "
           "the first of them in board order that still has room (reported as a default)."),
    Option("liberation", "ally_original_owner", ("ally_original_owner",),
           "Taking back a territory the power itself owned at the start of the game is an ordinary "
           "capture. A territory originally owned by an ally whose capital is enemy-held stays with the "
           "liberator until that capital is liberated; then every such territory reverts (digest §5.12)."),
    Option("sunk_carrier_fighters", "after_battle", ("after_battle",),
           "Fighters of a sunk defending carrier move one space right after that battle, during the "
           "attacker's turn, to the first space of their owner's `carrier_fighters_land` list that can "
           "take them, else to the first friendly territory or carrier with room in board order; with "
           "none they are lost (digest §5.13, §11 case 44)."),
    Option("conditions", "checked_up_front", ("checked_up_front",),
           "A noncombat move with `if:` is checked before the turn as if every attack succeeded when its "
           "conditions ask for that, else only for names, units and paths; it is checked again when it "
           "is carried out and skipped with a reason if it has become impossible."),
    Option("capital_freed_this_turn", "income_this_turn", ("income_this_turn",),
           "A power that frees its own capital in its turn has skipped research, purchase and mobilization "
           "(decided at the start of the turn; it buys again from its next turn, [CZ p.16]) but collects "
           "income in phase 7, when its capital is no longer enemy-held: the rulebooks bar income only "
           "while the capital is in enemy hands (digest 5.11, phase 7)."),
    Option("lost_capital_orders", "refuse", ("refuse",),
           "A power whose capital is enemy-held may not research, buy or place; such orders are refused "
           "(digest §5.11)."),
    # The battle's own readings; combat.py applies them (docs/combat-api.md, battle catalogue cases).
    Option("aa_casualties", "owner_chooses", ("owner_chooses",),
           "Aircraft shot down by AA fire are chosen by their owner, by its casualty order (digest §5.2 step 1)."),
    Option("submarine_hits", "fire_once", ("fire_once",),
           "Submarines fire only in their opening step: one sunk in step 4 does not fire again. Hits of "
           "a submarine volley beyond the enemy's sea units are lost; a volley with no legal target is "
           "not rolled (digest §5.2 step 2, §11 case 26)."),
    Option("destroyer_exception", "whole_side_before_volley", ("whole_side_before_volley",),
           "Units hit by submarine opening fire shoot back in their normal step when their side has a "
           "destroyer in the battle: the destroyer may belong to any power of the side, and counts if it "
           "is present when the volley is fired, even if that volley sinks it (digest §11 case 26)."),
    Option("battle_end", "no_legal_hits", ("no_legal_hits",),
           "A battle ends, the defender holding, when neither side has a unit able to hit the other "
           "(e.g. submarines against aircraft only) (digest §11 case 36)."),
    Option("allied_defenders", "standing_orders_then_attacker", ("standing_orders_then_attacker",),
           "Allied defenders share hits by their standing orders (`shared_casualties`); when they "
           "disagree, the attacker's `enemy_casualties` order picks, by default cheapest first."),
)

_BY_NAME = {o.name: o for o in (*OPTIONS, *RULINGS)}


def option(name: str) -> Option:
    """The option or ruling called `name`."""
    return _BY_NAME[name]


def chosen_options(given: Mapping[str, Any] | None) -> dict[str, Any]:
    """Every option with the game's value, defaults filled in, in the order of `OPTIONS`.

    An option with a `legacy` value that `given` does not name is left out, so that a game begun
    before it existed keeps its opening state byte for byte and plays the legacy value."""
    given = dict(given or {})
    return {o.name: o.value_in(given) for o in OPTIONS if o.name in given or o.legacy is None}
