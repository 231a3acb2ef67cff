"""A mail from anyone never crashes the referee: the real orders, standing orders and players files
of the four example games, mutated (keys dropped, types changed, names of other spaces, cards and
roles swapped in, huge numbers, deep nesting, control characters, bytes flipped, text cut short),
each give a list of problems, or check clean and then play, never an exception.

Each file takes the path the moderator's tools take: `receive` and `check` for orders, the schema
and `check_standing_orders` then `check_orders` for standing orders, `read_players` for a players
file; a file that checks clean is also turned into its decisions and resolved."""

from __future__ import annotations

import copy
import shutil
import unicodedata
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Callable

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.core.dice import DiceStream
from pbem.core.errors import CONTROL_CHARACTERS, InputError, Problem
from pbem.core.events import EventLog
from pbem.core.moderator import Position, check, receive
from pbem.core.players import PLAYERS_FILE, read_players
from pbem.core.schemas import validate
from pbem.core.turn import decisions_digest
from pbem.core.yamlio import MAX_DEPTH, Document, dump_yaml, load_document, parse_document
from pbem.rulesets import get_ruleset

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
GAMES = ("aa-revised", "aa-europe", "qmg", "undaunted-stalingrad")


def fuzz(examples: int):
    """Deterministic, so that CI runs the same files every time, and without a deadline: a turn that
    plays a big battle may take a while."""
    return settings(max_examples=examples, derandomize=True, database=None, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@dataclass(frozen=True)
class Exchange:
    """One turn of an example game: the state before it, the orders of the roles it awaits and the
    standing orders of the others, as the turn file names them."""

    game: str
    name: str
    state_path: Path
    orders: dict[str, Path]
    standing: dict[str, Path]

    @property
    def ruleset(self):
        return get_ruleset(self.game)

    @property
    def state(self) -> dict[str, Any]:
        return _document(self.state_path).data

    def docs(self, paths: dict[str, Path]) -> dict[str, Document]:
        return {role: _document(path) for role, path in paths.items()}


@cache
def _document(path: Path) -> Document:
    return load_document(path)


@cache
def exchanges(game: str) -> tuple[Exchange, ...]:
    found = []
    for turn in sorted((EXAMPLES / game / "turns").glob("*.yaml")):
        data = yaml.safe_load(turn.read_text(encoding="utf-8"))
        state_path = (turn.parent / data["state"]).resolve()
        orders = data["orders"]
        if isinstance(orders, str):  # one awaited role's file
            orders = {get_ruleset(game).awaiting(_document(state_path).data)[0]: orders}
        found.append(Exchange(game, turn.stem, state_path,
                              {role: (turn.parent / path).resolve() for role, path in orders.items()},
                              {role: (turn.parent / path).resolve()
                               for role, path in (data.get("standing_orders") or {}).items()}))
    return tuple(found)


def _strings(node: Any) -> set[str]:
    if isinstance(node, dict):
        return {k for k in node if isinstance(k, str)} | {s for v in node.values() for s in _strings(v)}
    if isinstance(node, list):
        return {s for v in node for s in _strings(v)}
    return {node} if isinstance(node, str) else set()


@cache
def vocabulary(game: str) -> st.SearchStrategy[str]:
    """Every name the game uses: a name from the wrong place is the likeliest slip of a player.
    Drawn kind by kind (the words of its orders files, each kind of spelling its ruleset reads, the
    words of its state), so that the few names of one kind (the cards) come as often as the many of
    another (the spaces)."""
    files = set()
    for exchange in exchanges(game):
        files |= {s for doc in [*exchange.docs(exchange.orders).values(), *exchange.docs(exchange.standing).values()]
                  for s in _strings(doc.data)}
    kinds = [files] + [set(spellings) for spellings in (get_ruleset(game).names() or {}).values() if spellings]
    kinds.append({s for s in _strings(exchanges(game)[0].state) if len(s) < 64})  # not its hashes
    return st.one_of([st.sampled_from(sorted(kind)) for kind in kinds])


JUNK_TEXT = ("", " ", "\x00", "\r\n", "\x1b[2J", "\u2028", "\u0085", "\u202e", "\ufeff", "ü" * 3, "💥",
             "-1", "1e309", "NaN", "null", "~", "yes", "0x10", "A" * 300)
NUMBERS = (0, -1, 1, -(10 ** 6), 2 ** 31, 2 ** 63, 10 ** 23, -(10 ** 23), 0.5, -0.0, float("inf"), float("nan"))


def junk(name: st.SearchStrategy[str]) -> st.SearchStrategy[Any]:
    scalar = st.one_of(st.none(), st.booleans(), st.sampled_from(NUMBERS), st.integers(-50, 50),
                       st.sampled_from(JUNK_TEXT), st.text(max_size=8))
    return st.one_of(name, name, scalar, st.lists(name, max_size=4), st.lists(scalar, max_size=3),
                     st.dictionaries(name, st.one_of(scalar, name), max_size=3))


def _places(node: Any, at: tuple = ()) -> list[tuple]:
    """The path to every value in `node`, itself first."""
    found = [at]
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, value in items:
        found += _places(value, at + (key,))
    return found


# a name from the wrong place is the likeliest slip, so it comes most often
MUTATIONS = ("name", "name", "name", "replace", "drop", "duplicate", "rename", "add", "nest")


@st.composite
def mutated(draw, data: Any, name: st.SearchStrategy[str], keep: str = "") -> Any:
    """`data` with one to three structural mutations, mostly one, so that most files get past the
    schema to the game's own reading; the field `keep` (the role) is kept, as a file for another
    role is refused before it is read."""
    box = [copy.deepcopy(data)]  # so that the whole document has a parent too
    for _ in range(draw(st.sampled_from((1, 1, 1, 2, 3)))):
        how = draw(st.sampled_from(MUTATIONS))
        places = [at for at in _places(box[0], (0,)) if at[1:2] != (keep,)]
        texts = [at for at in places if isinstance(_at(box, at), str)]
        at = draw(st.sampled_from(texts if how == "name" and texts else places))
        parent = _at(box, at[:-1])
        key, node = at[-1], parent[at[-1]]
        if how == "drop" and parent is not box:
            del parent[key]
        elif how == "duplicate" and isinstance(node, list) and node:
            node.insert(draw(st.integers(0, len(node))), copy.deepcopy(draw(st.sampled_from(node))))
        elif how == "rename" and isinstance(parent, dict):
            new = draw(st.one_of(name, st.none(), st.integers(-3, 3), st.sampled_from(JUNK_TEXT)))
            parent[new] = parent.pop(key)
        elif how == "add" and isinstance(node, dict):
            node[draw(name)] = draw(junk(name))
        elif how == "name":
            parent[key] = draw(name)
        elif how == "nest":
            for _ in range(draw(st.integers(1, MAX_DEPTH + 2))):
                node = [node] if draw(st.booleans()) else {"x": node}
            parent[key] = node
        else:
            parent[key] = draw(junk(name))
    return box[0]


def _at(node: Any, at: tuple) -> Any:
    for key in at:
        node = node[key]
    return node


INSERTS = (b"\x00", b"\r", b"\n", b"\t", b"\x1b[31m", b"\xe2\x80\xa8", b"\xc2\x85", b"\xef\xbb\xbf", b"\xff\xfe",
           b"\xed\xa0\x80", b"\x80", b"&a ", b"*a ", b"!!python/object/apply:os.system ['x']", b"{", b"[", b"]",
           b": ", b"- ", b"'", b'"', b"\n  ", b"%YAML 1.1\n---\n", b"? ", b"|\n", b">-\n", b"#", b"---\n", b"...\n")


@st.composite
def garbled(draw, text: str) -> bytes:
    """`text` with one to four bytes flipped, cuts, insertions or repeats."""
    data = bytearray(text.encode("utf-8"))
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(data)))
        how = draw(st.sampled_from(("flip", "cut", "insert", "delete", "repeat")))
        if how == "flip" and i < len(data):
            data[i] ^= draw(st.integers(1, 255))
        elif how == "cut":
            del data[i:]
        elif how == "delete":
            del data[i:i + draw(st.integers(1, 40))]
        elif how == "repeat":
            data[i:i] = data[i:i + draw(st.integers(1, 80))]
        else:
            data[i:i] = draw(st.sampled_from(INSERTS))
    return bytes(data)


# ---------------------------------------------------------------------------------------------
# the moderator's path


@pytest.fixture(scope="module")
def position_of(tmp_path_factory) -> Callable[[Exchange], Position]:
    """A game folder for each exchange: its state and the standing orders its turn file names, where
    `check` and `receive` look for them."""
    made: dict[tuple[str, str], Position] = {}

    def position(exchange: Exchange) -> Position:
        key = (exchange.game, exchange.name)
        if key not in made:
            folder = tmp_path_factory.mktemp(f"{exchange.game}-{exchange.name}")
            (folder / "standing").mkdir()
            for role, path in exchange.standing.items():
                shutil.copy(path, folder / "standing" / f"{role}.yaml")
            made[key] = Position(folder, exchange.state_path, exchange.state, exchange.ruleset, None)
        return made[key]
    return position


def located(problems: list[Problem]) -> list[Problem]:
    assert problems and all(isinstance(p, Problem) and p.file for p in problems), problems
    return problems


def play(exchange: Exchange, submissions: dict[str, Document], standing: dict[str, Document]) -> None:
    """A turn whose files check clean: its decisions hash, as the dice are bound to them, and it resolves."""
    ruleset, state = exchange.ruleset, exchange.state
    submissions = {role: submissions[role] for role in ruleset.awaiting(state)}
    decisions_digest(state, submissions, standing)
    hidden = DiceStream("0" * 64, "fuzz-hidden") if ruleset.hidden_information else None
    ruleset.resolve(copy.deepcopy(state), submissions, standing, DiceStream("1" * 64, "fuzz"), EventLog(), hidden)


def survived(what: str, text: str | bytes, run: Callable[[], None]) -> None:
    """Run one mutated file; any exception but `InputError` fails the test with the file shown."""
    try:
        run()
    except InputError as exc:
        located(exc.problems)
    except Exception as exc:  # noqa: BLE001 - the test's point: show the input that crashed
        shown = text if isinstance(text, str) else repr(text)
        pytest.fail(f"{type(exc).__name__}: {exc} from {what}:\n{shown}", pytrace=False)


@st.composite
def an_order(draw, game: str) -> tuple[Exchange, str]:
    exchange = draw(st.sampled_from(exchanges(game)))
    return exchange, draw(st.sampled_from(sorted(exchange.orders)))


@st.composite
def a_standing(draw, game: str) -> tuple[Exchange, str]:
    exchange = draw(st.sampled_from([e for e in exchanges(game) if e.standing]))
    return exchange, draw(st.sampled_from(sorted(exchange.standing)))


def orders_checked(position: Position, exchange: Exchange, role: str, doc: Document) -> None:
    problems = check(position, role, doc)
    if problems:
        located(problems)
    else:
        play(exchange, exchange.docs(exchange.orders) | {role: doc}, exchange.docs(exchange.standing))


def standing_checked(exchange: Exchange, role: str, doc: Document) -> None:
    ruleset = exchange.ruleset
    problems = validate("standing-orders", doc, ruleset.schema_package) or \
        ruleset.check_standing_orders(exchange.state, doc)
    if problems:
        located(problems)
        return
    if doc.data.get(ruleset.role_field) != role:
        return  # the turn file's role check refuses it before the ruleset sees it
    submissions, standing = exchange.docs(exchange.orders), exchange.docs(exchange.standing) | {role: doc}
    problems = ruleset.check_orders(exchange.state, submissions, standing)
    if problems:
        located(problems)
    else:
        play(exchange, submissions, standing)


@pytest.mark.parametrize("game, examples", [("aa-revised", 600), ("aa-europe", 600), ("qmg", 800),
                                            ("undaunted-stalingrad", 800)])
def test_mutated_orders_are_checked_or_played(game, examples, position_of):
    @fuzz(examples)
    @given(an_order(game), st.data())
    def run(picked, data):
        exchange, role = picked
        position = position_of(exchange)
        text = dump_yaml(data.draw(mutated(exchange.docs(exchange.orders)[role].data, vocabulary(game),
                                                exchange.ruleset.role_field)))
        survived(f"{exchange.name} orders of {role}", text, lambda: orders_checked(
            position, exchange, role, parse_document(text, "orders.yaml")))
    run()


@pytest.mark.parametrize("game, examples", [("aa-revised", 350), ("aa-europe", 350), ("qmg", 450),
                                            ("undaunted-stalingrad", 450)])
def test_garbled_orders_are_received_or_refused(game, examples, position_of):
    @fuzz(examples)
    @given(an_order(game), st.data())
    def run(picked, data):
        exchange, role = picked
        position = position_of(exchange)
        raw = data.draw(garbled(exchange.orders[role].read_text(encoding="utf-8")))
        text = raw.decode("utf-8", errors="replace")  # as the mail reader decodes a part

        def received() -> None:
            stored, named, problems = receive(position, text, "mail", role)
            stored.unlink()  # the next mutant is a first version again
            if problems:
                located(problems)
        survived(f"{exchange.name} orders of {role}", raw, received)
    run()


@pytest.mark.parametrize("game, examples", [("aa-revised", 400), ("aa-europe", 400), ("qmg", 500),
                                            ("undaunted-stalingrad", 500)])
def test_mutated_standing_orders_are_checked_or_played(game, examples):
    @fuzz(examples)
    @given(a_standing(game), st.data())
    def run(picked, data):
        exchange, role = picked
        text = dump_yaml(data.draw(mutated(exchange.docs(exchange.standing)[role].data, vocabulary(game),
                                                exchange.ruleset.role_field)))
        survived(f"{exchange.name} standing orders of {role}", text,
                 lambda: standing_checked(exchange, role, parse_document(text, "standing.yaml")))
    run()


@pytest.mark.parametrize("game, examples", [("aa-revised", 250), ("aa-europe", 250), ("qmg", 250),
                                            ("undaunted-stalingrad", 250)])
def test_garbled_standing_orders_are_read_or_refused(game, examples, tmp_path_factory):
    folder = tmp_path_factory.mktemp(f"{game}-standing")

    @fuzz(examples)
    @given(a_standing(game), st.data())
    def run(picked, data):
        exchange, role = picked
        raw = data.draw(garbled(exchange.standing[role].read_text(encoding="utf-8")))
        path = folder / f"{role}.yaml"
        path.write_bytes(raw)
        survived(f"{exchange.name} standing orders of {role}", raw,
                 lambda: standing_checked(exchange, role, load_document(path)))
    run()


# ---------------------------------------------------------------------------------------------
# players files


def players_file(roles: tuple[str, ...]) -> dict[str, Any]:
    """A good players file of a game: two players sharing its roles."""
    return {"moderator": {"name": "Mo", "address": "mo@example.org"},
            "players": [{"name": "Alice", "address": "alice@example.org", "roles": list(roles[::2])},
                        {"name": "Bob Ä. Ñ", "address": "bob@example.org", "roles": list(roles[1::2]),
                         "password": "sha256:" + "0" * 16 + ":" + "f" * 64}],
            "deadline": {"hours": 48, "grace_hours": 6, "weekdays": ["mon", "fri"], "reminders": [24, 2]},
            "missing_orders": "standing"}


NAME_BREAKERS = ("\n", "\r", "\x00", "\x1b", "\x7f", "\x85", "\u2028", "\u2029", "\u202e", "\ufeff", "\u200b",
                 "Mo\r\nBcc: eve@example.org", "alice@example.org\n", "Bob\u2028")


def one_line(text: str) -> bool:
    """Nothing that would end a mail header or act on a terminal."""
    return not any(ord(c) in CONTROL_CHARACTERS or unicodedata.category(c) in ("Zl", "Zp") for c in text)


@pytest.mark.parametrize("game", GAMES)
def test_mutated_players_files_are_read_or_refused(game, tmp_path_factory):
    roles = get_ruleset(game).powers
    good = players_file(roles)
    words = st.sampled_from(sorted(_strings(good) | set(roles) | set(NAME_BREAKERS)))
    folder = tmp_path_factory.mktemp(f"{game}-players")

    def read(raw: bytes) -> None:
        (folder / PLAYERS_FILE).write_bytes(raw)
        players = read_players(folder, roles)
        names = [players.moderator_name, players.moderator_address] + \
            [text for p in players.players for text in (p.name, p.address)]
        assert all(one_line(text) for text in names), names  # they go into mail headers

    @fuzz(200)
    @given(st.data())
    def run(data):
        if data.draw(st.booleans()):
            raw = dump_yaml(data.draw(mutated(good, words))).encode("utf-8")
        else:
            raw = data.draw(garbled(dump_yaml(good)))
        survived(f"the players file of {game}", raw, lambda: read(raw))
    run()
