"""Playing a country's turn: the five steps, the card effects, and the trigger windows in which
every country may use its Responses and Status cards (seed l.790-950).

A window never waits for anyone: each country's uses come from its entries, the turn orders' for
the country whose turn it is and the standing orders' for every other. Where no entry covers a
condition the card is not used (digest §8.2, option a), so a pause can never tell anyone that a
Response exists.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Iterator

from pbem.core.events import EventLog
from pbem.rulesets.qmg.content import BASIC_TYPES, COUNTRIES, PIECES, TEAMS, Card, Pack, other_team
from pbem.rulesets.qmg.supply import axis_armies, supplied_spaces

HAND_SIZE = 7
DONE = {"built", "recruited", "declared_built", "battle", "card_played", "response_laid", "effect_used",
        "piece_withdrawn", "cards_discarded", "card_shown"}
"""The events that say an order item did something."""
SUPPLY_READINGS = {
    "portless_navy_links": {True: "a navy without a port still links its country's supply chain",
                            False: "a navy without a port breaks its country's supply chain"},
    "straits_in_supply": {True: "a strait open to a team joins its seas for that team's supply chains",
                          False: "a strait joins its seas for battles and builds only, not for supply"},
}


@dataclass
class Turn:
    """One country's turn being played: the state it changes and what the turn has used so far."""

    pack: Pack
    state: dict[str, Any]
    log: EventLog
    active: str
    entries: dict[str, list[dict[str, Any]]]
    """Each country's effect entries: the active country's from its orders, the others' standing."""
    options: dict[str, Any]
    protected: set[tuple[str, str, str]] = field(default_factory=set)
    used: set[tuple[str, str, Any]] = field(default_factory=set)
    waited: set[tuple[str, int, int]] = field(default_factory=set)
    """The `later` entries that let their first chance in a window pass: (country, entry, window)."""
    forced: dict[str, list[str]] = field(default_factory=dict)
    """Each country's standing choice of the cards it loses first when forced to discard."""
    laying: str | None = None
    """The Status or Response laid in the current Play step: not usable within that step."""
    using: list[str] = field(default_factory=list)
    """The cards whose effects are being resolved, innermost last."""
    events: int = 0
    rulings: set[tuple[str, str | None]] = field(default_factory=set)
    consulting: str | None = None
    """The country whose hidden cards and orders are deciding something now (see `secretly`)."""
    uses: dict[int, int] = field(default_factory=dict)
    """How many times each entry of the active country's orders (by its place) was used."""
    items: list[tuple[str, str]] = field(default_factory=list)
    """The items of orders being carried out, innermost last: (country, field)."""
    outcomes: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    """What each item's country did while it was carried out, by the item's field."""

    # ---------------------------------------------------------------- zones and pieces
    def zones(self, country: str) -> dict[str, Any]:
        return self.state["countries"][country]

    def card(self, country: str, instance: str) -> Card:
        return self.pack.card(country, instance)

    def pieces_at(self, space: str) -> list[dict[str, str]]:
        return self.state["pieces"].get(space, [])

    def piece_of(self, country: str, space: str) -> dict[str, str] | None:
        return next((p for p in self.pieces_at(space) if p["country"] == country), None)

    def supplied(self, country: str, say: bool = True) -> set[str]:
        """Where `country`'s pieces are supplied; the supply options that decide it now are said
        (unless `say` is False: a question about a piece only imagined on the board)."""
        supplied = supplied_spaces(self.pack.board, self.state["pieces"], country, self.options)
        for option, reading in SUPPLY_READINGS.items():
            if say and supplied != supplied_spaces(self.pack.board, self.state["pieces"], country,
                                                   {**self.options, option: not self.options[option]}):
                self.ruling(option, reading[self.options[option]] + f": it decides where {country} is supplied")
        return supplied

    def neighbours(self, space: str, country: str) -> frozenset[str]:
        return self.pack.board.neighbours_for(space, TEAMS[country], axis_armies(self.state["pieces"]))

    # ---------------------------------------------------------------- what the turn tells whom
    def note(self, type: str, secret_of: str | None = None, **fields: Any) -> None:
        """Log an event. One that speaks of a country's hidden cards or orders (`secret_of`), or is
        logged while they decide something (`secretly`), is told to that country alone: whether
        any other audience learns it must never depend on them (seed l.556-577)."""
        if self.log is None:  # a Turn that only answers what is legal (orders.py) tells nobody anything
            return
        owner = secret_of or self.consulting
        self.log.add(type, **({"to": [owner]} if owner else {}), **fields)
        if self.items and fields.get("country") == self.items[-1][0]:
            self.outcomes[self.items[-1][1]].append({"type": type, **fields})

    @contextmanager
    def secretly(self, country: str) -> Iterator[None]:
        """While `country`'s face-down cards and orders decide something (whether an effect can be
        used), every ruling and default that decision logs is private to `country`: a public line
        would tell the others that it holds the card or the order."""
        outer, self.consulting = self.consulting, country
        try:
            yield
        finally:
            self.consulting = outer

    def ruling(self, name: str, text: str) -> None:
        """Say in the report that a ruling decided something (once a turn for each ruling and
        audience: a private ruling must not keep the same ruling from the public later)."""
        if (name, self.consulting) not in self.rulings:
            self.rulings.add((name, self.consulting))
            self.note("ruling", name=name, text=text)

    @contextmanager
    def carrying_out(self, country: str, item: str) -> Iterator[None]:
        """Carry out one item of `country`'s orders: what `country` does meanwhile, outside the
        items carried out within it (an effect entry used during the Play step), is that item's."""
        self.items.append((country, item))
        self.outcomes.setdefault(item, [])
        try:
            yield
        finally:
            self.items.pop()

    def account(self, country: str, item: str) -> None:
        """Say to `country` alone what became of an item of its orders (its orders are its own, seed
        l.556-577): not carried out, or in part, where an action it ordered failed or a default took
        the place of what it named."""
        events = self.outcomes.get(item, [])
        said = [e for e in events if e["type"] in ("action_failed", "default_applied")]
        done = any(e["type"] in DONE for e in events)
        result = "partly carried out" if said and done else "not carried out" if said else "carried out"
        self.note("order_result", secret_of=country, country=country, order=item, result=result,
                  why="; ".join(e.get("why") or e.get("what") for e in said))

    # ---------------------------------------------------------------- victory points and discards
    def score(self, country: str, change: int, reason: str, **detail: Any) -> None:
        """Change the VP of `country`'s team; `reason` says why in a word the report explains
        (supply_spaces, deck_empty, no_card)."""
        team = TEAMS[country]
        self.state["vp"][team] += change
        if self.state["vp"][team] < 0 <= self.state["vp"][team] - change:
            self.ruling("negative_vp", f"the {team.title()}' VP fall below 0: the track goes on below it")
        self.note("vp", team=team, change=change, country=country, reason=reason, **detail,
                  total=self.state["vp"][team])

    def discard_hidden(self, country: str, cards: list[str], source: str, reason: str) -> None:
        """Cards discarded unplayed go face down to the bottom of the pile: everyone learns how
        many, only their owner which (seed l.570-577)."""
        if not cards:
            return
        self.zones(country)["discard"][:0] = [{"card": c, "face": "down"} for c in cards]
        self.note("cards_discarded", country=country, count=len(cards), source=source, reason=reason)
        self.note("cards_discarded_named", secret_of=country, country=country, source=source,
                  cards=[self.card(country, c).name for c in cards])

    def discard_from_hand(self, country: str, count: int, chosen: list[str], reason: str) -> None:
        """Discard `count` cards from hand, the `chosen` ones first; a missing hand card is the top
        card of the deck, a missing deck card costs the team 1 VP (seed l.521-552)."""
        hand = self.zones(country)["hand"]
        taken, defaulted, from_deck = discard_choice(hand, count, chosen)
        if defaulted:
            with self.secretly(country):
                self.ruling("unnamed_costs", "a discard that the orders do not name takes the last cards of the hand")
            self.note("default_applied", secret_of=country, country=country, what=f"{defaulted} card(s) to discard "
                      f"for {reason} not named in the orders or standing orders, or named but no longer in the "
                      "hand: the last cards of the hand")
        for c in taken:
            hand.remove(c)
        self.discard_hidden(country, taken, "hand", reason)
        self.discard_from_deck(country, from_deck, reason)

    def discard_from_deck(self, country: str, count: int, reason: str) -> None:
        deck = self.zones(country)["deck"]
        taken, deck[:] = deck[:count], deck[count:]
        self.discard_hidden(country, taken, "deck", reason)
        if count > len(taken):
            self.score(country, len(taken) - count, "deck_empty", cards=count - len(taken), what=reason)

    def discard_responses(self, country: str, count: int, reason: str) -> None:
        """Discard `count` of `country`'s face-down Responses, unplayed: face down to the bottom of its
        pile, unseen. Which ones is its own choice, its `forced_discards` first, then those laid
        first; with fewer on the table, only those (a card effect takes only what there is)."""
        responses = self.zones(country)["responses"]
        named = named_cards(self.pack, country, responses, self.forced.get(country))[:count]
        taken = (named + [c for c in responses if c not in named])[:count]
        if len(taken) > len(named):
            self.note("default_applied", secret_of=country, country=country, what=f"face-down Responses to discard "
                      f"for {reason} not named in the standing orders' forced_discards: those laid first")
        for c in taken:
            responses.remove(c)
        self.discard_hidden(country, taken, "responses", reason)

    def discard_played(self, country: str, instance: str) -> None:
        """A played card, or a used Response, goes face up on top of the pile, for all to see."""
        self.zones(country)["discard"].append({"card": instance, "face": "up"})

    # ---------------------------------------------------------------- legality
    def can_build(self, country: str, piece: str, space: str, how: str = "built") -> str | None:
        """Why `country` cannot build (or recruit) a `piece` in `space` now; None when it can."""
        board = self.pack.board
        if space not in board.spaces:
            return f"{space} is not a space of the board"
        kind = "land" if piece == "army" else "sea"
        if board.spaces[space].kind != kind:
            return f"{space} is a {board.spaces[space].kind} space: an {piece} goes on a {kind} space"
        on_board = sum(1 for here in self.state["pieces"].values() for p in here
                       if p["country"] == country and p["piece"] == piece)
        if on_board >= PIECES[country][piece]:
            return f"all {PIECES[country][piece]} of {country}'s {'armies' if piece == 'army' else 'navies'} " \
                "are on the board"
        if self.piece_of(country, space):
            return f"{country} already has a piece in {space}"
        if any(TEAMS[p["country"]] != TEAMS[country] for p in self.pieces_at(space)):
            return f"an enemy piece is in {space}"
        if how == "recruited":
            return None
        supplied = self.supplied(country)
        home = piece == "army" and space == board.home_of(country)
        if not home and not any(n in supplied for n in self.neighbours(space, country)):
            return f"{space} is not next to a supplied piece of {country}" + \
                ("" if piece == "navy" else " and is not its home space") + \
                (" (ruling star_space_builds: a star space too, where the piece would supply itself)"
                 if board.spaces[space].star else "")
        # placed for a moment, to ask whether it would be supplied there
        self.state["pieces"].setdefault(space, []).append({"country": country, "piece": piece})
        placed_supplied = space in self.supplied(country, say=False)
        self.take_off(country, space)
        if not placed_supplied:
            return f"an {piece} of {country} in {space} would not be supplied" + \
                (" (a navy needs a friendly army on a land space next to it)" if piece == "navy" else "")
        return None

    def can_battle(self, country: str, kind: str, space: str) -> str | None:
        """Why `country` cannot battle `space` now; None when it can (seed l.645-668)."""
        board = self.pack.board
        if space not in board.spaces:
            return f"{space} is not a space of the board"
        if board.spaces[space].kind != kind:
            return f"{space} is a {board.spaces[space].kind} space: a {kind} battle needs a {kind} space"
        if any(TEAMS[p["country"]] == TEAMS[country] for p in self.pieces_at(space)):
            return f"a piece of {country}'s own team is in {space}"
        supplied = self.supplied(country)
        if not any(n in supplied for n in self.neighbours(space, country)):
            return f"{space} is not next to a supplied piece of {country}"
        return None

    def take_off(self, country: str, space: str) -> None:
        """Take `country`'s piece off `space`, with nothing triggered (see `remove`)."""
        here = self.state["pieces"][space]
        here.remove(next(p for p in here if p["country"] == country))
        if not here:
            del self.state["pieces"][space]

    # ---------------------------------------------------------------- actions
    def build(self, country: str, piece: str, space: str, by: str, how: str = "built") -> bool:
        why = self.can_build(country, piece, space, how)
        if why:
            self.note("action_failed", country=by, action=f"{how[:-2]} {piece}", space=space, why=why)
            return False
        here = self.state["pieces"].setdefault(space, [])
        here.append({"country": country, "piece": piece})
        here.sort(key=lambda p: COUNTRIES.index(p["country"]))
        self.state["pieces"] = dict(sorted(self.state["pieces"].items(),
                                           key=lambda item: self.pack.board.order.index(item[0])))
        self.note(how, country=country, piece=piece, space=space, by=by)
        self.window({"event": "built", "piece": piece, "owner": country, "team": TEAMS[country],
                     "space": space, "by": by, "how": how}, TEAMS[by])
        return True

    def declare_built(self, country: str, piece: str, space: str) -> bool:
        """A Build card naming an existing piece as newly built (seed l.975-980)."""
        own = self.piece_of(country, space)
        if not own or own["piece"] != piece:
            self.note("action_failed", country=country, action=f"declare {piece} built", space=space,
                      why=f"{country} has no {piece} in {space}")
            return False
        self.note("declared_built", country=country, piece=piece, space=space)
        self.window({"event": "built", "piece": piece, "owner": country, "team": TEAMS[country],
                     "space": space, "by": country, "how": "declared"}, TEAMS[country])
        return True

    def remove(self, country: str, space: str, cause: str, by: str | None) -> bool:
        """Remove `country`'s piece from `space` unless something prevents it; True when removed."""
        piece = self.piece_of(country, space)
        if piece is None:
            return False
        if (country, space, piece["piece"]) in self.protected:
            self.note("removal_prevented", country=country, piece=piece["piece"], space=space,
                      why="it cannot be removed this turn")
            return False
        event = {"event": "removal", "piece": piece["piece"], "owner": country, "team": TEAMS[country],
                 "space": space, "cause": cause, "by": by, "supplied": space in self.supplied(country),
                 "prevented": False}
        self.window(event, TEAMS[by] if by else TEAMS[self.active])
        if event["prevented"]:
            return False
        self.take_off(country, space)
        self.note("piece_removed", country=country, piece=piece["piece"], space=space, cause=cause, by=by)
        return True

    def battle(self, country: str, kind: str, space: str, target: Any) -> bool:
        why = self.can_battle(country, kind, space)
        if why:
            self.note("action_failed", country=country, action=f"{kind} battle", space=space, why=why)
            return False
        piece = "army" if kind == "land" else "navy"
        enemies = [p["country"] for p in self.pieces_at(space) if p["piece"] == piece]
        wanted = [target] if isinstance(target, str) else list(target or [])
        chosen = next((c for c in wanted if c in enemies), None)
        if chosen is None and enemies:
            chosen = enemies[0]
            if len(enemies) > 1 or wanted:  # the target is public; which ones the orders preferred is not
                self.note("default_applied", secret_of=country, country=country, what=f"the {kind} battle in "
                          f"{space} removes {chosen}'s {piece}: the orders name no other {piece} there")
        self.note("battle", country=country, kind=kind, space=space, target=chosen)
        removed = self.remove(chosen, space, "battle", country) if chosen else False
        self.window({"event": "battle", "kind": kind, "space": space, "by": country, "target": chosen,
                     "removed": removed}, TEAMS[country])
        return True

    # ---------------------------------------------------------------- trigger windows
    def window(self, event: dict[str, Any], caused_by: str) -> None:
        """Let the teams use their effects on `event`, the team that did not cause it first, one
        effect at a time, until both pass in a row (seed l.857-900). Effects that an effect
        triggers are resolved inside it, before this window goes on."""
        self.events += 1
        event["id"] = self.events
        team, passes, answered = other_team(caused_by), 0, False
        while passes < 2:
            if self._use_one(team, event):
                passes, answered = 0, True
            else:
                passes += 1
            team = other_team(team)
        if answered:
            self.ruling("window_ends", "a trigger window closes when both teams have passed in a row")

    def _team_order(self, team: str) -> Iterator[str]:
        start = COUNTRIES.index(self.active)
        for country in COUNTRIES[start:] + COUNTRIES[:start]:
            if TEAMS[country] == team:
                yield country

    def _use_one(self, team: str, event: dict[str, Any]) -> bool:
        """Use one effect of `team` on `event`, if any fits: each country's first fitting entry is
        ready, and the team chooses which goes first (seed l.879-880) by the entries' `after`;
        where no entry says, turn order from the active country decides (ruling team_order)."""
        ready = []
        for country in self._team_order(team):
            for number, entry in enumerate(self.entries.get(country, [])):
                with self.secretly(country):  # an entry that is not used, and why, stays its owner's
                    instance = self._usable(country, entry, event, number)
                if instance is not None:
                    ready.append((country, instance, entry))
                    break
        if not ready:
            return False
        countries = [country for country, _, _ in ready]
        chosen = next((r for r in ready if not set(r[2].get("after") or []) & set(countries)), ready[0])
        if len(ready) > 1 and not any(set(r[2].get("after") or []) & set(countries) for r in ready):
            for country in countries[1:]:  # that its effect was ready and waited is its own secret
                with self.secretly(country):
                    self.ruling("team_order", f"{chosen[0]} and {country} could both use an effect at once and "
                                "no entry's `after` orders them: turn order from the country whose turn it is")
        self._use(*chosen, event)
        return True

    def _usable(self, country: str, entry: dict[str, Any], event: dict[str, Any], number: int) -> str | None:
        """The card instance of `entry` (the country's `number`th) that `country` may use on
        `event` now, or None."""
        zones = self.zones(country)
        instance = next((c for c in zones["responses"] + zones["statuses"] if c == entry["card"]), None)
        if instance is None or instance == self.laying:
            return None
        card = self.card(country, instance)
        use = card.use or {}
        if use.get("instead") or not _matches(self, country, use.get("when") or {}, event):
            return None
        if any(not _field_matches(event.get(k), v) for k, v in (entry.get("when") or {}).items()):
            return None
        once = (country, instance, "turn") if use.get("once_per_turn") else (country, instance, event["id"])
        if once in self.used or ("board" in entry and not self._board_is(entry["board"])):
            return None
        if entry.get("later") and (country, number, event["id"]) not in self.waited:
            self.waited.add((country, number, event["id"]))
            return None
        return instance

    def _board_is(self, condition: dict[str, Any]) -> bool:
        """Whether a space holds a piece of a country or team (or nobody's), of the kind given."""
        here = [p for p in self.pieces_at(condition["space"]) if p["piece"] == condition.get("piece", p["piece"])]
        if condition["holds"] == "nobody":
            return not here
        return any(condition["holds"] in (p["country"], TEAMS[p["country"]]) for p in here)

    def _use(self, country: str, instance: str, entry: dict[str, Any], event: dict[str, Any]) -> None:
        if country == self.active:
            number = next(i for i, e in enumerate(self.entries[country]) if e is entry)
            self.uses[number] = self.uses.get(number, 0) + 1
            with self.carrying_out(country, f"effects[{number}]"):
                self._resolve_use(country, instance, entry, event)
        else:
            self._resolve_use(country, instance, entry, event)

    def _resolve_use(self, country: str, instance: str, entry: dict[str, Any], event: dict[str, Any]) -> None:
        card = self.card(country, instance)
        zones = self.zones(country)
        use = card.use or {}
        self.used.add((country, instance, "turn") if use.get("once_per_turn") else (country, instance, event["id"]))
        if card.type == "response":
            zones["responses"].remove(instance)
            self.discard_played(country, instance)
        self.note("effect_used", country=country, card=card.name, card_type=card.type, text=card.text,
                  trigger={k: v for k, v in event.items() if k not in ("id", "prevented")})
        for cost in use.get("cost") or []:
            self.pay(country, cost["discard"], entry, card.name)
        self.resolve_steps(country, card, entry, event)

    def pay(self, country: str, discard: dict[str, Any], entry: dict[str, Any], what: str) -> None:
        if discard["from"] == "deck":
            self.discard_from_deck(country, discard["count"], what)
        else:
            self.discard_from_hand(country, discard["count"], hand_cards(self, country, entry.get("pay")), what)

    # ---------------------------------------------------------------- effect steps
    def resolve_steps(self, country: str, card: Card, entry: dict[str, Any], event: dict[str, Any] | None) -> None:
        """Each step of `card`'s effect in printed order; a step that cannot happen does not stop
        the next (seed l.736-742)."""
        params = entry.get("steps") or []
        self.using.append(card.name)
        for number, step in enumerate((card.use or {}).get("effect") or []):
            choice = {**entry, **(params[number] if number < len(params) else {})}
            (verb, arg), = step.items()
            getattr(self, f"_step_{verb}")(country, arg, choice, event)
        self.using.pop()

    def _step_score(self, country: str, arg: int, choice: dict[str, Any], event: dict[str, Any] | None) -> None:
        self.score(country, arg, "card", card=self.using[-1])

    def _step_discard(self, country: str, arg: dict[str, Any], choice: dict[str, Any],
                      event: dict[str, Any] | None) -> None:
        """An enemy country discards (Economic Warfare): which cards from its hand is its own choice,
        from its standing orders (seed l.680-688)."""
        enemies = [c for c in COUNTRIES if TEAMS[c] != TEAMS[country]]
        targets = [c for c in _as_list(choice.get("target")) if c in enemies]
        if not targets:
            self.note("action_failed", country=country, action=f"make an enemy discard ({self.using[-1]})",
                      why="the orders name no enemy country")
            return
        target, what = targets[0], f"{self.using[-1]} of {country}"
        if arg["from"] == "deck":
            self.discard_from_deck(target, arg["count"], what)
        elif arg["from"] == "responses":
            self.discard_responses(target, arg["count"], what)
        else:
            self.discard_from_hand(target, arg["count"], hand_cards(self, target, self.forced.get(target)), what)

    def _step_protect(self, country: str, arg: str, choice: dict[str, Any], event: dict[str, Any] | None) -> None:
        event["prevented"] = True
        self.note("removal_prevented", country=event["owner"], piece=event["piece"], space=event["space"],
                  why="this turn" if arg == "until_end_of_turn" else "this removal")
        if arg == "until_end_of_turn":
            self.protected.add((event["owner"], event["space"], event["piece"]))

    def _step_remove(self, country: str, arg: Any, choice: dict[str, Any], event: dict[str, Any] | None) -> None:
        if arg == "the_piece":
            piece = self.piece_of(event["owner"], event["space"])
            if piece and piece["piece"] == event["piece"]:
                self.remove(event["owner"], event["space"], "effect", country)
            return
        found = [p["country"] for p in self.pieces_at(arg["space"])
                 if p["piece"] == arg["piece"] and TEAMS[p["country"]] == arg["team"]]
        wanted = [c for c in _as_list(choice.get("target")) if c in found] + found
        if wanted:
            self.remove(wanted[0], arg["space"], "effect", country)

    def _step_recruit(self, country: str, arg: dict[str, Any], choice: dict[str, Any],
                      event: dict[str, Any] | None) -> None:
        candidates = [c for c in _as_list(choice.get("country")) if c in arg["countries"]] + list(arg["countries"])
        able = [c for c in candidates if not self.can_build(c, arg["piece"], arg["space"], "recruited")]
        if not able:
            self.note("action_failed", country=country, action=f"recruit {arg['piece']}", space=arg["space"],
                      why=self.can_build(candidates[0], arg["piece"], arg["space"], "recruited"))
            return
        if not choice.get("country"):  # who recruits is public; that the orders left it open is not
            self.note("default_applied", secret_of=country, country=country,
                      what=f"{able[0]} recruits: the orders name no country")
        self.build(able[0], arg["piece"], arg["space"], country, "recruited")

    def _step_battle(self, country: str, arg: dict[str, Any], choice: dict[str, Any],
                     event: dict[str, Any] | None) -> None:
        spaces = self._places(country, arg["where"], event, choice, lambda s: self.can_battle(country, arg["kind"], s))
        if spaces:
            self.battle(country, arg["kind"], spaces[0], choice.get("target"))

    def _step_build(self, country: str, arg: dict[str, Any], choice: dict[str, Any],
                    event: dict[str, Any] | None) -> None:
        if arg.get("optional") and choice.get("skip"):
            return
        spaces = self._places(country, arg["where"], event, choice, lambda s: self.can_build(country, arg["piece"], s))
        if spaces:
            self.build(country, arg["piece"], spaces[0], country)

    def _step_play_from_discard(self, country: str, arg: dict[str, Any], choice: dict[str, Any],
                                event: dict[str, Any] | None) -> None:
        pile = self.zones(country)["discard"]
        found = next((i for i in range(len(pile) - 1, -1, -1)
                      if self.card(country, pile[i]["card"]).type == arg["type"]), None)
        if found is None:  # public, as at the table: the orders' check (orders._from_discard) refused every use
            # that its country could know to fail, so what fails here turned on cards nobody knew (the deck's top)
            self.ruling("hidden_failures", f"{self.using[-1]} was played on the deck's top cards, which nobody knew: "
                        "its cost is paid and its failure is public, as at the table")
            self.note("action_failed", country=country, action="play from the discard pile",
                      why=f"no {arg['type'].replace('_', ' ')} card in the discard pile")
            return
        instance = pile.pop(found)["card"]
        self.play_card(country, instance, choice)

    def _places(self, country: str, where: str, event: dict[str, Any] | None, choice: dict[str, Any],
                why_not) -> list[str]:
        """The spaces an effect may act on, the orders' choices first and only legal ones."""
        if where == "same":
            allowed = [event["space"]]
        elif where == "adjacent":
            allowed = sorted(self.neighbours(event["space"], country), key=self.pack.board.order.index)
        elif where == "same_or_adjacent":
            allowed = [event["space"], *sorted(self.neighbours(event["space"], country),
                                               key=self.pack.board.order.index)]
        else:
            allowed = list(self.pack.board.order)
        wanted = _as_list(choice.get("space")) or (allowed if where == "same" else [])
        legal = [s for s in wanted if s in allowed and not why_not(s)]
        if wanted and not legal:  # where an effect would act is its owner's plan: only where it acts is public
            self.note("action_failed", secret_of=country, country=country, action="effect", space=", ".join(wanted),
                      why="; ".join(filter(None, (why_not(s) if s in allowed else f"{s} is not where this "
                                                  "effect may act" for s in wanted))))
            return []
        if not wanted:
            self.note("default_applied", secret_of=country, country=country,
                      what="the orders name no space for this effect: it is not used")
        return legal

    # ---------------------------------------------------------------- playing a card
    def play_card(self, country: str, instance: str, choice: dict[str, Any]) -> None:
        """Resolve a card played from hand (or from the discard pile): it is public from now on."""
        card = self.card(country, instance)
        if card.type == "response":  # face down: everyone sees that a Response is laid, only its owner which
            self.zones(country)["responses"].append(instance)
            self.laying = instance
            self.note("response_laid", country=country)
            self.note("response_laid_named", secret_of=country, country=country, card=card.name)
            return
        self.note("card_played", country=country, card=card.name, card_type=card.type)
        if card.type == "status":
            self.zones(country)["statuses"].append(instance)
            self.laying = instance
            return
        self.discard_played(country, instance)
        if card.type in BASIC_TYPES:
            piece = "army" if card.type in ("build_army", "land_battle") else "navy"
            kind = "land" if piece == "army" else "sea"
            build = card.type.startswith("build")
            if build and choice.get("existing"):
                self.declare_built(country, piece, choice["existing"])
                return
            spaces = _as_list(choice.get("space")) or [""]
            space = next((s for s in spaces if not (self.can_build(country, piece, s) if build
                                                    else self.can_battle(country, kind, s))), spaces[0])
            if build:
                self.build(country, piece, space, country)
            else:
                self.battle(country, kind, space, choice.get("target"))
            return
        self.resolve_steps(country, card, choice, None)


def _as_list(value: Any) -> list[Any]:
    return [] if value is None else [value] if isinstance(value, str) else list(value)


def _field_matches(actual: Any, wanted: Any) -> bool:
    return actual in wanted if isinstance(wanted, list) else actual == wanted


def _matches(turn: Turn, country: str, when: dict[str, Any], event: dict[str, Any]) -> bool:
    """Whether a card's printed condition holds for `event`, for the card's owner `country`."""
    if when.get("event") != event["event"]:
        return False
    for key, wanted in when.items():
        if key == "event":
            continue
        if key == "piece":
            ok = wanted == "any" or event.get("piece") == wanted
        elif key in ("owner", "by"):
            ok = _field_matches(event.get(key), country if wanted == "self" else wanted)
        elif key == "near":
            ok = event.get("space") == wanted or event.get("space") in turn.pack.board.neighbours_for(
                wanted, TEAMS[country], axis_armies(turn.state["pieces"]))
        elif key == "how":
            ok = _field_matches(event.get("how"), wanted)
        elif key == "space":
            ok = _field_matches(event.get("space"), wanted)
        else:
            ok = _field_matches(event.get(key), wanted)
        if not ok:
            return False
    if when["event"] == "built" and event.get("how") == "recruited" and "how" not in when:
        if not turn.options["recruited_counts_as_built"]:
            turn.ruling("recruited_counts_as_built", "the card's condition is a piece built: a recruited piece "
                        "does not meet it (the card text; seed l.896-899 says 'built or recruited')")
            return False
        turn.ruling("recruited_counts_as_built", "a recruited piece meets the card's condition 'built' (the "
                    "rulebook's example, seed l.896-899)")
    return True


def hand_cards(turn: Turn, country: str, names: Any) -> list[str]:
    """Card instances in `country`'s hand for the named cards, in the order named."""
    return named_cards(turn.pack, country, turn.zones(country)["hand"], names)


def named_cards(pack: Pack, country: str, cards: list[str], names: Any) -> list[str]:
    """The instances among `cards` of the named cards, in the order named, each taken once."""
    picked: list[str] = []
    for name in _as_list(names):
        found = next((c for c in cards if c not in picked and pack.name(country, c) == name), None)
        if found:
            picked.append(found)
    return picked


def discard_choice(hand: list[str], count: int, chosen: list[str]) -> tuple[list[str], int, int]:
    """What a discard of `count` cards from `hand` takes: the `chosen` cards first, then the last
    cards of the hand (how many: the second number, a default), then as many cards from the top of
    the deck (the third). The turn discards so, and the check of the orders counts so, to know
    before anything is played what the discard leaves (seed l.521-552)."""
    picked = [c for c in chosen if c in hand][:count]
    rest = [c for c in reversed(hand) if c not in picked][:count - len(picked)]
    return picked + rest, len(rest), count - len(picked) - len(rest)

