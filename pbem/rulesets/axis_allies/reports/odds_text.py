"""`pbem odds` in words: the plain data of `Ruleset.odds` laid out for a terminal."""

from __future__ import annotations

from typing import Any, Mapping

from pbem.core.words import Words, percent


def _expected(w: Words, units: Mapping[str, float]) -> str:
    """{infantry: 2.1, tank: 0} -> `2.10 infantry, 0.00 tanks`."""
    return ", ".join(f"{n:.2f} {w.unit(u, 1 if n == 1 else 2)}" for u, n in units.items()) or "nothing"


def _bound(bound: float) -> str:
    """What the exact method's error bound means for the figures shown (percentages of one decimal)."""
    if not bound:
        return ", over every die of every round"
    if bound < 0.0005:
        return (f": states less likely than 1e-18 were left out, {bound:.1e} in all, so every figure "
                "is exact to the digits shown")
    return f": states less likely than 1e-18 were left out, so any chance may be up to {percent(bound)} higher"


def odds_text(data: dict[str, Any], w: Words) -> str:
    """The odds of one battle in the game's words `w`: who wins, what is left, what is lost, the
    likeliest outcomes."""
    att, dfn = w.power(data["attacker"]), w.power(data["defender"])
    if data["method"] == "exact":
        method = f"exact{_bound(data.get('error_bound', 0.0))}"
    else:
        method = (f"simulation of {data['runs']:,} battles (seed {data['seed']}); P({att} wins) "
                  f"±{100 * data['attacker_win_stderr']:.2f} points (one standard error)")
    chances = [(f"{att} wins", percent(data["attacker_win"]))]
    if data.get("attacker_captures") is not None:
        chances.append(("  and takes the territory", percent(data["attacker_captures"])))
    chances += [(f"{dfn} holds", percent(data["defender_win"])), ("both wiped out", percent(data["draw"]))]
    if data.get("retreat") is not None:
        chances.append((f"{att} retreats", percent(data["retreat"])))
    chances.append(("rounds on average", f"{data['expected_rounds']:.2f}"))
    width = max(len(label) for label, _ in chances)
    lines = [f"{att} attacks {dfn}: {data['kind'].replace('_', ' ')} battle", ""]
    lines += [f"  {label:<{width}}  {value:>7}" for label, value in chances]
    lines += ["", "Expected survivors",
              f"  {att}: {_expected(w, data['attacker_survivors'])}",
              f"  {dfn}: {_expected(w, data['defender_survivors'])}", "",
              f"Expected IPC lost: {att} {data['attacker_ipc_lost']:.1f}, {dfn} {data['defender_ipc_lost']:.1f}", "",
              "Most likely outcomes (units left, retreated and submerged ones included)"]
    winners = {"attacker": f"{att} wins", "defender": f"{dfn} holds", "draw": "both wiped out"}
    wide = max(map(len, winners.values()))
    for o in data["outcomes"]:
        lines.append(f"  {percent(o['probability']):>7}  {winners[o['winner']]:<{wide}}  "
                     f"{att}: {w.units(o['attackers'])}; {dfn}: {w.units(o['defenders'])}")
    lines += ["", f"Method: {method}"]
    return "\n".join(lines) + "\n"
