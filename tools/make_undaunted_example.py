"""Write examples/undaunted-stalingrad: scenario #011 played by email to its end, the campaign step
into the next scenario, and that scenario's first bids.

Run from the repository's top: `python tools/make_undaunted_example.py`. Each side's orders are
written from its own view of the state by the steady players of tests/undaunted_players.py, but
the Soviet first turn, which plays the rulebook's example of play (Recon, then after the report
Suppress and Move), and the German standing orders; every exchange is adjudicated with `pbem
adjudicate`, as a moderator would. The game's secret is fixed, so the example is the same on
every run.
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
SECRET = "7e1d" * 16
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


def first_soviet_turn(state: dict) -> list[dict]:
    """The example of play (seed l.792-805) as far as the dealt hand allows, in two exchanges."""
    hand = {RULESET.pack.cards[c].label: c for c in state["sides"]["soviet"]["hand"]}
    plays = [{"card": hand[name], "action": "recon"} for name in ("Scout (A)", "Scout (B)") if name in hand][:1]
    return [{"side": "soviet", "plays": plays, "await_report": True}] if plays else []


def main() -> None:
    if GAME.exists():
        shutil.rmtree(GAME)
    secret_file = Path("/tmp/undaunted-example-secret.yaml")
    secret_file.write_text(yaml.safe_dump({"secret": SECRET, "chain_length": 1000}), encoding="utf-8")
    pbem("new", "undaunted-stalingrad", str(GAME), "--game", "Stalingrad by email", "--secret", str(secret_file))
    standing = {side: write(GAME / "standing" / f"{side}.yaml", data) for side, data in STANDING.items()}
    state_path, turn, scripted = "../start/state.yaml", 1, None
    while True:
        state = yaml.safe_load((GAME / "turns" / state_path).resolve().read_text(encoding="utf-8"))
        awaited = RULESET.awaiting(state)
        if not awaited or state["campaign"]["scenarios"] and state["phase"] == "turn":
            break  # the next scenario's bids are in: the example ends there
        if state["phase"] == "bid":
            name = f"{turn:02d}-{state['scenario']}-r{state['round']}-bids"
            orders = {}
            for side in awaited:
                hand = sorted(state["sides"][side]["hand"], key=lambda c: (-RULESET.pack.cards[c].initiative, c))
                bid = {"side": side, "bid": hand[-1]} if hand else {"side": side}
                orders[side] = write(GAME / "orders" / f"{name}-{side}.yaml", bid)
        else:
            side = awaited[0]
            name = f"{turn:02d}-{state['scenario']}-r{state['round']}-{side}"
            if scripted is None and side == "soviet":
                scripted = first_soviet_turn(state)
            if scripted:
                data = scripted.pop(0)
            else:
                data = steady_orders(RULESET.pack, RULESET.view(state, side), side)
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
