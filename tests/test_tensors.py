"""Observation tensors: a seat's tensor reads only what that seat knows, and changes with what it sees."""
from __future__ import annotations

import random

import pytest

import koloda
from koloda.agents.sampling import determinize
from koloda.compact import CompactGame, CompactState
from koloda.dsl.types import CARD, PLAN
from koloda.interpreter.core.history import History
from koloda.seen import Seen

GAMES = koloda.shipped_games()
_loaded: dict[str, CompactGame] = {}


def compact(name: str) -> CompactGame:
    if name not in _loaded:
        _loaded[name] = CompactGame.load(name)
    return _loaded[name]


def positions(cg: CompactGame, seed: int, every: int = 12, most: int = 96):
    """States along a seeded random playout, every `every` engine moves, each with the number of
    moves played before its deal began."""
    cs = cg.new_initial_state(seed=seed)
    rng = random.Random(seed)
    deal, deal_start = cs.native.deal_number, 0
    for k in range(most):
        if cs.is_terminal():
            return
        if cs.native.deal_number != deal:
            deal, deal_start = cs.native.deal_number, len(cs.native.history)
        if k % every == 0:
            yield cs.clone(), deal_start
        cs.apply_native(rng.choice(cs.native.legal_actions()))


def tensors(cs: CompactState, player: int) -> tuple[list[float], list[float]]:
    return cs.observation_tensor(player), cs.information_state_tensor(player)


def knowledge(cs: CompactState, player: int) -> tuple:
    return tensors(cs, player) + (cs.observation_string(player), cs.information_state_string(player))


def unknown_places(state, player: int) -> list[tuple[int, int]]:
    bit = 1 << player
    return [(zi, k) for zi, zone in enumerate(state.zones) for k, c in enumerate(zone) if not state.known[c] & bit]


def renamed_history(cg: CompactGame, before, after, deal_start: int):
    """The moves of `before` told of the cards of `after`: each card named in a move of this deal is the
    card now lying where it lay, so that a re-dealt state has a history that fits it (a hidden card
    picked is another one). The moves of earlier deals stay: re-dealing now does not change them."""
    now = {c: after.zones[zi][k] for zi, zone in enumerate(before.zones) for k, c in enumerate(zone)}
    codec, melds = cg.game.codec, cg.game.melds
    moves = list(before.history)[:deal_start]
    for player, native in list(before.history)[deal_start:]:
        action, b = codec.decode(native)
        code = 0
        for p in action.params:
            v = b[p.var]
            if p.type == CARD:
                digit = now[v]
            elif p.type == PLAN:
                digit = melds.encode(v.kind, v.type, [now[c] for c in v.cards], [(now[w], i) for w, i in v.wild],
                                     v.target, v.at_start)
            else:
                digit = p.digit_of(v)       # a number of a stepped or shifted range is its place in it
            code = code * p.radix + digit
        moves.append((player, action.offset + code))
    return History(moves)


def swapped(state, a: tuple[int, int], b: tuple[int, int]):
    """A copy with the cards at two places exchanged; what belongs to a place (who put the card there,
    which way up, who knows it) stays with the place."""
    d = state.clone()
    (za, ka), (zb, kb) = a, b
    ca, cb = state.zones[za][ka], state.zones[zb][kb]
    d.own(za)[ka], d.own(zb)[kb] = cb, ca
    d.loc[ca], d.loc[cb] = zb, za
    for attr in ("by", "face", "known"):
        values = getattr(d, attr)
        values[ca], values[cb] = getattr(state, attr)[cb], getattr(state, attr)[ca]
    d.forget()
    return d


@pytest.mark.parametrize("name", GAMES)
def test_cards_a_seat_cannot_place_do_not_change_its_tensors(name):
    cg = compact(name)
    shape = cg.observation_tensor_shape()[0], cg.information_state_tensor_shape()[0]
    names = cg.game.cards.names
    window = next(at for label, at, _ in cg.information_state_tensor_layout() if label.startswith("move"))
    redealt = swaps = unseen = 0
    for seed in (0, 1):
        for cs, deal_start in positions(cg, seed):
            for player in range(cg.num_players):
                seen = knowledge(cs, player)
                assert (len(seen[0]), len(seen[1])) == shape
                # the moves of a wrapped engine state are recorded as the seat knows their cards now
                wrapped = knowledge(cg.wrap(cs.native), player)
                assert wrapped[:2] == seen[:2]
                # a whole re-deal of what the seat does not know, as its bots imagine the table
                d = determinize(cs.native, player, random.Random(seed * 7 + player))
                d.history = renamed_history(cg, cs.native, d, deal_start)
                if d.zones != cs.native.zones:
                    redealt += 1
                assert knowledge(cg.wrap(d), player) == wrapped
                # a resampled world keeps the seat's account of the moves; having no history of its
                # own, its information-state tensor lacks the window of recent moves
                world = cs.resample(player, random.Random(seed * 7 + player))
                resampled = knowledge(world, player)
                assert resampled[0] == seen[0] and resampled[2:] == seen[2:]
                assert resampled[1][:window] == seen[1][:window]
                assert world.legal_actions() or world.is_terminal()
                # two unknown cards of different names trade places
                places = unknown_places(cs.native, player)
                unseen += len(places)
                pair = next(((a, b) for a in places[:1] for b in places[1:]
                             if names[cs.native.zones[a[0]][a[1]]] != names[cs.native.zones[b[0]][b[1]]]), None)
                if pair is not None:
                    swaps += 1
                    other = swapped(cs.native, *pair)
                    other.history = renamed_history(cg, cs.native, other, deal_start)
                    assert knowledge(cg.wrap(other), player) == wrapped
    if not unseen:                     # FreeCell: every card lies face up, seen by the seat
        pytest.skip(f"{name}: the seat sees every card, so nothing can be dealt otherwise")
    assert redealt and swaps           # the test did compare states that differ


@pytest.mark.parametrize("name", GAMES)
def test_a_card_the_seat_knows_changes_its_tensor(name):
    cg = compact(name)
    names = cg.game.cards.names
    changed = unseen = 0
    for cs, _ in positions(cg, 0, every=20, most=60):
        s = cs.native
        for player in range(cg.num_players):
            bit = 1 << player
            known = [(zi, k) for zi, zone in enumerate(s.zones) for k, c in enumerate(zone) if s.known[c] & bit]
            hidden = unknown_places(s, player)
            unseen += len(hidden)
            pair = next(((a, b) for a in known for b in hidden
                         if names[s.zones[a[0]][a[1]]] != names[s.zones[b[0]][b[1]]]), None)
            if pair is None:
                continue
            other = swapped(s, *pair)
            # the card now lying where the seat looks is one it knows: it sees the new card
            other.known[s.zones[pair[1][0]][pair[1][1]]] |= bit
            seen, now = tensors(cs, player), tensors(cg.wrap(other), player)
            assert seen[0] != now[0] and seen[1] != now[1]
            changed += 1
    if not unseen:                     # FreeCell: every card lies face up, seen by the seat
        pytest.skip(f"{name}: the seat sees every card, so no card it cannot see can be swapped in")
    assert changed


def test_a_secret_variable_is_shown_to_its_owner_only():
    """Pony's `drawn` (visible: owner) is in its owner's tensor, not in the other seat's."""
    cg = compact("pony")
    cs = cg.new_initial_state(seed=0)
    layout = cg.game.layout
    drawn = layout.var_base["drawn"]
    s = cs.native
    before = [cs.observation_tensor(p) for p in range(2)]
    s.vars[drawn] = s.zones[layout.zone_base["hand"]][0]         # P1's first card
    assert cs.observation_tensor(0) != before[0]
    assert cs.observation_tensor(1) == before[1]


def test_a_seat_outside_the_table_is_refused():
    cs = compact("pony").new_initial_state(seed=0)
    with pytest.raises(ValueError, match="no player 5"):
        cs.observation_tensor(5)


@pytest.mark.parametrize("name", ["kunkin", "leopard4", "peklo"])
def test_the_blocks_tile_the_tensors_and_say_where_a_hand_is(name):
    cg = compact(name)
    for layout, size in ((cg.observation_tensor_layout(), cg.observation_tensor_shape()[0]),
                         (cg.information_state_tensor_layout(), cg.information_state_tensor_shape()[0])):
        offsets = [at for _, at, _ in layout]
        assert offsets[0] == 0 and all(at + width == after for (_, at, width), after in zip(layout, offsets[1:]))
        assert layout[-1][1] + layout[-1][2] == size
        assert len({label for label, _, _ in layout}) == len(layout)
    cs = cg.new_initial_state(seed=2)
    blocks = {label: (at, width) for label, at, width in cg.observation_tensor_layout()}
    at, _ = blocks["P2 hand"]
    names = cg.observer.names
    hand = cs.native.zones[cg.game.layout.zone_base["hand"] + 1]
    mine, theirs = cs.observation_tensor(1), cs.observation_tensor(0)
    assert sum(mine[at:at + names]) == len(hand) and mine[at + names] == len(hand) and mine[at + names + 1] == 0
    assert sum(theirs[at:at + names]) == 0 and theirs[at + names + 1] == len(hand)


@pytest.mark.parametrize("name, moves", [("kunkin", 260), ("showdown", 130)])
def test_each_move_is_told_as_the_seat_saw_it_then_and_kept(name, moves):
    """A move is told as the seat knew its cards just after it, and later shuffles and deals do not
    retell it; the text kept and extended move by move is the record told afresh."""
    cg = compact(name)
    cs = cg.new_initial_state(seed=4)
    rng = random.Random(4)
    deals = set()
    before = [""] * cg.num_players
    for _ in range(moves):
        if cs.is_terminal():
            break
        s = cs.native
        deal = s.deal_number
        cs.apply_native(rng.choice(s.legal_actions()))
        mover, move = s.history[-1]
        for seat in range(cg.num_players):
            text = cs.information_state_string(seat).split("\nmoves:\n", 1)[1]
            assert text.startswith(before[seat]) and text.count("\n") == len(s.history)
            if s.deal_number == deal:        # (a move that ends a deal is told as the deal was scored)
                assert text.endswith(f"P{mover + 1} {cg.game.describe(s, move, seat)}\n")
            assert Seen(cs.seen.records[:]).history(s, seat) == text
            before[seat] = text
        deals.add(s.deal_number)
    assert len(deals) > 1


def moves_told(cs: CompactState, seat: int) -> str:
    return cs.information_state_string(seat).split("\nmoves:\n", 1)[1]


@pytest.mark.parametrize("name", ["leopard", "showdown"])      # games whose moves hide cards from some seats
def test_a_world_resampled_for_a_seat_tells_everyone_that_seat_s_account(name):
    """No seat's view of a drawn world names a real card the resampling seat could not place."""
    cg = compact(name)
    cs = cg.new_initial_state(seed=3)
    rng = random.Random(3)
    for _ in range(60):
        cs.apply_native(rng.choice(cs.native.legal_actions()))
    differ = 0
    for player in range(cg.num_players):
        mine = moves_told(cs, player)
        world = cs.resample(player, random.Random(player))
        for seat in range(cg.num_players):
            differ += moves_told(cs, seat) != mine         # the seats' own records do differ
            assert moves_told(world, seat) == mine
            assert world.observation_string(seat).endswith("\nlast: " + mine.splitlines()[-1])
        # later moves in the world are told to each seat as it sees them there
        world.apply_native(world.native.legal_actions()[0])
        assert moves_told(world, player).startswith(mine) and moves_told(world, player).count("\n") == mine.count("\n") + 1
    assert differ


def test_moves_played_on_the_engine_directly_are_recorded_too():
    cg = compact("pony")
    cs = cg.new_initial_state(seed=1)
    cs.apply_native(cs.native.legal_actions()[0])
    cs.native.apply_action(cs.native.legal_actions()[0])
    assert moves_told(cs, 0).count("\n") == 2 == len(cs.native.history)
    assert moves_told(cs, 0) == moves_told(cg.wrap(cs.native.clone()), 0)
