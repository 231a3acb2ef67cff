"""Write examples/undaunted-stalingrad: scenario #011 played by email to its end, the campaign step
into the next scenario, and that scenario's first bids.

Run from the repository's top: `python tools/make_undaunted_example.py`. Round 1 plays the
rulebook's example of play (seed l.784-815): the game's secret was searched (sha256 of "pbem
undaunted example N" for N = 1, 2, ...) until the opening deal gives the Soviets Scout, Machine
Gunner (A) and Fog of War beside a higher bid than the Germans', who hold Machine Gunner (A),
Squad Leader (B) and Fog of War, with Rifleman (A) on top of the Soviet deck. After round 1 each
side's orders are written from its own view of the state by the steady players of
tests/undaunted_players.py. Every exchange is adjudicated with `pbem adjudicate`, as a moderator
would; the example is the same on every run.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import yaml
from typer.testing import CliRunner

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from pbem.cli import app  # noqa: E402
from pbem.rulesets import get_ruleset  # noqa: E402
from tests.undaunted_players import steady_orders  # noqa: E402

GAME = Path("examples/undaunted-stalingrad")
SECRET = "8144edd2ffae29edeaceea36389a5f53a18c37fcf731dfdb7660b4c85e304c96"  # N = 10763
RULESET = get_ruleset("undaunted-stalingrad")
STANDING = {
    "soviet": {"side": "soviet", "casualty_preference": ["reservist", "regular", "upgraded"],
               "mine_push": ["202", "203"], "draw_deck_preference": ["upgraded", "regular", "reservist"]},
    "german": {"side": "german", "casualty_preference": ["reservist", "regular", "upgraded"]},
}


def pbem(*args: str) -> str:
    result = CliRunner().invoke(app, list(args))
    if result.exit_code != 0:
        raise SystemExit(f"pbem {' '.join(args)} failed:\n{result.output}")
    return result.output


def write(path: Path, data: dict) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return f"../{path.relative_to(GAME)}"


def labelled(state: dict, side: str) -> dict[str, str]:
    return {RULESET.pack.cards[c].label: c for c in state["sides"][side]["hand"]}


def example_of_play(state: dict, side: str, exchange: int) -> dict | None:
    """Round 1 as the rulebook tells it; None for the exchanges it does not tell."""
    hand = labelled(state, side)
    if state["phase"] == "bid":
        told = ("Machine Gunner (A)", "Fog of War", "Squad Leader (B)", "Scout (A)", "Scout (B)")
        return {"side": side, "bid": next(c for name, c in hand.items() if name not in told)}
    scout = hand.get("Scout (A)") or hand.get("Scout (B)")
    if side == "soviet" and scout:  # Recon away the Fog of War, then look at the draw before going on
        return {"side": side, "plays": [{"card": scout, "action": "recon"}], "await_report": True}
    if side == "soviet":
        return {"side": side, "plays": [{"card": hand["Machine Gunner (A)"], "action": "suppress", "target": "MG-A"},
                                        {"card": hand["Rifleman (A)"], "action": "move", "to": "504-A"}]}
    machine_gunners = state["units"]["german"]["MG-A"]
    first = {"card": hand["Machine Gunner (A)"], "use": "ready"} if machine_gunners["suppressed"] else \
        {"card": hand["Machine Gunner (A)"], "action": "suppress", "target": "MG-A"}
    return {"side": side, "plays": [first, {"card": hand["Squad Leader (B)"], "action": "bolster",
                                            "cards": ["Rifleman (B)", "Machine Gunner (B)"]}]}


def main() -> None:
    if GAME.exists():
        shutil.rmtree(GAME)
    secret_file = Path("/tmp/undaunted-example-secret.yaml")
    secret_file.write_text(yaml.safe_dump({"secret": SECRET, "chain_length": 1000}), encoding="utf-8")
    pbem("new", "undaunted-stalingrad", str(GAME), "--game", "Stalingrad by email", "--secret", str(secret_file))
    standing = {side: write(GAME / "standing" / f"{side}.yaml", data) for side, data in STANDING.items()}
    state_path, turn = "../start/state.yaml", 1
    while True:
        state = yaml.safe_load((GAME / "turns" / state_path).resolve().read_text(encoding="utf-8"))
        awaited = RULESET.awaiting(state)
        if not awaited or state["campaign"]["scenarios"] and state["phase"] == "turn":
            break  # the next scenario's bids are in: the example ends there
        told = state["scenario"] == "011" and state["round"] == 1
        if state["phase"] == "bid":
            name = f"{turn:02d}-{state['scenario']}-r{state['round']}-bids"
            orders = {}
            for side in awaited:
                hand = sorted(state["sides"][side]["hand"], key=lambda c: (-RULESET.pack.cards[c].initiative, c))
                bid = example_of_play(state, side, turn) if told else \
                    {"side": side, "bid": hand[-1]} if hand else {"side": side}
                orders[side] = write(GAME / "orders" / f"{name}-{side}.yaml", bid)
        else:
            side = awaited[0]
            name = f"{turn:02d}-{state['scenario']}-r{state['round']}-{side}"
            data = example_of_play(state, side, turn) if told else \
                steady_orders(RULESET.pack, RULESET.view(state, side), side)
            orders = write(GAME / "orders" / f"{name}.yaml", data)
        turn_file = {"ruleset": "undaunted-stalingrad", "state": state_path, "orders": orders}
        if state["phase"] == "turn":
            turn_file["standing_orders"] = {s: p for s, p in standing.items() if s not in awaited}
        turn_file |= {"seed": pbem("seed", str(GAME), str(turn)).strip().splitlines()[-1], "output": f"../{name}"}
        write(GAME / "turns" / f"{name}.yaml", turn_file)
        pbem("adjudicate", str(GAME / "turns" / f"{name}.yaml"))
        state_path, turn = f"../{name}/state.yaml", turn + 1
    print(f"{turn - 1} exchanges written to {GAME}")


if __name__ == "__main__":
    main()
