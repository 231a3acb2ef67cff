"""Reading input files: YAML errors and schema errors name the file, the line and the field."""

import pytest

from pbem.core.errors import InputError
from pbem.core.schemas import SCHEMA_NAMES, schema_text, validate
from pbem.core.yamlio import dump_yaml, load_document, parse_document

ORDERS = """\
power: germany
purchase: {infantry: 2}
combat_moves:
  - units: {tank: 2}
    from: Poland
noncombat_move:
  - units: {infantry: -1}
    from: Germany
    frm: x
"""


def test_lines_are_remembered_for_every_value():
    doc = parse_document(ORDERS, "orders.yaml")
    assert doc.line(("purchase", "infantry")) == 2
    assert doc.line(("noncombat_move", 0, "from")) == 8
    assert doc.line(("noncombat_move", 0, "nowhere")) == 7


def test_invalid_yaml_names_file_and_line():
    with pytest.raises(InputError) as caught:
        parse_document("power: germany\npurchase: {infantry: 2\n", "bad.yaml")
    problem = caught.value.problems[0]
    assert problem.file == "bad.yaml" and problem.line == 3 and "not valid YAML" in problem.message


def test_duplicate_keys_are_refused():
    with pytest.raises(InputError) as caught:
        parse_document("power: germany\npower: japan\n", "dup.yaml")
    assert "duplicate key" in caught.value.problems[0].message


def test_missing_file_is_an_input_error(tmp_path):
    with pytest.raises(InputError) as caught:
        load_document(tmp_path / "nope.yaml")
    assert "file not found" in str(caught.value)


def test_schema_problems_are_all_listed_with_line_and_field():
    problems = validate("orders", parse_document(ORDERS, "orders.yaml"), "pbem.rulesets.axis_allies.schemas")
    text = [str(p) for p in problems]
    assert "orders.yaml:3: combat_moves: unknown field 'combat_moves'; did you mean 'combat_move'?" in text[0]
    assert any(p.line == 7 and p.field == "noncombat_move[0].units.infantry" and "too small" in p.message
               for p in problems)
    assert any(p.line == 9 and p.field == "noncombat_move[0].frm" and "'from'" in p.message for p in problems)
    assert len(problems) == 3


@pytest.mark.parametrize("package", ["pbem.rulesets.axis_allies.schemas", "pbem.rulesets.qmg.schemas", "pbem.rulesets.undaunted.schemas"])
@pytest.mark.parametrize("name", SCHEMA_NAMES)
def test_every_schema_is_valid_json_schema(name, package):
    import json

    from jsonschema import Draft202012Validator
    Draft202012Validator.check_schema(json.loads(schema_text(name, package=package)))


def test_dump_is_canonical():
    data = {"b": {"x": 1, "y": {"z": [1, 2]}}, "a": []}
    assert dump_yaml(data) == dump_yaml(dict(data))
    assert dump_yaml(data).startswith("b:\n")
