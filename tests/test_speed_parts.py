"""The parts that keep play fast: a history shared between clones, bounded meld caches, melds
listed a group at a time, and guards that skip an action's parameters."""
from __future__ import annotations

import json
import pickle
import random

import koloda
from koloda.interpreter.melds.bounded import RECENT_HANDS, RECENT_LISTINGS, RECENT_PARTS
from koloda.interpreter.core.history import History
from koloda.interpreter.melds.bitmask import bits, mask_of


def _play(state, moves: int, seed: int = 1):
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_history_reads_like_a_list():
    h = History([(0, 5), (1, 7)])
    h.append((0, 9))
    assert len(h) == 3 and list(h) == [(0, 5), (1, 7), (0, 9)]
    assert h == [(0, 5), (1, 7), (0, 9)] and h != [(0, 5)]
    assert h[0] == (0, 5) and h[-1] == (0, 9) and h[-2:] == [(1, 7), (0, 9)] and h[:1] == [(0, 5)]
    assert History() == [] and History([(1, 2)]) == History([(1, 2)])
    assert pickle.loads(pickle.dumps(h)) == h


def test_a_clone_shares_the_history_and_goes_on_alone():
    s = _play(koloda.load("kunkin").new_initial_state(seed=2), 40)
    before = list(s.history)
    c = s.clone()
    assert c.history == s.history
    _play(c, 10, seed=3)
    _play(s, 5, seed=4)
    assert list(c.history)[:40] == before and list(s.history)[:40] == before
    assert len(c.history) == 50 and len(s.history) == 45 and c.history != s.history


def test_a_long_history_survives_json_and_clones():
    game = koloda.load("funken")
    s = _play(game.new_initial_state(seed=1), 600)
    for _ in range(50):
        s = s.clone()
    data = json.loads(json.dumps(s.to_json()))
    r = game.state_from_json(data)
    assert r.history == s.history and len(r.history) == s.moves


def test_meld_caches_stay_bounded():
    game = koloda.load("splin-29g")
    melds = game.melds
    reach = game.loaded.reach
    assert melds is not None and reach is not None
    for seed in range(3):
        _play(game.new_initial_state(seed=seed), 10_000, seed=seed)
    assert 0 < len(melds._listed) <= RECENT_LISTINGS and 0 < len(melds.new._grouped) <= RECENT_LISTINGS
    assert melds.group_plans.cache_info().currsize <= melds.group_plans.cache_info().maxsize
    assert melds.new.group.cache_info().currsize <= melds.new.group.cache_info().maxsize
    for cache in (reach._best, reach._short, reach._extensions, reach.plays._named):
        assert len(cache) <= reach.cached
    # the opening search's caches, in a game that asks it (Splin 29.г has no opening minimum)
    kunkin = koloda.load("kunkin")
    plays = kunkin.loaded.reach.plays           # type: ignore[union-attr]
    for seed in range(3):
        _play(kunkin.new_initial_state(seed=seed), 3_000, seed=seed)
    assert 0 < len(plays._hands) <= RECENT_PARTS
    assert 0 < len(plays._grouped) <= RECENT_HANDS
    assert 0 < len(plays._by_cards) <= plays.cached


def test_melds_a_group_at_a_time_are_the_listed_ones():
    game = koloda.load("kunkin-big")
    melds = game.melds
    assert melds is not None
    rng = random.Random(5)
    for _ in range(200):
        hand = sorted(rng.sample(range(melds.n), rng.randint(3, 24)))
        listed = melds.melds_in(hand, 1)
        streamed = list(melds.each_meld(mask_of(hand), 1))
        assert sorted(streamed) == listed
        assert [p.cards for p in sorted(streamed)] == [p.cards for p in listed]
        fresh = list(melds.each_meld(mask_of(hand + [h for h in range(melds.n) if h not in hand][:1]), 0))
        assert all(int(p) % 2 == 0 for p in fresh)


def test_masks():
    assert bits(mask_of([0, 5, 63, 64, 100])) == [0, 5, 63, 64, 100]
    assert bits(0) == [] and mask_of([]) == 0


def test_an_action_whose_guard_starts_false_lists_nothing():
    """Splin 29.г before a player's first meld: `meld_row`'s guard starts with `may_take()`, false,
    so the melds of the hand and the row are not listed for it at all."""
    game = koloda.load("splin-29g")
    s = game.new_initial_state(seed=1)
    s.apply_action(s.legal_actions()[0])          # the draw: now the main step, with nothing melded
    assert s.step == "main" and any("meld_row" == a.name for a in game.flow.phases[s.phase].steps["main"])
    calls = []
    melds = game.melds
    assert melds is not None
    real = melds.melds_of

    def counted(mask, owner):
        calls.append(mask.bit_count())
        return real(mask, owner)
    melds.melds_of = counted            # type: ignore[method-assign]
    try:
        s.legal_actions()
    finally:
        del melds.melds_of
    hand = len(s.zones[game.layout.zone_base["hand"] + s.current])
    hand_and_row = hand + len(s.zones[game.layout.zone_base["row"]])
    assert hand in calls and hand_and_row not in calls     # the hand's own melds are listed, not the row's


def test_the_groups_holding_a_card_are_those_of_the_whole_hand():
    """`groups_with` works out only the groups with one card, and they are the same groups, in the
    same order, as those of the whole hand that hold it (jokers, second copies and cards out of the
    hand included)."""
    for name in ("kunkin", "kunkin-big", "canasta"):
        new = koloda.load(name).melds.new          # type: ignore[union-attr]
        n = len(new.ranks)
        rng = random.Random(11)
        for _ in range(150):
            hand = rng.sample(range(n), rng.randint(1, 24))
            mask = mask_of(hand)
            whole = new.groups(sorted(hand))
            for card in hand + rng.sample(range(n), 3):
                new._grouped.clear()                # the path that lists only the card's groups
                assert new.groups_with(mask, card) == [g for g in whole if card in g[1] or card in g[2]]


def test_a_group_too_small_for_a_meld_with_the_wild_cards_at_hand_is_not_listed():
    """A meld takes more natural cards than wild ones (Kun-kin): with two jokers a run or a set still
    needs two natural cards, so a rank or a suit held once is no group, though three cards are there."""
    from koloda.interpreter.melds.meldlist import least_naturals
    game = koloda.load("kunkin")
    new = game.melds.new                                          # type: ignore[union-attr]
    run, pair = [k for k in new.kinds if k.of == "suit"][0], [k for k in new.kinds if k.of == "rank"][0]
    assert [least_naturals(run, w) for w in range(4)] == [3, 2, 2, 2] == [least_naturals(pair, w) for w in range(4)]
    jokers = sorted(new.wild)
    lone = [c for c in range(len(new.ranks)) if new.ranks[c] == 7 and new.suits[c] == 0]
    hand = mask_of(lone + jokers)                 # 7 of the first suit and two jokers: no meld
    assert new.groups_of(hand) == () and game.melds.melds_of(hand, 0) == []   # type: ignore[union-attr]
    two = lone + [c for c in range(len(new.ranks)) if new.ranks[c] == 8 and new.suits[c] == 0]
    assert [g[0] for g in new.groups_of(mask_of(two + jokers))] == [new.kinds.index(run)]


def test_a_group_that_makes_no_meld_is_not_listed():
    """A suit's cards with no three in a row make no run, with no joker or with one that cannot bridge the
    gaps: such a group is not listed (nor asked about the card just drawn), and the hand's melds are the same."""
    game = koloda.load("kunkin")
    new = game.melds.new                                          # type: ignore[union-attr]
    hearts = {new.ranks[c]: c for c in range(len(new.ranks)) if new.suits[c] == 0}
    joker = min(new.wild)
    scattered = mask_of([hearts[2], hearts[7], hearts[12]])
    assert new.groups_of(scattered) == () and new.groups_of(scattered | 1 << joker) == ()
    assert new.groups_with(scattered | 1 << joker, hearts[7]) == []
    bridged = mask_of([hearts[6], hearts[8], hearts[12], joker])      # the joker stands for the 7
    assert [g[1] for g in new.groups_of(bridged)] == [(hearts[6], hearts[8], hearts[12])]
    assert {tuple(p.cards) for p in game.melds.melds_of(bridged, 0)} == {(hearts[6], joker, hearts[8])}  # type: ignore[union-attr]


def test_a_question_about_the_melds_with_one_card_answers_as_before():
    """Kun-kin's take (`any(top in m.cards and … for m in melds_in(my hand.cards + [top]) …)`) lists only
    the melds with the discard top; the moves are the same as when every meld is made and passed over."""
    game = koloda.load("kunkin")
    melds = game.melds
    assert melds is not None
    narrowed = 0
    real = melds.each_meld_with

    def counted(cards, owner, card):
        nonlocal narrowed
        narrowed += 1
        return real(cards, owner, card)
    every: list[list[int]] = []
    for mode in ("narrowed", "every meld"):
        if mode == "narrowed":
            melds.each_meld_with = counted          # type: ignore[method-assign]
        else:
            melds.each_meld_with = lambda cards, owner, card: melds.each_meld(cards, owner)  # type: ignore
        try:
            seen = []
            for seed in range(3):
                s = game.new_initial_state(seed=seed)
                rng = random.Random(seed)
                for _ in range(400):
                    if s.is_terminal():
                        break
                    legal = s.legal_actions()
                    seen.append(legal)
                    s.apply_action(rng.choice(legal))
            every.append(seen)
        finally:
            del melds.each_meld_with
    assert narrowed > 50, "the take's question goes through the narrowed listing"
    assert every[0] == every[1]
