"""Where things live in a game folder, and how to find the game folder a file belongs to.

    GAME/game.yaml          public: ruleset, options, the dice commitment published at the start
    GAME/secret.yaml        the moderator's secret that every turn seed grows from; keep it private
    GAME/reveal.yaml        a game with hidden cards: the hidden key, published when the game ends
    GAME/start/state.yaml   the opening position
    GAME/turns/*.yaml       one turn file per turn played; each names its inputs and output folder
    GAME/inbox/, standing/  orders received and standing orders (`pbem receive`, `pbem next`; moderator.py)
    GAME/players.yaml       a game run by mail: who plays what, passwords (hashed), deadlines (players.py)
    GAME/mail/              the mail loop's journal, clocks, outbox and log (pbem/mail/loop.py)
"""

from __future__ import annotations

from pathlib import Path

GAME_FILE = "game.yaml"
SECRET_FILE = "secret.yaml"
REVEAL_FILE = "reveal.yaml"
STATE_FILE = "state.yaml"
START_STATE = Path("start") / STATE_FILE
TURNS_DIR = "turns"
STANDING = "standing"
MAIL_DIR = "mail"
TURN_CLOCKS = Path(MAIL_DIR) / "turns.json"
"""A game run by mail: when each game turn began (its report was mailed), and the reminders sent."""
EVENTS_FILE = "events.jsonl"
REPORTS = ("report.md", "report.bbcode", "report.html")
DRAWN = ("map.png", "map-forum.png", "charts.png")
OUTPUT_FILES = (STATE_FILE, EVENTS_FILE, *REPORTS, *DRAWN)
"""Everything a turn writes (with a private report per role, `private_reports`): an output folder
holds these and nothing else."""


def drawn(name: str) -> bool:
    """Whether a turn's output is a drawing or an HTML report (which embeds the drawings).

    Drawn by matplotlib, whose output may differ between the versions pbem allows, and changed by
    every change of a drawing's style: `verify` never compares a drawing's bytes (an HTML report
    only without its drawings) and does not need these files, so that the examples need not commit
    them; `pbem redraw` makes them again from the facts."""
    return name in DRAWN or name.endswith(".html")


def private_reports(role: str) -> tuple[str, ...]:
    """The names of one role's private reports, written beside the public ones."""
    return tuple(name.replace("report.", f"report-{role}.") for name in REPORTS)


def game_folder_of(path: Path | str) -> Path | None:
    """The nearest folder at or above `path`'s folder that holds a game.yaml, resolved; None when
    the file belongs to no game folder (a turn run by hand outside one)."""
    folder = Path(path).resolve().parent
    for candidate in (folder, *folder.parents):
        if (candidate / GAME_FILE).is_file():
            return candidate
    return None
