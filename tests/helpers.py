"""Small helpers for game tests: play actions by name, build positions, check invariants.

Zones are addressed as `"pile"` (a shared zone) or `("hand", 1)` (player 1's hand,
players counted from 0). Cards are given by name, either file names (`"QS"`,
`"10H"`, `"TH"`) or screen names (`"Q♠"`); a string of several names separated by
spaces is accepted wherever a list of cards is.
"""
from __future__ import annotations

import json
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from koloda.dsl.types import SUITS, SUIT_LETTERS, SUIT_SYMBOLS

HANG_SECONDS = 60.0


class Hang(BaseException):
    """A block still running after its guard's time: a BaseException, so that no `except
    Exception` on the way takes it for an error of the code under test."""


@contextmanager
def no_hang(seconds: float = HANG_SECONDS, what: str = "the block") -> Iterator[None]:
    """Fail instead of waiting for ever when the block runs for `seconds` (60 by default). A guard
    against a hang only, never a measure of speed: a machine under load may take many times as
    long as a quiet one, and a test must not fail for that. Where no timer signal can be had (off
    the main thread, or on Windows) the block runs unguarded."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def alarm(signum: int, frame: object) -> None:
        raise Hang(f"{what} is still running after {seconds:.0f} s: a hang")
    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# ------------------------------------------------------------------ cards and names
def card(game, name: str) -> int:
    """The id of the (first copy of the) card called `name`."""
    ids = game.cards.parse(name)
    if not ids:
        raise KeyError(f"`{name}` is not a card of this deck")
    return ids[0]


def cards(game, names) -> list[int]:
    """Card ids for a list of names or a space-separated string of names."""
    if isinstance(names, str):
        names = names.split()
    out: list[int] = []
    for name in names:
        ids = [i for i in game.cards.parse(name) if i not in out]
        if not ids:
            raise KeyError(f"`{name}` is not a card of this deck (or is given too often)")
        out.append(ids[0])
    return out


def names(game, ids) -> list[str]:
    return [game.cards.names[i] for i in ids]


def suit(text: str) -> int:
    """Suit code from `"hearts"`, `"H"` or `"♥"`."""
    t = text.strip()
    if t.lower() in SUITS:
        return SUITS.index(t.lower())
    if t.upper() in SUIT_LETTERS:
        return SUIT_LETTERS.index(t.upper())
    if t in SUIT_SYMBOLS:
        return SUIT_SYMBOLS.index(t)
    raise KeyError(f"`{text}` is not a suit")


def zone_index(game, zone) -> int:
    """`"pile"`, `("hand", 1)`, a grid cell `("square", 0, "7")` (grid, owner, cell rank) or a zone index."""
    if isinstance(zone, int):
        return zone
    if isinstance(zone, tuple) and len(zone) == 3:
        return cell(game, zone[1], zone[2], zone[0])
    if isinstance(zone, tuple):
        name, player = zone
        return game.layout.zone_base[name] + player
    return game.layout.zone_base[zone]


def cell(game, owner: int, rank, grid: str = "square") -> int:
    """The zone index of the cell of rank `rank` (`"A"`, `"7"`, 7) in `owner`'s grid `grid`
    (for a grid owned by sides, `owner` is the side)."""
    from koloda.interpreter.base.cards import rank_name
    g = game.layout.grids[game.layout.grid_base[grid] + owner]
    for z in g.cells:
        r = game.layout.zone_cell[z].rank
        if r is not None and rank_name(r) == str(rank).upper():
            return z
    raise KeyError(f"no cell {rank} in {grid} {owner}")


def zone_cards(state, zone) -> list[str]:
    """The names of the cards in a zone, bottom first (the last one is the top)."""
    return names(state.game, state.zones[zone_index(state.game, zone)])


def hand(state, player: int) -> list[str]:
    return zone_cards(state, ("hand", player))


def var_index(game, var) -> int:
    if isinstance(var, tuple):
        name, player = var
        return game.layout.var_base[name] + player
    return game.layout.var_base[var]


def get_var(state, var):
    return state.vars[var_index(state.game, var)]


# ------------------------------------------------------------------ actions
def legal(state, plain: bool = False) -> list[str]:
    """The legal actions as strings (`play Q♠`, or `play QS` with plain=True)."""
    return [state.game.action_to_string(a, plain=plain) for a in state.legal_actions()]


def find_action(state, text: str) -> int | None:
    g = state.game
    for a in state.legal_actions():
        if text in (g.action_to_string(a), g.action_to_string(a, plain=True)):
            return a
    # tolerate `play TH` / `play q♠`: normalise the card part through the deck's parser
    words = text.split()
    if len(words) == 2:
        ids = g.cards.parse(words[1])
        if ids:
            for a in state.legal_actions():
                s = g.action_to_string(a, plain=True).split()
                if len(s) == 2 and s[0] == words[0] and g.cards.parse(s[1]) == ids:
                    return a
    return None


def act(state, text: str) -> None:
    """Apply the legal action written `text`; fail with the list of legal actions if it is not legal."""
    a = find_action(state, text)
    assert a is not None, f"`{text}` is not legal for P{state.current + 1} now; legal: {legal(state)}"
    state.apply_action(a)


def is_legal(state, text: str) -> bool:
    return find_action(state, text) is not None


def play_all(state, texts) -> None:
    for t in texts:
        act(state, t)


# ------------------------------------------------------------------ deck orders
def deal_order(game, dealer: int, hands: list, then=(), per_player=None) -> list[str]:
    """A whole deck, top first, so that one-at-a-time dealing from the player left of `dealer`
    gives player p exactly `hands[p]` (all hands must be equally long), followed by the
    cards in `then` (e.g. the card turned up, then the stock from its top), followed by
    every remaining card of the deck in deck order."""
    n = game.num_players
    hands = [h.split() if isinstance(h, str) else list(h) for h in hands]
    assert len(hands) == n, "one hand per player"
    k = len(hands[0])
    assert all(len(h) == k for h in hands), "hands must be equally long"
    then = then.split() if isinstance(then, str) else list(then)
    order: list[str] = []
    for r in range(k):
        for j in range(n):
            order.append(hands[(dealer + 1 + j) % n][r])
    order += then
    used = cards(game, order)          # raises on unknown or repeated cards
    order += [game.cards.names[i] for i in range(game.cards.size) if i not in used]
    return order


def new_state(game, seed: int = 0, hands=None, then=(), extra_orders=()):
    """A new match whose first deal gives `hands` (player 0 first) and then `then`.

    The first dealer is decided by the seed alone, so it is found from a throw-away state.
    `extra_orders`: further deck orders (lists of names, top first) for later shuffles.
    """
    if hands is None:
        return game.new_initial_state(seed)
    dealer = game.new_initial_state(seed).dealer
    orders = [cards(game, deal_order(game, dealer, hands, then))]
    orders += [cards(game, o.split() if isinstance(o, str) else o) for o in extra_orders]
    return game.new_initial_state(seed, deck=orders)


# ------------------------------------------------------------------ positions
def setup(state, zones: dict | None = None, vars: dict | None = None, current: int | None = None,
          step: str | None = None, phase: str | None = None, by: dict | None = None, rest="stock"):
    """Set up a position on a state, in place; returns the state.

    zones: {zone: cards}; each listed zone gets exactly these cards, bottom first (the last
      is the top). A name given again (here or in another zone) means the next copy of that
      card; `~JH` lays the card face down (every other card set up lies face up). Listed
      cards are taken from wherever they are; cards that were in a listed zone but are not
      listed go to the `rest` zone (its top). A zone may also be a grid cell
      `("square", owner, "7")` or a zone index.
    vars: {var: value}; `var` is a name or (name, player). Suits and cards may be given
      by name (`"hearts"`, `"7H"`); `None` is none.
    by: {card name: player} - who moved a card last (`c.by`); cards moved here get none.
    """
    g = state.game
    zones = zones or {}
    # a name may be given once per copy the deck holds; a leading `~` lays that card face down
    targets, down, used = {}, [], set()
    for z, lst in zones.items():
        lst = lst.split() if isinstance(lst, str) else list(lst)
        ids = []
        for name in lst:
            hidden = name.startswith("~")
            free = [i for i in g.cards.parse(name.lstrip("~")) if i not in used]
            if not free:
                raise KeyError(f"`{name}` is not a card of this deck (or is given too often)")
            used.add(free[0])
            ids.append(free[0])
            if hidden:
                down.append(free[0])
        targets[zone_index(g, z)] = ids
    placed = {c for lst in targets.values() for c in lst}
    assert len(placed) == sum(len(v) for v in targets.values()), "a card is placed twice"
    rest_zone = zone_index(g, rest)
    displaced = [c for zi in targets for c in state.zones[zi] if c not in placed]
    assert not (displaced and rest_zone in targets), \
        "the rest zone is itself set up, so there is nowhere to put the cards left over"
    for zi, zone in enumerate(state.zones):
        if zi not in targets:
            state.own(zi)[:] = [c for c in zone if c not in placed]
    state.own(rest_zone).extend(displaced)
    for zi, lst in targets.items():
        state.own(zi)[:] = list(lst)
    for zi, zone in enumerate(state.zones):
        for c in zone:
            state.loc[c] = zi
    for c in placed | set(displaced):
        state.by[c] = None
        state.face[c] = True
    for c in down:
        state.face[c] = False
    for name, who in (by or {}).items():
        state.by[card(g, name)] = who
    for var, value in (vars or {}).items():
        vname = var[0] if isinstance(var, tuple) else var
        vtype = g.rules.var_types[vname]
        if isinstance(value, str):
            if vtype == "suit":
                value = suit(value)
            elif vtype == "card":
                value = card(g, value)
        state.vars[var_index(g, var)] = value
    if phase is not None:
        state.phase = [p.name for p in g.flow.phases].index(phase)
        if step is None:
            step = g.flow.phases[state.phase].first_step
    if step is not None:
        state.step = step
    if current is not None:
        state.current = current
    state.goto = None
    state.next_player = None
    state._legal = None
    return state


# ------------------------------------------------------------------ invariants
def conservation(state) -> None:
    """Every card id is in exactly one zone, and `loc` agrees with the zones."""
    size = state.game.cards.size
    seen: dict[int, int] = {}
    for zi, zone in enumerate(state.zones):
        for c in zone:
            assert 0 <= c < size, f"unknown card id {c} in zone {zi}"
            assert c not in seen, (f"{state.game.cards.names[c]} is in zones {seen[c]} and {zi}")
            seen[c] = zi
    missing = [state.game.cards.names[c] for c in range(size) if c not in seen]
    assert not missing, f"cards in no zone: {missing}"
    assert len(state.loc) == size
    for c, zi in seen.items():
        assert state.loc[c] == zi, f"loc of {state.game.cards.names[c]} is {state.loc[c]}, it is in zone {zi}"


def snapshot(state, history: bool = True) -> str:
    """A canonical text of the whole state (for equality of states); without the history of
    moves when `history` is false (its length is kept): the history grows with the match, and
    comparing it whole after every move of a long match made the checks quadratic."""
    return json.dumps(state._json(history), sort_keys=True)   # the text is the copy: to_json's own is not needed


def roundtrip(state):
    """The state through to_json, json text and from_json."""
    from koloda.interpreter.core.state import State
    return State.from_json(state.game, json.loads(json.dumps(state.to_json())))


# ------------------------------------------------------------------ melds
def plan_cards_text(game, plan) -> list[str]:
    """A plan's cards by file name, a wild card with its identity: `["QS", "KS", "JK=AS"]`."""
    from koloda.interpreter.base.cards import rank_name
    from koloda.interpreter.melds.melds import identity_parts
    stands = dict(plan.wild)
    out = []
    for c in plan.cards:
        name = game.cards.names[c]
        if c in stands:
            rank, s = identity_parts(stands[c])
            name += "=" + rank_name(rank) + ("" if s is None else "CDHS"[s])
        out.append(name)
    return out


def find_meld(state, text: str, owner: int, where=None):
    """The new-meld plan that puts down exactly the cards written in `text` (`"QS KS JK=AS"`;
    `JK` alone: a joker standing for anything). The cards are taken from zone `where` (any
    zone but the table if None), the first copies found there."""
    g = state.game

    def norm(token: str) -> str:         # `JK=TS` -> `JK=10S`, as plan_cards_text writes it
        name, eq, ident = token.partition("=")
        ids = g.cards.parse(ident) if ident else []
        return name + eq + (g.cards.names[ids[0]] if ids else ident)
    tokens = [norm(t) for t in text.split()]
    on_table = {c for z in g.layout.slot_zone for c in state.zones[z]}
    pool = [c for c in (state.zones[zone_index(g, where)] if where is not None else range(g.cards.size))
            if c not in on_table]
    ids = []
    for t in tokens:
        name = t.partition("=")[0]
        free = [c for c in g.cards.parse(name) if c in pool and c not in ids]
        if not free:
            raise KeyError(f"no free `{name}` for the meld {text!r}")
        ids.append(free[0])
    want = sorted(tokens)
    for p in g.melds.melds_in(ids, owner):
        if sorted(p.cards) != sorted(ids):
            continue
        have = plan_cards_text(g, p)
        if all(any(h == t or (h.partition("=")[0] == t and "=" in h) for h in have) for t in tokens) \
                and sorted(h.partition("=")[0] for h in have) == sorted(t.partition("=")[0] for t in want):
            if all(t in have for t in tokens if "=" in t):
                return p
    raise KeyError(f"{text!r} is not a meld: {[' '.join(plan_cards_text(g, p)) for p in g.melds.melds_in(ids, owner)]}")


def table_meld(state, text: str, owner: int, where=None) -> int:
    """Put the meld written `text` on the table as `owner`'s; returns its slot (meld number - 1)."""
    plan = find_meld(state, text, owner, where)
    slot = state.slot_kind.index(None)
    state.meld(plan, owner)
    state._legal = None
    return slot


def meld_cards(state, slot: int) -> list[str]:
    """The cards of the meld in `slot`, by file name, a wild card with its identity (`JK=QC`)."""
    from koloda.interpreter.base.cards import rank_name
    from koloda.interpreter.melds.melds import identity_parts
    g = state.game
    out = []
    for c in state.zones[g.layout.slot_zone[slot]]:
        name = g.cards.names[c]
        if state.stands[c] is not None:
            rank, s = identity_parts(state.stands[c])
            name += "=" + rank_name(rank) + ("" if s is None else "CDHS"[s])
        out.append(name)
    return out


# ------------------------------------------------------------------ random playouts
def check_state(state, rng) -> None:
    """Engine invariants of one state: cards conserved, wild cards stand for something only on the
    table, meld slots used iff they hold cards, to_json round trip, play on a clone leaves the
    original alone, observations are plain data."""
    import json as _json
    from koloda.interpreter.core.state import State
    g = state.game
    conservation(state)
    for c in range(g.cards.size):
        if state.stands[c] is not None:
            assert state.loc[c] in g.layout.zone_slot, "only a card on the table stands for another"
            assert c in g.wild_cards, "only a wild card stands for another"
    for slot, kind in enumerate(state.slot_kind):
        assert (kind is None) == (not state.zones[g.layout.slot_zone[slot]]), "a meld slot is used iff it holds cards"
    # the whole state goes through json text once; then states are compared without the
    # history of moves (which grows with the match), the history on its own
    back = State.from_json(g, _json.loads(snapshot(state)))
    light = snapshot(state, history=False)
    assert snapshot(back, history=False) == light and list(back.history) == list(state.history), \
        "to_json/from_json changed the state"
    if not state.is_terminal():
        assert back.legal_actions() == state.legal_actions(), "a restored state offers other moves"
        c = state.clone()
        assert snapshot(c, history=False) == light
        c.apply_action(rng.choice(c.legal_actions()))
        assert snapshot(state, history=False) == light, "playing on a clone changed the original"
    for p in range(state.n):
        seen = state.observation(p)
        _json.dumps(seen)          # plain data
        check_observation(state, p, seen)


def check_observation(state, player: int, observation: dict | None = None) -> None:
    """The observation of `player` names exactly the cards they may see, zone by zone: every card
    of a zone seen by all, by its owner (partners share a side's), the top of a `top` zone, the
    melds; a face-down card is never named; nothing of another player's hand or a hidden stock."""
    g = state.game
    layout = g.layout
    if observation is None:
        observation = state.observation(player)
    seen = [z for z in observation["zones"] if "meld" not in z]
    places = [zi for zi, z in enumerate(layout.zones) if z.slot is None]
    assert len(seen) == len(places), "one observation entry per zone"
    for entry, zi in zip(seen, places):
        z = layout.zones[zi]
        assert (entry["zone"], entry["owner"]) == (z.name, z.owner)
        cards = state.zones[zi]
        names = [g.cards.names[c] if state.face[c] else None for c in cards]
        mine = z.visible == "all" or (z.visible == "owner" and layout.sees(player, z.owner, z.by_side))
        if mine:
            assert entry.get("cards") == names, f"P{player + 1} should see {z.name}"
        else:
            assert "cards" not in entry, f"P{player + 1} sees {layout.zone_label(zi)}, which is hidden from them"
            if z.visible == "top" and cards:
                assert entry.get("top") == names[-1]
            else:
                assert "top" not in entry, f"P{player + 1} sees the top of {layout.zone_label(zi)}"
        assert entry["size"] == len(cards), "sizes are public"
        if "by" in entry:
            assert layout.public[zi], "who put a card there is told only for a zone all share and see"
            assert entry["by"] == [state.by[c] if state.face[c] else None for c in cards]
    public = {layout.zone_label(zi) for zi, shared in enumerate(layout.public) if shared}
    for moved in observation["moved"]:
        assert moved["from"] in public, "only what leaves a zone all share and see is told"


def random_playout(game, seed: int, every: int = 1, cap: int = 20000):
    """A seeded random match played to the end, checking invariants (`check_state` every `every`
    moves, card conservation after every action). Returns (final state, most legal actions at a
    decision, moves)."""
    import random as _random
    s = game.new_initial_state(seed)
    rng = _random.Random(seed)
    most = moves = 0
    while not s.is_terminal():
        actions = s.legal_actions()
        assert actions, f"no legal move in a live state:\n{s}"
        assert len(actions) == len(set(actions)), "an action is offered twice"
        most = max(most, len(actions))
        if moves % every == 0:
            check_state(s, rng)
        s.apply_action(rng.choice(actions))
        conservation(s)
        moves += 1
        assert moves < cap, f"the match does not end in {cap} moves"
    check_state(s, rng)
    assert s.legal_actions() == []
    return s, most, moves


# ---------------------------------------------------------------- open-row rummies (lesenka, splin)
def open_row_position(game, hands, spare: str, row: str, step: str = "main", current: int = 0, vars=None,
                      table=()):
    """Named cards in the hands and the open row (P0 first; players not given get four cards of
    `spare`, skipping cards placed elsewhere); table melds `(text, owner)` are made from the stock;
    every other card is in the stock."""
    s = game.new_initial_state(0)
    zones = {"row": row}
    used = set(row.split()) | {c for h in hands for c in h.split()}
    rest = [c for c in spare.split() if c not in used]
    for p in range(game.num_players):
        if p < len(hands):
            zones[("hand", p)] = hands[p]
        else:
            zones[("hand", p)], rest = rest[:4], rest[4:]
    setup(s, zones=zones, current=current, step=step, vars=vars or {})
    for text, owner in table:
        table_meld(s, text, owner, where="stock")
    return s


def moves_starting(s, word: str) -> list[str]:
    """The legal moves whose text starts with `word` (`meld`, `add`, `swap`)."""
    return [t for t in legal(s) if t.startswith(word)]


def each_player(s, var: str) -> list:
    """A variable of each player, P0 first."""
    return [get_var(s, (var, p)) for p in range(s.n)]


def play_on_clone(state, seed: int, steps: int) -> None:
    """Play `steps` random moves on a clone; the original must not move."""
    import random as _random
    before, legal_before = snapshot(state), state.legal_actions()
    c = state.clone()
    rng = _random.Random(seed)
    for _ in range(steps):
        if c.is_terminal():
            break
        c.apply_action(rng.choice(c.legal_actions()))
    assert snapshot(state) == before and state.legal_actions() == legal_before, "playing on a clone moved the original"
    conservation(c)


def replays_to(game, checkpoints, actions, final) -> None:
    """States saved as JSON at move i, played on with the same actions, reach the same end."""
    from koloda.interpreter.core.state import State
    for i, data in checkpoints:
        r = State.from_json(game, data)
        for a in actions[i:]:
            r.apply_action(a)
        assert snapshot(r) == snapshot(final)


def spiel_card_name(text: str, rank_first: bool = False) -> str:
    """An OpenSpiel card, `CT` (suit, then rank) or with `rank_first` `TC`, as koloda's `10C`."""
    rank, suit = (text[:-1], text[-1]) if rank_first else (text[1:], text[0])
    assert suit in "CDHS" and len(rank) == 1, f"not a card: {text}"
    return ("10" if rank == "T" else rank) + suit
