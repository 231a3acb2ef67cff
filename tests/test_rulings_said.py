"""Every ruling and option of every game is said where it decides something: a catalogue case or an
example turn triggers it, and the event log names it (a `ruling` event), or a refusal names it.

`NOT_YET_SAID` lists those no case shows yet, for each game; the test fails when one of them is
said (take it off the list) and when a ruling not on the list goes unsaid, so the list only shrinks.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest
import yaml

import test_qmg_catalogue  # the catalogues' runners, as pytest imports them (tests/ on the path)
import test_turn_catalogue
import test_undaunted_catalogue
from pbem.rulesets import get_ruleset

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

NOT_YET_SAID = {
    # neither can decide in Revised today (docs/aa-revised-rules.md says why)
    "aa-revised": {"battle_end", "rockets_from_captured"},
    "aa-europe": set(),
    "qmg": set(),
    # cannot decide with the pack pbem ships (docs/undaunted-rules.md says why)
    "undaunted-stalingrad": {"command_card_fire"},
}

NOT_YET_LISTED = {"aa-revised": set(), "aa-europe": set(), "qmg": set(), "undaunted-stalingrad": set()}
"""Rulings a report names that `pbem options` does not list yet (the same ratchet)."""


def _names(events: list[dict], problems: list, names: set[str]) -> set[str]:
    """The rulings events name (whether listed or not) and the listed ones a refusal names."""
    said = {e.get("rule") or e.get("name") for e in events if e.get("type") == "ruling"}
    text = " ".join(str(p) for p in problems)
    return said | {n for n in names if f"ruling {n}" in text or f"option {n}" in text}


def _played(ruleset_id: str) -> list[tuple[list, list[dict]]]:
    """The problems and events of every catalogue case of a game."""
    def case(path: Path) -> dict:
        return yaml.safe_load(path.read_text(encoding="utf-8"))

    if ruleset_id == "qmg":
        return [(r[2], r[3].events) for r in (test_qmg_catalogue._play(case(p)) for p in test_qmg_catalogue.CASES)]
    if ruleset_id == "undaunted-stalingrad":
        return [(r[1], r[4].events) for r in (test_undaunted_catalogue._play(case(p))
                                              for p in test_undaunted_catalogue.CASES)]
    return [(r[1], r[3].events) for r in (test_turn_catalogue.play_case(p) for p in test_turn_catalogue.CASES
                                          if p.parents[1].name == ruleset_id)]


@cache
def said_in(ruleset_id: str) -> frozenset[str]:
    ruleset = get_ruleset(ruleset_id)
    names = {o.name for o in (*ruleset.options(), *ruleset.rulings())}
    said = {name for problems, events in _played(ruleset_id) for name in _names(events, problems, names)}
    for events in (EXAMPLES / ruleset_id).glob("*/events.jsonl"):
        said |= _names([json.loads(line) for line in events.read_text(encoding="utf-8").splitlines()], [], names)
    return frozenset(said)


@pytest.mark.parametrize("ruleset_id", sorted(NOT_YET_SAID))
def test_every_ruling_is_said_where_it_decides(ruleset_id: str) -> None:
    ruleset = get_ruleset(ruleset_id)
    names = {o.name for o in (*ruleset.options(), *ruleset.rulings())}
    unsaid = names - said_in(ruleset_id)
    assert not unsaid - NOT_YET_SAID[ruleset_id], "no catalogue case or example turn says these rulings: " + \
        ", ".join(sorted(unsaid - NOT_YET_SAID[ruleset_id]))
    assert not NOT_YET_SAID[ruleset_id] - unsaid, "said now, take them off NOT_YET_SAID: " + \
        ", ".join(sorted(NOT_YET_SAID[ruleset_id] - unsaid))
    unlisted = said_in(ruleset_id) - names
    assert unlisted == NOT_YET_LISTED[ruleset_id], "rulings said but not listed by `pbem options`: " + \
        ", ".join(sorted(unlisted ^ NOT_YET_LISTED[ruleset_id]))


RULES_DOCS = {"aa-revised": ("aa-revised-rules.md",), "aa-europe": ("aa-europe-rules.md", "aa-revised-rules.md"),
              "qmg": ("qmg-rules.md",), "undaunted-stalingrad": ("undaunted-rules.md",)}
"""Where each game's rulings are written down with what decides them: Europe keeps the readings it
shares with Revised in Revised's page."""


@pytest.mark.parametrize("ruleset_id", sorted(RULES_DOCS))
def test_every_ruling_is_written_down(ruleset_id: str) -> None:
    ruleset = get_ruleset(ruleset_id)
    docs = " ".join((Path(__file__).resolve().parent.parent / "docs" / name).read_text(encoding="utf-8")
                    for name in RULES_DOCS[ruleset_id])
    unwritten = sorted(o.name for o in (*ruleset.options(), *ruleset.rulings()) if f"`{o.name}`" not in docs)
    assert not unwritten, f"docs/{RULES_DOCS[ruleset_id][0]} has no row for: " + ", ".join(unwritten)
