"""The JSON Schemas in editors and standard validators: offline, described, and a game's names."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from typer.testing import CliRunner

from pbem.cli import app
from pbem.core import schemas
from pbem.core.schemas import GAME_SCHEMAS, schema_data, validate
from pbem.core.yamlio import parse_document
from pbem.rulesets import get_ruleset

ROOT = Path(__file__).resolve().parents[1]
FILES = {"orders": "orders/*.yaml", "standing-orders": "standing/*.yaml", "turn": "turns/*.yaml",
         "state": "*/state.yaml"}
# every schema file: the core's turn file and state envelope, and each game family's own three
SCHEMA_FILES = ["schemas/turn", "schemas/state", "schemas/players"] + [
    f"pbem/rulesets/{family}/schemas/{name}" for family in ("axis_allies", "qmg", "undaunted") for name in GAME_SCHEMAS]
# each family's example game, by a ruleset of the family
GAMES = {"aa-revised": ROOT / "examples" / "aa-revised", "qmg": ROOT / "examples" / "qmg"}


def walk(node, where="$"):
    """Every (place, schema) of a schema document, nested ones included."""
    if isinstance(node, dict):
        yield where, node
        for key, value in node.items():
            yield from walk(value, f"{where}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from walk(value, f"{where}[{i}]")


@pytest.mark.parametrize("name", SCHEMA_FILES)
def test_no_schema_names_a_host_that_does_not_exist(name):
    text = (ROOT / f"{name}.schema.json").read_text(encoding="utf-8")
    schema = json.loads(text)
    assert "$id" not in schema
    refs = [node["$ref"] for _, node in walk(schema) if "$ref" in node]
    assert all(not ref.startswith(("http:", "https:")) for ref in refs)
    assert "pbem.example" not in text


@pytest.mark.parametrize("name", SCHEMA_FILES)
def test_every_field_has_a_description(name):
    schema = json.loads((ROOT / f"{name}.schema.json").read_text(encoding="utf-8"))
    missing = [f"{where}.{field}" for where, node in walk(schema)
               for field, sub in (node.get("properties") or {}).items()
               if isinstance(node.get("properties"), dict) and "description" not in sub]
    missing += [f"$defs.{d}" for d, sub in schema.get("$defs", {}).items() if "description" not in sub]
    assert missing == []


@pytest.mark.parametrize(("name", "ruleset"), [("turn", None), ("state", None)] + [
    (name, ruleset) for ruleset in GAMES for name in ("turn", *GAME_SCHEMAS)])
def test_a_printed_schema_stands_alone(name, ruleset):
    args = ["schema", name] + (["--ruleset", ruleset] if ruleset else [])
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    schema = json.loads(result.stdout)
    Draft202012Validator.check_schema(schema)
    refs = [node["$ref"] for _, node in walk(schema) if "$ref" in node]
    assert refs and all(ref.startswith("#/$defs/") and ref[8:] in schema["$defs"] for ref in refs)


def test_the_game_schema_lists_its_names_for_completion():
    names = get_ruleset("aa-revised").names()
    orders = schema_data("orders", "aa-revised", names)
    defs = orders["$defs"]
    assert {"germany", "Germany"} <= set(defs["power"]["enum"])
    assert {"infantry", "inf", "tank", "armour"} <= set(defs["unit_type"]["enum"])
    assert {"West Russia", "W Russia", "SZ 5", "Karelia"} <= set(defs["space"]["enum"])
    assert {"jet_fighters", "Jet Fighters"} <= set(defs["development"]["enum"])
    assert schema_data("turn", "aa-revised", names)["$defs"]["ruleset"]["enum"] == ["aa-revised"]
    # without the game's names, the family's schema names no spaces
    assert "enum" not in schema_data("orders", package=get_ruleset("aa-revised").schema_package)["$defs"]["space"]


def test_a_game_schema_needs_its_game():
    result = CliRunner().invoke(app, ["schema", "orders"])
    assert result.exit_code == 1 and "the orders schema belongs to a game: name it with --ruleset" in result.output


def test_an_unknown_ruleset_prints_no_schema():
    result = CliRunner().invoke(app, ["schema", "orders", "--ruleset", "chess"])
    assert result.exit_code == 1
    assert "unknown ruleset 'chess'" in result.output and result.stdout == ""


@pytest.mark.parametrize("ruleset", GAMES)
@pytest.mark.parametrize("name", ["turn", *GAME_SCHEMAS])
@pytest.mark.parametrize("form", ["file", "generic", "game"])
def test_check_jsonschema_accepts_the_example_game(name, form, ruleset, tmp_path):
    """check-jsonschema, offline: the files beside each other, and the printed schemas alone."""
    package = get_ruleset(ruleset).schema_package
    if form == "file":
        folder = ROOT / ("schemas" if name == "turn" else package.replace(".", "/"))
        schema = folder / f"{name}.schema.json"
    else:
        schema = tmp_path / f"{name}.json"
        game = (ruleset, get_ruleset(ruleset).names()) if form == "game" else (None, None)
        schema.write_text(json.dumps(schema_data(name, *game, package=package)), encoding="utf-8")
    inputs = sorted(str(p) for p in GAMES[ruleset].glob(FILES[name]))
    assert inputs
    done = subprocess.run([sys.executable, "-m", "check_jsonschema", "--schemafile", str(schema), *inputs],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_check_jsonschema_refuses_a_misspelt_space_with_the_game_schema(tmp_path):
    schema = tmp_path / "orders.json"
    schema.write_text(json.dumps(schema_data("orders", "aa-revised", get_ruleset("aa-revised").names())),
                      encoding="utf-8")
    orders = tmp_path / "orders.yaml"
    orders.write_text("power: germany\ncombat_move:\n  - {units: {tank: 1}, from: Karelai}\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "check_jsonschema", "--schemafile", str(schema), str(orders)],
                          capture_output=True, text=True)
    assert done.returncode == 1 and "Karelai" in done.stdout + done.stderr


def _problems(ruleset: str, text: str) -> list[str]:
    package = get_ruleset(ruleset).schema_package
    return [f"{p.field}: {p.message}" for p in validate("orders", parse_document(text, "o.yaml"), package)]


def test_a_wrong_shape_is_answered_with_the_expected_form_and_an_example():
    assert _problems("aa-revised", "power: germany\ncasualty_order: {infantry: 2}\n"
                                   "combat_move:\n- units: [tank]\n  from: Poland\n  path: Ukraine\n") == [
        "casualty_order: expected a list such as `[infantry, artillery, tank]`; got a mapping",
        "combat_move[0].units: expected a mapping such as `{infantry: 3, tank: 1}`; got a list",
        "combat_move[0].path: expected a list such as `[Caucasus, Ukraine]`; got `Ukraine`"]


def test_a_choice_of_forms_lists_each_form_not_schema_jargon():
    space, target = _problems("qmg", "country: germany\nplay: {card: Land Battle, space: {Ukraine: 1}, target: 3}\n")
    assert space == "play.space: expected text such as `Ukraine`; or a list such as `[Ukraine, Western Europe]`; " \
                    "got a mapping"
    assert target.startswith("play.target: expected one of germany, united_kingdom, japan,")
    assert target.endswith("; or a list such as `[germany, united_kingdom]`; got `3`")
    # the form was right (a list): the message names what inside it was wrong
    inner, = _problems("qmg", "country: germany\nplay: {card: Land Battle, space: Ukraine, target: [germany, 3]}\n")
    assert inner.startswith("play.target[1]: expected one of germany, ") and inner.endswith("; got `3`")
    assert not any("given schemas" in p for p in _problems("qmg", "country: germany\nplay: {space: 3, target: {}}\n"))


def test_data_found_valid_is_not_checked_again_but_problems_always_are(monkeypatch, tmp_path):
    monkeypatch.setenv("PBEM_CACHE_DIR", str(tmp_path))
    package = get_ruleset("qmg").schema_package
    good = parse_document("country: germany\nsetup_discard: [Sea Battle, Land Battle, Land Battle]\n", "o.yaml")
    bad = parse_document("country: germany\nsetup_discard: Sea Battle\n", "o.yaml")
    assert validate("orders", good, package) == [] and validate("orders", bad, package) != []

    def checked(*args):
        raise AssertionError("checked again")
    monkeypatch.setattr(schemas, "_validator", checked)
    assert validate("orders", good, package) == []
    with pytest.raises(AssertionError):  # never kept: each time the problems are found and told
        validate("orders", bad, package)
    with pytest.raises(AssertionError):  # the same data against another schema
        validate("standing-orders", good, package)
    with pytest.raises(AssertionError):  # a key that JSON would write alike
        validate("orders", parse_document("1: germany\n", "o.yaml"), package)
    assert schemas._verdict_key("orders", package, {1: "x"}) != schemas._verdict_key("orders", package, {"1": "x"})
