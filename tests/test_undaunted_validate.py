"""Undaunted orders as players write them: tile numbers unquoted (issue 26)."""

from __future__ import annotations

from pathlib import Path

from pbem.core.schemas import validate
from pbem.core.yamlio import parse_document
from pbem.rulesets.undaunted import Undaunted

RULESET = Undaunted()
EXAMPLE = Path(__file__).parent.parent / "examples" / "undaunted-stalingrad"


def test_a_tile_written_as_a_number_is_a_tile() -> None:
    """`to: 504` is an integer in YAML; it names tile 504 as "504" does (it was refused as 'is not text')."""
    state = parse_document((EXAMPLE / "17-011-r6-bids" / "state.yaml").read_text(encoding="utf-8"), "state.yaml").data
    orders = parse_document("side: soviet\nplays:\n- {card: S-P-006, action: move, to: 504}\n"
                            "- {card: S-P-007, action: control}\n", "soviet.yaml")
    assert not validate("orders", orders, RULESET.schema_package)
    assert not RULESET.check_orders(state, {"soviet": orders}, {})
    assert RULESET.decisions(state, {"soviet": orders}, {})["orders"]["soviet"]["plays"][0]["to"] == "504"
