"""QMG reports read right: country names with their article and possessive, pieces with theirs, the
game's name in titles, the round a turn was played in, and both rings where a space was built in and
fought over."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from pbem.rulesets import get_ruleset
from pbem.rulesets.qmg.board_image import _at, _box, _overlap, _rings, label_places, shown_round
from pbem.rulesets.qmg.report import a, countrys, event_line, game_name, unnamed_responses
from pbem.rulesets.qmg.supply import supply_chains


def test_country_names_take_their_article_and_possessive() -> None:
    assert countrys("united_states") == "the United States'"
    assert countrys("germany") == "Germany's"
    assert countrys("soviet_union", start=True) == "The Soviet Union's"
    line = event_line({"type": "built", "country": "united_states", "by": "united_kingdom", "piece": "navy",
                       "space": "Atlantic"})
    assert line == "The United States builds a navy in Atlantic (card of the United Kingdom)."
    assert a("army") == "an army"


def test_titles_name_the_game_not_the_ruleset_id() -> None:
    assert game_name({"game": "qmg", "ruleset": "qmg"}) == "Quartermaster General"
    assert game_name({"game": "Club game 3", "ruleset": "qmg"}) == "Club game 3"


def test_the_round_bar_shows_the_round_the_turn_ended() -> None:
    state = {"round": 8}
    assert shown_round(state, [{"type": "round_end", "round": 7}]) == 7
    assert shown_round(state, [{"type": "built"}]) == 8


class _Axes:
    def __init__(self) -> None:
        self.rings: list[dict[str, Any]] = []

    def scatter(self, xs: list[float], ys: list[float], **kw: Any) -> None:
        self.rings.append(kw)


def test_a_built_ring_does_not_hide_a_battle_ring() -> None:
    axes = _Axes()
    _rings(axes, {"Ukraine": (0.0, 0.0)}, [{"type": "battle", "space": "Ukraine"},
                                           {"type": "built", "space": "Ukraine"}])
    battle, built = axes.rings
    assert battle["edgecolors"] != built["edgecolors"] and battle["s"] > built["s"]


def test_no_two_space_labels_overlap() -> None:
    board = get_ruleset("qmg").pack.board
    at = {name: _at(*space.at) for name, space in board.spaces.items()}
    labels = [(n, n, "black") for n in board.order]
    boxes = [_box(x, y, ha, va, len(n)) for (x, y, ha, va), n in zip(label_places(at, labels), board.order)]
    assert not [(board.order[i], board.order[j]) for i, b in enumerate(boxes) for j in range(i)
                if _overlap(b, boxes[j])]


def test_each_supply_chain_runs_through_own_pieces_to_a_supply_source() -> None:
    board = get_ruleset("qmg").pack.board
    state = yaml.safe_load((Path(__file__).parents[1] / "examples/qmg/42-r7-united_states/state.yaml").read_text())
    pieces = state["pieces"]
    for country in ("germany", "united_states"):
        chains = supply_chains(board, pieces, country, state["options"])
        assert chains
        for space, chain in chains.items():
            source = chain[-1]
            assert chain[0] == space and board.spaces[source].star
            assert any(p == {"country": country, "piece": "army"} for p in pieces[source])
            assert all(any(p["country"] == country for p in pieces[s]) for s in chain)
            assert all(b in board.neighbours[a] for a, b in zip(chain, chain[1:]))


def test_a_face_down_response_no_standing_order_names_gets_a_warning() -> None:
    warned = unnamed_responses(["Counter-Offensive", "Volksturm"], {"effects": [{"card": "volksturm"}]})
    assert len(warned) == 1 and "Counter-Offensive" in warned[0] and "never used" in warned[0]
    assert unnamed_responses(["Volksturm"], None) == []
