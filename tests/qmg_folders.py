"""Game folders for the pairs of test_qmg_pairs.py: two folders of one Quartermaster General game
whose only difference is one country's secrets, and what the moderator's tools tell each other
role of its files (`pbem receive`, `pbem status`, the check of its standing orders) and of the turn
`pbem next` plays, file by file."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from typing import Any

import yaml
from qmg_pairs import commitments, in_words, next_orders
from qmg_play import Exchange

from pbem.core.events import seen_by
from pbem.core.folder import START_STATE, STANDING, private_reports
from pbem.core.game import new_game
from pbem.core.moderator import check_standing, current, play_turn, receive, standing_problems, status
from pbem.core.moderator import write_next_turn
from pbem.core.views import view_files, view_name
from pbem.core.yamlio import dump_yaml, load_document, parse_document
from pbem.rulesets import get_ruleset
from pbem.rulesets.qmg.content import COUNTRIES

SECRET = "77" * 32
"""The moderator's chain secret of every game the folders hold: both sides of a pair share it."""


def text(data: dict[str, Any]) -> str:
    """Orders as a player writes them."""
    return yaml.safe_dump(data, sort_keys=False)


def new_folder(where: Path) -> Path:
    """A new game, made as `pbem new qmg` makes it, with the moderator's secret the pairs share."""
    return new_game("qmg", where, "Secret pairs", {}, secret=SECRET)


def game_folder(template: Path, folder: Path, state: dict[str, Any], standing: dict[str, str]) -> Path:
    """A copy of the game `template` standing at `state` (with the game's name and dice), with
    `standing` (text by country) as the standing orders on file."""
    shutil.copytree(template, folder)
    opening = load_document(folder / START_STATE).data
    state = {**state, "game": opening["game"], "dice": opening["dice"]}
    (folder / START_STATE).write_text(dump_yaml(state), encoding="utf-8")
    for name, data in view_files(get_ruleset("qmg"), state).items():
        (folder / START_STATE).with_name(name).write_bytes(data)
    for country, orders in standing.items():
        (folder / STANDING / f"{country}.yaml").write_text(orders, encoding="utf-8")
    return folder


def broken(standing: dict[str, Any], rng: random.Random) -> str:
    """Standing orders that are not valid on their own: a card of another country's deck named."""
    other = {"germany": "Stalingrad"}.get(standing["country"], "Blitzkrieg")
    effects = [*standing.get("effects", []), {"card": other}]
    return text({**standing, "effects": effects} if rng.random() < 0.5 else {**standing, "forced_discards": [other]})


def _problems(found) -> str:
    return "".join(f"{p}\n" for p in found)


def answered(folder: Path, exchange: Exchange, audience: str) -> dict[str, str]:
    """What the moderator's tools tell `audience` of its files in `folder`: the answer to its orders
    (as read, and mistaken) with where they are kept, or the check of its standing orders; its line
    of `pbem status`; and whether its standing orders on file are in force."""
    position = current(folder)
    told = {}
    if audience in position.awaited:
        rng = random.Random(f"{exchange.number} {audience}")
        mistaken = next_orders(position.ruleset, position.state, audience, rng)[1]
        for name, orders in (("orders", exchange.orders[audience]), ("mistaken orders", mistaken)):
            path, role, problems = receive(current(folder), text(orders), f"{name}.yaml")
            told[f"receive {name}"] = f"{path.relative_to(folder)} {role}\n{_problems(problems)}"
        entry = next(e for e in status(current(folder))["awaiting"] if e["role"] == audience)
        told["status"] = json.dumps(entry).replace(str(folder), "GAME")  # each folder's path, as displayed
    else:
        doc = parse_document(text(exchange.standing[audience]), "standing.yaml")
        told["check standing"] = _problems(check_standing(position, audience, doc))
    told["standing in force"] = _problems(standing_problems(position).get(audience, []))
    return told


def play_next(folder: Path, orders: dict[str, dict[str, Any]], render) -> Path:
    """The next turn played as `pbem receive` and `pbem next` play it: its output folder."""
    for data in orders.values():
        receive(current(folder), text(data), "orders.yaml")
    out, _ = play_turn(write_next_turn(current(folder)), render)
    return out


def outputs(out: Path, audience: str) -> dict[str, Any]:
    """What `audience` gets of a turn's output folder: the events it may see, its view, the reports
    it is mailed and the board; the commitments in words."""
    events = [json.loads(line) for line in (out / "events.jsonl").read_text().splitlines()]
    names = ["report.md", "report.bbcode", "report.html", *(private_reports(audience) if audience in COUNTRIES else ()),
             *([view_name(audience)] if audience in COUNTRIES else [])]
    files = {name: (out / name).read_text() for name in names if (out / name).exists()}
    files["events"] = "".join(json.dumps(e) + "\n" for e in events if seen_by(e, audience))
    files = {name: in_words(content, commitments(events)) for name, content in files.items()}
    return files | ({"map.png": (out / "map.png").read_bytes()} if (out / "map.png").exists() else {})

