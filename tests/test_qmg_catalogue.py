"""The Quartermaster General adjudication catalogue: every worked example and numbered edge case of
the digest (§9), each a position, the orders of the country whose turn it is, the others' standing
orders, a fixed deck order where it matters, and the outcome the rulebook gives.

A case with `hidden_variant` is played a second time with one country's secrets changed (its
face-down cards, its hand, its orders): every other audience must see the same events, the same
report and the same view both times, and that country a different one (else the pair proves
nothing)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml
from qmg_play import pack_with

from pbem.core.dice import DiceStream
from pbem.core.events import EventLog, seen_by
from pbem.core.yamlio import parse_document
from pbem.rulesets.qmg import Qmg
from pbem.rulesets.qmg.content import COUNTRIES
from pbem.rulesets.qmg.report import render_formats, report_model

CASES = sorted((Path(__file__).parent / "catalogue" / "qmg").glob("*.yaml"))


def _instances(pack, country: str, names: list[str], taken: set[str]) -> list[str]:
    out = []
    for name in names:
        found = next(i for i in pack.decks[country] if i not in taken and pack.name(country, i) == name)
        taken.add(found)
        out.append(found)
    return out


def position(pack, case: dict[str, Any]) -> dict[str, Any]:
    """A full state from a case's short position: pieces as `country piece` by space, and each
    country's zones as card names (the deck top first)."""
    given = case["position"]
    pieces = {}
    for space in pack.board.order:
        if space in given.get("pieces", {}):
            pieces[space] = [dict(zip(("country", "piece"), p.split())) for p in given["pieces"][space]]
    countries = {}
    for country in COUNTRIES:
        zones = given.get("countries", {}).get(country, {})
        taken: set[str] = set()
        countries[country] = {
            "deck": _instances(pack, country, zones.get("deck", []), taken),
            "hand": _instances(pack, country, zones.get("hand", []), taken),
            "discard": [{"card": c, "face": "down"}
                        for c in _instances(pack, country, zones.get("discard_face_down", []), taken)]
            + [{"card": c, "face": "up"} for c in _instances(pack, country, zones.get("discard", []), taken)],
            "responses": _instances(pack, country, zones.get("responses", []), taken),
            "statuses": _instances(pack, country, zones.get("statuses", []), taken),
        }
    options = {o.name: o.default for o in Qmg().options()} | given.get("options", {})
    return {"format": "qmg/1", "ruleset": "qmg", "game": "catalogue", "options": options,
            "round": given.get("round", 1), "phase": "play", "next_power": given["next_power"],
            "dice": {"commitment": "0" * 64, "turn": 1}, "vp": given.get("vp", {"axis": 0, "allies": 0}),
            "pieces": pieces, "countries": countries, "winner": None}


def _names(pack, country: str, instances: list[str]) -> list[str]:
    return [pack.name(country, i) for i in instances]


def _play(case: dict[str, Any]) -> tuple[Qmg, dict[str, Any], list[str], EventLog, dict[str, Any] | None]:
    """The case's orders checked and, when they pass, played: the ruleset, the position, the
    problems, the events and the state after."""
    rules = Qmg()
    rules.pack = pack_with(case.get("cards_given") or {}, case.get("cards_added") or [])
    state = position(rules.pack, case)
    active = state["next_power"]
    orders = parse_document(yaml.safe_dump({"country": active, **case["orders"]}), "orders.yaml")
    standing = {c: parse_document(yaml.safe_dump({"country": c, **(case.get("standing") or {}).get(c, {})}),
                                  f"{c}.yaml") for c in COUNTRIES if c != active}
    problems = [f"{p.field}: {p.message}" for p in rules.check_orders(state, {active: orders}, standing)]
    log = EventLog()
    after = None if problems else \
        rules.resolve(state, {active: orders}, standing, None, log, DiceStream("00" * 32, "catalogue"))
    return rules, state, problems, log, after


def _merged(base: Any, changes: Any) -> Any:
    """`base` with the values of `changes` in place of its own, mappings merged key by key and a
    key whose change is null left out."""
    if not (isinstance(base, dict) and isinstance(changes, dict)):
        return changes
    merged = {**base, **{k: _merged(base.get(k), v) for k, v in changes.items()}}
    return {k: v for k, v in merged.items() if v is not None}


def _accounts(case: dict[str, Any]) -> dict[str, tuple[list[dict[str, Any]], str, dict[str, Any]]]:
    """What each audience learns of the case's turn: the events it may see, its Markdown report and
    the state as it may see it (its view file)."""
    rules, before, problems, log, after = _play(case)
    assert problems == [] and after is not None, problems
    framed = EventLog()  # the turn's first and last events, which the core adds around the ruleset's
    framed.add("turn_start", turn=1, seed="0" * 64, seed_commitment="0" * 64)
    framed.extend(log.events)
    framed.add("turn_end", state_commitment="0" * 64, awaiting=list(rules.awaiting(after)))
    return {audience: ([e for e in log.events if seen_by(e, audience)],
                       render_formats(report_model(rules, before, after, framed, audience))["md"],
                       rules.view_state(after, audience))
            for audience in ("public", *COUNTRIES)}


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(path: Path) -> None:
    case = yaml.safe_load(path.read_text(encoding="utf-8"))
    rules, state, problems, log, after = _play(case)
    expect = case["expect"]
    if "problems" in expect:
        text = " | ".join(problems)
        for wanted in expect["problems"]:
            assert wanted in text, text
        return
    assert problems == [], problems
    assert after is not None
    if "pieces" in expect:
        got = {space: sorted(f"{p['country']} {p['piece']}" for p in here) for space, here in after["pieces"].items()}
        assert got == {s: sorted(v) for s, v in expect["pieces"].items()}
    for country, zones in (expect.get("countries") or {}).items():
        have = after["countries"][country]
        for zone, wanted in zones.items():
            if zone == "discard_top":
                top = have["discard"][-1]
                assert (rules.pack.name(country, top["card"]), top["face"]) == tuple(wanted), zone
            elif isinstance(wanted, int):
                assert len(have[zone]) == wanted, (country, zone)
            elif zone == "discard":
                assert Counter(rules.pack.name(country, d["card"]) for d in have[zone]) == Counter(wanted)
            else:
                assert Counter(_names(rules.pack, country, have[zone])) == Counter(wanted), (country, zone)
    if "vp" in expect:
        assert after["vp"] == expect["vp"]
    if "winner" in expect:
        assert after["winner"] == expect["winner"]
    if "next_power" in expect:
        assert after["next_power"] == expect["next_power"]
    types = [e["type"] for e in log.events]
    after_index = 0  # the expected events happen in the order listed
    for wanted in expect.get("events") or []:
        kind, _, text = wanted.partition(": ")
        found = next((i for i, e in enumerate(log.events) if i >= after_index and e["type"] == kind
                      and all(re.search(part, str(e)) for part in text.split(" & ") if part)), None)
        assert found is not None, (wanted, [e for e in log.events if e["type"] == kind] or types)
        after_index = found + 1
    for unwanted in expect.get("no_events") or []:
        assert unwanted not in types
    used = [(e["country"], e["card"]) for e in log.events if e["type"] == "effect_used"]
    if "used" in expect:
        assert used == [tuple(u) for u in expect["used"]]
    if "hidden_variant" in case:
        variant = dict(case["hidden_variant"])
        secret_of = variant.pop("secret_of")
        first, second = _accounts(case), _accounts(_merged(case, variant))
        assert first[secret_of] != second[secret_of], "the variant changes nothing its own country sees"
        for audience in first:
            if audience != secret_of:
                assert first[audience] == second[audience], f"{audience} learns {secret_of}'s secret"
