"""A role's view file checks that role's orders exactly as the whole state does, in every game, and
holds none of another role's secrets."""

from __future__ import annotations

import json
import random
from dataclasses import asdict
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from pbem.cli import app
from pbem.core.hidden import digest_commitment, read_hidden_key
from pbem.core.ruleset import UNSEEN
from pbem.core.turn import decisions_digest, load_turn
from pbem.core.views import VIEW_FIELD, split_view, view_files, view_name
from pbem.core.yamlio import parse_document
from pbem.rulesets import get_ruleset

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
GAMES = sorted(p for p in EXAMPLES.iterdir() if (p / "game.yaml").is_file())


def _strings(data, path=()):
    """Every string leaf of an orders file with its path."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _strings(value, (*path, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _strings(value, (*path, i))
    elif isinstance(data, str):
        yield path, data


def _replaced(data, path, value):
    data = json.loads(json.dumps(data))
    here = data
    for key in path[:-1]:
        here = here[key]
    here[path[-1]] = value
    return data


def _variants(orders: dict, words: list[str], rng: random.Random, field: str) -> list[dict]:
    """The orders and some broken ones: a string swapped for another file's word (a card, a space,
    a country of the game), the way players mistype and misremember."""
    leaves = [(p, v) for p, v in _strings(orders) if p != (field,)]
    out = [orders]
    for path, _ in rng.sample(leaves, min(4, len(leaves))):
        out.append(_replaced(orders, path, rng.choice(words)))
    return out


def _state_and_view(state: dict, ruleset, role: str):
    view_bytes = view_files(ruleset, state).get(view_name(role))
    if view_bytes is None:  # a game without secrets: the state is every role's view
        return state, state
    view, viewer = split_view(parse_document(view_bytes.decode("utf-8"), view_name(role)))
    assert viewer == role
    assert ruleset.check_state(view) == [], "a view file is a state of its own shape"
    return state, view.data


@pytest.mark.parametrize("game", GAMES, ids=lambda p: p.name)
def test_a_view_checks_its_roles_orders_as_the_whole_state_does(game):
    rng = random.Random(game.name)
    turns = sorted((game / "turns").glob("*.yaml"))
    inputs = [load_turn(t) for t in turns]
    words = sorted({v for i in inputs for doc in (*i.submissions.values(), *i.standing.values())
                    for _, v in _strings(doc.data)})
    checked = 0
    for i in inputs:
        ruleset = get_ruleset(i.state.data["ruleset"])
        for role, doc in i.submissions.items():
            state, view = _state_and_view(i.state.data, ruleset, role)
            for variant in _variants(doc.data, words, rng, ruleset.role_field):
                orders = parse_document(yaml.safe_dump(variant, sort_keys=False), doc.path)
                whole = ruleset.check_orders(state, {role: orders}, {})
                seen = ruleset.check_orders(view, {role: orders}, {})
                assert [asdict(p) for p in seen] == [asdict(p) for p in whole], (i.turn.path, role, variant)
                checked += 1
    assert checked >= len(inputs)


@pytest.mark.parametrize("game", [g for g in GAMES if get_ruleset(yaml.safe_load(
    (g / "game.yaml").read_text())["ruleset"]).hidden_information], ids=lambda p: p.name)
def test_a_view_holds_no_card_of_another_roles_hidden_zones(game):
    ruleset = get_ruleset(yaml.safe_load((game / "game.yaml").read_text())["ruleset"])
    for state_file in sorted(game.glob("*/state.yaml")):
        state = yaml.safe_load(state_file.read_text())
        for role in ruleset.powers:
            view = yaml.safe_load((state_file.parent / view_name(role)).read_text())
            assert view.pop(VIEW_FIELD) == role
            assert view == ruleset.view_state(state, role)
            others = ruleset.view_state(state, "public")
            # what the public may not see is unseen by every other role too
            _assert_unseen_alike(others, view, role)


def _assert_unseen_alike(public, view, role, path=()):
    """Where the public view hides a card, a role's view hides it too, but in that role's own zones."""
    if role in path:
        return
    if isinstance(public, dict):
        for key in public:
            _assert_unseen_alike(public[key], view[key], role, (*path, key))
    elif isinstance(public, list):
        assert len(public) == len(view), path
        for a, b in zip(public, view):
            _assert_unseen_alike(a, b, role, path)
    elif public == UNSEEN:
        assert view == UNSEEN, path


def test_validate_takes_a_view_file_and_only_for_its_role():
    game = EXAMPLES / "qmg"
    inputs = load_turn(sorted((game / "turns").glob("*.yaml"))[3])
    (role, doc), = inputs.submissions.items()
    view = Path(inputs.state.path).parent / view_name(role)
    orders = Path(doc.path)

    def run(state):
        done = CliRunner().invoke(app, ["validate", str(orders), "--state", str(state), "--json"],
                                  catch_exceptions=False)
        return json.loads(done.stdout)

    whole, seen = run(Path(inputs.state.path)), run(view)
    assert whole["ok"] and seen["ok"]
    # the digest covers every role's standing orders: the moderator's, under the hidden key; not a view's
    assert "decisions_digest" not in seen
    key = read_hidden_key(game)
    assert whole["decisions_digest"] == digest_commitment(key, inputs.state.data["dice"]["turn"], decisions_digest(
        inputs.state.data, inputs.submissions, {}))
    other = next(r for r in get_ruleset("qmg").powers if r != role)
    refused = run(view.parent / view_name(other))
    assert not refused["ok"]
    assert refused["problems"][0]["message"].endswith(f"checks only {other}'s files")
