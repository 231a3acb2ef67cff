"""The campaign between two scenarios: the victory phase with its game-state code, the casualty phase
with its reservists, the upgrade phase, and the set-up of the next scenario from its story; the end
on a code beginning KONEC (seed l.880-1000, l.1100-1140, l.1620-1650; digest §4.2-§4.9)."""

from __future__ import annotations

from typing import Any

from pbem.rulesets.undaunted.content import SIDES
from pbem.rulesets.undaunted.play import Turn

PERMANENT = ((10, 3), (5, 2), (1, 1), (0, 0))
"""Cards in the casualty pile (at least) -> permanent casualties (seed l.907-915)."""
REPLACED_TYPES = ("riflemen", "scouts", "machine_gunners")
END = "KONEC"
DEFAULT_DECK_PREFERENCE = ("upgraded", "regular", "reservist")


def permanent_count(pile: int) -> int:
    return next(count for least, count in PERMANENT if pile >= least)


def after_scenario(turn: Turn, winner: str) -> str | None:
    """Everything from the scenario's end to the setting up of the next, in one go: none of it asks
    a player anything the standing orders do not say. The next scenario, None when the campaign is
    over."""
    state, log = turn.state, turn.log
    campaign = state["campaign"]
    scenario = turn.pack.scenarios[state["scenario"]]
    code = campaign["code"]
    new_code = scenario.game_state.get(code, {}).get(winner)
    campaign["scenarios"].append({"scenario": scenario.id, "winner": winner, "code": code})
    if scenario.area:
        campaign["areas"][scenario.area] = winner
    log.add("victory_phase", scenario=scenario.id, winner=winner, code=code, new_code=new_code,
            area=scenario.area)
    if new_code is None or new_code.startswith(END):
        _campaign_over(turn, new_code)
        return None
    campaign["code"] = new_code
    for side in SIDES:
        _casualty_phase(turn, side)
        _upgrade_phase(turn, side, scenario.upgrades)
    story = turn.pack.stories.get(new_code)
    if story is None:
        _campaign_over(turn, new_code)
        return None
    for side in SIDES:
        for card_id in story.unlock.get(side, []):
            _add(campaign, side, card_id)
            log.add("card_unlocked", to=[side], side=side, card=card_id, name=turn.card(card_id).label)
        for new, old in story.replace.get(side, {}).items():
            _add(campaign, side, new)
            remove_from_campaign(campaign, side, old)
            log.add("card_replaced", to=[side], side=side, card=new, replaced=old, name=turn.card(new).label)
        if side in story.merge:
            campaign["merged"][side].append(list(story.merge[side]))
            log.add("squads_merged", side=side, squads=list(story.merge[side]))
    log.add("story", code=new_code, scenario=story.scenario)
    return story.scenario


def _add(campaign: dict[str, Any], side: str, card_id: str) -> None:
    if card_id not in campaign["available"][side]:
        campaign["available"][side] = sorted(campaign["available"][side] + [card_id])


def remove_from_campaign(campaign: dict[str, Any], side: str, card_id: str) -> None:
    if card_id in campaign["available"][side]:
        campaign["available"][side].remove(card_id)
        campaign["removed"][side] = sorted(campaign["removed"][side] + [card_id])


def _casualty_phase(turn: Turn, side: str) -> None:
    """Draw 0-3 permanent casualties from the shuffled casualty pile, a reservist being returned and
    another drawn; each lost Rifleman, Scout or Machine Gunner is replaced by the reservist of its
    number (seed l.903-929)."""
    campaign = turn.state["campaign"]
    pile = turn.zones(side)["casualties"]
    wanted = permanent_count(len(pile))
    lost = []
    for card_id in turn.hidden.shuffle(sorted(pile)):
        if len(lost) == wanted:
            break
        if turn.card(card_id).tier != "reservist":
            lost.append(card_id)
    replaced, missing = {}, []
    for card_id in lost:
        remove_from_campaign(campaign, side, card_id)
        unit = turn.pack.unit_of(card_id)
        reservist = _reservist_for(turn, side, card_id)
        if unit and unit.type in REPLACED_TYPES:
            if reservist in turn.pack.cards:
                _add(campaign, side, reservist)
                replaced[card_id] = reservist
            else:
                missing.append(reservist)
    if missing:
        turn.log.add("content_missing", to=[side], side=side, what="reservist", cards=missing)
    # fewer are lost only when the pile holds too many reservists, which the others may not see
    turn.log.add("casualty_phase", side=side, pile=len(pile), up_to=wanted)
    turn.log.add("permanent_casualties", to=[side], side=side, cards=lost, reservists=replaced)


def _reservist_for(turn: Turn, side: str, card_id: str) -> str:
    """The reservist of the lost card's number; for a merged squad whose own squad has none (squad
    C), any reservist of the same unit type of the other squad of the merge (seed l.1640)."""
    campaign = turn.state["campaign"]
    own = f"{card_id[0]}-R-{turn.card(card_id).number}"
    if own in turn.pack.cards or not any(turn.card(card_id).squad in pair for pair in campaign["merged"][side]):
        return own
    kind = turn.pack.unit_of(card_id).type
    spare = [c for c, card in turn.pack.cards.items() if card.side == side and card.tier == "reservist"
             and card.squad == turn.card(card_id).squad and turn.pack.unit_of(c).type == kind
             and c not in campaign["available"][side] and c not in campaign["removed"][side]]
    return min(spare) if spare else own


def _upgrade_phase(turn: Turn, side: str, upgrades: int) -> None:
    """Shuffle every card but the supply's and draw until two regular unit cards are found; each is
    replaced by the upgrade card of its number (seed l.931-945)."""
    zones = turn.zones(side)
    campaign = turn.state["campaign"]
    pool = sorted(zones["play_area"] + zones["hand"] + zones["deck"] + zones["discard"] + zones["casualties"])
    upgraded, missing = {}, []
    for card_id in turn.hidden.shuffle(pool):
        if len(upgraded) == upgrades:
            break
        card = turn.card(card_id)
        if card.kind != "unit" or card.tier != "regular" or card_id not in campaign["available"][side]:
            continue
        better = f"{card_id[0]}-V-{card.number}"
        if better not in turn.pack.cards:
            missing.append(better)
            continue
        _add(campaign, side, better)
        remove_from_campaign(campaign, side, card_id)
        upgraded[card_id] = better
    if missing:
        turn.log.add("content_missing", to=[side], side=side, what="upgrade", cards=missing)
    # fewer are upgraded only when the cards hold too few regular unit cards, which the others may not see
    turn.log.add("upgrade_phase", side=side, up_to=upgrades)
    turn.log.add("upgrades", to=[side], side=side, cards=upgraded)


def _campaign_over(turn: Turn, code: str | None) -> None:
    """A KONEC code ends the campaign: a side holding every area has its epic victory; otherwise the
    final battle decides, which the seed does not give (seed l.1620)."""
    state = turn.state
    areas = state["campaign"]["areas"]
    holders = {areas.get(a) for a in turn.pack.areas}
    epic = holders.pop() if len(holders) == 1 and None not in holders else None
    state["campaign"]["code"] = code or state["campaign"]["code"]
    state["phase"], state["next_power"], state["turn"] = "campaign_over", None, None
    state["winner"] = epic
    turn.log.add("campaign_over", code=code, epic_victory=epic)
