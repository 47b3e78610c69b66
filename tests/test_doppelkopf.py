"""Doppelkopf (the DDV's tournament rules): the 48-card deal, the trump list, the parties found by the
club queens, reservations (marriage and solos), announcements and when they may be made, following
suit with the trumps as one suit, the extra points and the DDV's scoring of a normal game and a solo.

Players are counted from 0. The dealer is P4 (3), so P1 (0) is forehand.
"""
from __future__ import annotations

import functools

import koloda

from helpers import act, get_var, hand, legal, setup

# P1 and P2 hold a club queen each (Re); P4 holds no trump at all.
HANDS = {"P1 hand": "QC 10H 10H QS QS QH JC JS AD AD KC 9C",
         "P2 hand": "QC QH QD QD JC JS JH JH 10D 10D KD KD",
         "P3 hand": "JD JD 9D 9D AC AC 10C 10C KC 9C AS AS",
         "P4 hand": "9S 9S 10S 10S KS KS 9H 9H AH AH KH KH"}
# P1 holds both club queens: a marriage (or, said healthy, a silent one)
WEDDING = {"P1 hand": "QC QC 10H 10H QS QS QH JC JS AD AD KC",
           "P2 hand": "9C QH QD QD JC JS JH JH 10D 10D KD KD",
           "P3 hand": "JD JD 9D 9D AC AC 10C 10C KC 9C AS AS",
           "P4 hand": "9S 9S 10S 10S KS KS 9H 9H AH AH KH KH"}
POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2}


@functools.lru_cache(maxsize=None)
def load(options):
    return koloda.load("doppelkopf", options=dict(options), players=4)


def dealt(hands=HANDS, **options):
    s = load(tuple(sorted(options.items()))).new_initial_state(5, dealer=3,
                                                                hands={k: v.split() for k, v in hands.items()})
    assert s.dealer == 3
    return s


def healthy(s, n: int = 4) -> None:
    for _ in range(n):
        act(s, "healthy")


def scores(s) -> list[int]:
    return [get_var(s, ("points", p)) for p in range(4)]


def play_first(s) -> None:
    """Play the first legal card (no announcement)."""
    act(s, next(t for t in legal(s, plain=True) if t.startswith("play ")))


def plays(s) -> list[str]:
    return sorted(t for t in legal(s, plain=True) if t.startswith("play "))


# the 44 cards left when the last trick is JC 9D 9D 9S: split so that the Kontra party holds `kontra`
REST = ("QC QC 10H 10H QS QS QH QH QD QD JS JS JH JH JD JD 10D 10D KD KD AD AD JC "
        "AC AC 10C 10C KC KC 9C 9C AS AS 10S 10S KS KS 9S AH AH KH KH 9H 9H").split()


def split(kontra: int) -> tuple[list[str], list[str]]:
    """The cards of REST for Kontra (exactly `kontra` points) and for Re: a subset-sum search."""
    reach: dict[int, list[int]] = {0: []}          # points -> the cards (by place in REST) that make them
    for i, name in enumerate(REST):
        value = POINTS.get(name[:-1], 0)
        for total, picked in list(reach.items()):
            if value and total + value not in reach:
                reach[total + value] = picked + [i]
    picked = set(reach[kontra])
    return [n for i, n in enumerate(REST) if i in picked], [n for i, n in enumerate(REST) if i not in picked]


def last_trick(kontra: int, kontra_tricks: int = 5, reserve: str | None = None, hands=HANDS, **vars):
    """Eleven tricks played (Kontra holding `kontra` points), the last to come: P1 leads the ♣J,
    which takes it (Karlchen, one extra point to Re in a normal game), the three others play nines."""
    s = dealt(hands, deals=1)
    if reserve:
        act(s, reserve)
    else:
        healthy(s)
    theirs, ours = split(kontra)
    values = {"tricks_played": 11, ("tricks", 0): 11 - kontra_tricks, ("tricks", 2): kontra_tricks}
    values.update(vars)
    setup(s, zones={("hand", 0): "JC", ("hand", 1): "9D", ("hand", 2): "9D", ("hand", 3): "9S",
                    ("won", 0): ours, ("won", 2): theirs, ("won", 1): [], ("won", 3): []},
          vars=values, current=0, phase="play")
    for card in ("JC", "9D", "9D", "9S"):
        act(s, f"play {card}")
    assert s.is_terminal()
    return s


def test_the_deal_gives_twelve_each_from_two_packs_of_nine_to_ace():
    s = load(()).new_initial_state(11)
    assert len(s.game.cards.names) == 48 and [len(hand(s, p)) for p in range(4)] == [12] * 4
    assert s.current_player() == (s.dealer + 1) % 4
    assert "healthy" in legal(s, plain=True)


def test_the_holders_of_the_club_queens_are_re_and_forehand_leads():
    s = dealt()
    assert "marriage" not in legal(s, plain=True)       # one club queen only
    healthy(s)
    assert [get_var(s, ("re", p)) for p in range(4)] == [True, True, False, False]
    assert s.current_player() == 0 and get_var(s, "kind") == "normal"


def test_the_trumps_are_one_suit_and_a_queen_or_jack_is_no_plain_card():
    s = dealt()
    healthy(s)
    act(s, "play AD")                # a trump led: trumps must follow
    assert plays(s) == sorted(f"play {c}" for c in set(HANDS["P2 hand"].split()))   # P2 holds only trumps
    act(s, "play 10D")
    assert plays(s) == ["play 9D", "play JD"]        # P3's trumps, no plain card
    act(s, "play JD")
    assert len(plays(s)) == 6                        # P4 has no trump: any card
    act(s, "play AH")
    assert s.current_player() == 2 and get_var(s, ("tricks", 2)) == 1      # the jack over ♦A and ♦10
    assert get_var(s, "kontra_extra") == 1           # and P3 (Kontra) caught P1's fox
    act(s, "play AS")
    act(s, "play 9S")
    act(s, "play QH")                                # P1 has no plain spade: ♠Q and ♠J are trumps
    # P2 holds no plain spade (a queen or jack is a trump): any of its 8 cards
    assert len(plays(s)) == 8
    act(s, "play QD")
    assert s.current_player() == 0 and get_var(s, ("tricks", 0)) == 1     # the ♥Q over the ♦Q


def test_the_dulle_is_the_highest_trump_and_of_two_the_first_takes():
    s = dealt()
    healthy(s)
    setup(s, zones={("hand", 0): "10H 9C", ("hand", 1): "10H QC", ("hand", 2): "QC 9D", ("hand", 3): "AH 9S"},
          current=0, phase="play")
    act(s, "play 10H")
    act(s, "play 10H")
    act(s, "play QC")
    act(s, "play AH")
    assert get_var(s, ("tricks", 0)) == 1 and s.current_player() == 0


def test_a_doppelkopf_and_a_fox_caught_are_extra_points_to_the_party_that_takes_them():
    s = dealt(deals=1)
    healthy(s)
    setup(s, zones={("hand", 0): "AD", ("hand", 1): "10D", ("hand", 2): "AD", ("hand", 3): "10C"},
          vars={"tricks_played": 11}, current=0, phase="play")
    for card in ("AD", "10D", "AD", "10C"):
        act(s, f"play {card}")
    # 42 points in the trick (a Doppelkopf) and P3's fox caught by P1: both to Re
    assert get_var(s, "re_extra") == 2 and get_var(s, "kontra_extra") == 0


def test_re_wins_with_121_and_karlchen_counts_one_more():
    s = last_trick(119)
    assert scores(s) == [2, 2, -2, -2]               # won 1, Karlchen 1


def test_kontra_wins_with_120_and_one_against_the_old_ones():
    s = last_trick(120)
    assert scores(s) == [-1, -1, 1, 1]               # won 1, against the Re party 1, less Re's Karlchen


def test_an_announcement_counts_two_and_kontra_alone_announcing_needs_121():
    assert scores(last_trick(119, re_said=1)) == [4, 4, -4, -4]          # won 1, Re 2, Karlchen 1
    assert scores(last_trick(120, kontra_said=1)) == [4, 4, -4, -4]      # Re wins with 120 now


def test_no_90_announced_must_be_met_and_90_against_it_wins_for_kontra():
    # Re announced no 90: with Kontra at 89 Re wins 1 + below 90 1 + Re 2 + no 90 1 + Karlchen 1
    assert scores(last_trick(89, re_said=2)) == [6, 6, -6, -6]
    # at 90 Re fails: Kontra wins 1 + Re 2 + no 90 1 + 90 against no 90 1 + against the old ones 1,
    # less Re's Karlchen
    assert scores(last_trick(90, re_said=2)) == [-5, -5, 5, 5]


def test_schwarz_counts_every_level():
    s = last_trick(0, kontra_tricks=0)
    assert scores(s) == [6, 6, -6, -6]               # won, below 90, 60, 30, schwarz, Karlchen


def test_announcements_come_before_a_card_in_time_and_each_includes_the_ones_before():
    s = dealt()
    healthy(s)
    assert sorted(t for t in legal(s, plain=True) if not t.startswith("play")) == ["no 90", "re"]
    act(s, "re")
    assert s.current_player() == 0 and "no 90" in legal(s, plain=True) and "re" not in legal(s, plain=True)
    act(s, "play AD")
    assert "kontra" not in legal(s, plain=True) and "re" not in legal(s, plain=True)   # P2 is Re: it was said
    act(s, "play 10D")
    assert "kontra" in legal(s, plain=True)
    act(s, "no 90")                                  # Kontra and no 90 at once
    assert get_var(s, "kontra_said") == 2 and "no 60" in legal(s, plain=True)
    act(s, "play JD")
    act(s, "play AH")
    # Re said: no 90 with 10 cards, not with 9; no 60 with 9, not with 8
    for cards, said, move, offered in [("QC 10H 10H QS QS QH JC JS AD AD", 1, "no 90", True),
                                       ("QC 10H 10H QS QS QH JC JS AD", 1, "no 90", False),
                                       ("QC 10H 10H QS QS QH JC JS AD", 2, "no 60", True),
                                       ("QC 10H 10H QS QS QH JC JS", 2, "no 60", False)]:
        setup(s, zones={("hand", 0): cards}, vars={"re_said": said}, current=0, phase="play")
        assert (move in legal(s, plain=True)) == offered, (cards, move)


def test_a_marriage_is_offered_with_both_club_queens_and_finds_its_partner_in_the_first_foreign_trick():
    s = dealt(WEDDING)
    assert "marriage" in legal(s, plain=True)
    act(s, "marriage")
    healthy(s, 3)
    assert get_var(s, "kind") == "marriage" and s.current_player() == 0
    assert not any(t in ("re", "no 90") for t in legal(s, plain=True))    # no announcement yet
    act(s, "play AD")
    act(s, "play 10D")
    act(s, "play JD")                                # P3 takes the first trick: the partner
    act(s, "play AH")
    assert get_var(s, "partner") == 2 and get_var(s, ("re", 2)) and get_var(s, "shift") == 1


def test_a_marriage_without_a_partner_in_three_tricks_is_played_alone():
    s = dealt(WEDDING, deals=1)
    act(s, "marriage")
    healthy(s, 3)
    for lead in ("10H", "10H", "QC"):                # P1 takes the first three tricks
        act(s, f"play {lead}")
        for _ in range(3):
            play_first(s)
    assert s.current_player() == 0 and get_var(s, "tricks_played") == 3 and get_var(s, "partner") is None
    while not s.is_terminal():
        play_first(s)
    assert [get_var(s, ("re", p)) for p in range(4)] == [True, False, False, False]
    # played alone: the Re balance three times to the marrier, once from each other player
    assert scores(s)[0] == -3 * scores(s)[1] != 0 and scores(s)[1] == scores(s)[2] == scores(s)[3]


def test_a_later_solo_goes_before_a_marriage_and_the_soloist_leads():
    s = dealt(WEDDING)
    act(s, "marriage")
    act(s, "healthy")
    act(s, "solo hearts")
    assert get_var(s, "kind") == "suit_solo" and get_var(s, "soloist") == 2
    assert [get_var(s, ("re", p)) for p in range(4)] == [False, False, True, False]
    assert s.current_player() == 2                   # the reservations end; the soloist leads
    act(s, "play AS")
    act(s, "play 9S")
    assert len(plays(s)) == 8                        # P1 holds no plain spade: any of 8 cards


def test_in_a_hearts_solo_the_hearts_are_trumps_below_the_jacks():
    s = dealt()
    act(s, "healthy")
    act(s, "healthy")
    act(s, "healthy")
    act(s, "solo hearts")
    act(s, "play KH")                                # P4 leads a trump now
    assert plays(s) == sorted(f"play {c}" for c in ["QC", "10H", "QS", "QH", "JC", "JS"])   # not the ♦A
    act(s, "play JS")
    assert plays(s) == sorted(f"play {c}" for c in ["QC", "QH", "QD", "JC", "JS", "JH"])   # ♦ is plain


def test_a_queens_solo_has_only_the_queens_as_trumps_and_pays_three_times():
    s = dealt()
    act(s, "queens_solo")
    assert get_var(s, "kind") == "queens_solo" and s.current_player() == 0
    act(s, "play JC")                                # a plain club now
    assert plays(s) == ["play JC"]                   # P2's ♣J is a club too: it must follow
    # the soloist takes the last trick with the ♣J (no Karlchen in a solo) and holds 121: won 1, three times
    assert scores(last_trick(119, reserve="queens_solo")) == [3, -1, -1, -1]


def test_a_silent_marriage_is_played_alone_and_scored_as_a_solo():
    s = last_trick(119, hands=WEDDING)                # P1 holds both club queens and says healthy
    assert [get_var(s, ("re", p)) for p in range(4)] == [True, False, False, False]
    assert scores(s) == [3, -1, -1, -1]               # won 1, three times; no Karlchen outside a normal game


def test_a_jacks_solo_has_only_the_jacks_as_trumps():
    s = dealt()
    act(s, "jacks_solo")
    act(s, "play QC")                                 # a plain club now
    assert plays(s) == ["play QC"]                    # P2's ♣J is a trump, its ♣Q a club


def test_a_fleshless_solo_has_no_trumps_and_ranks_a_10_k_q_j_9():
    s = dealt()
    act(s, "fleshless")
    act(s, "play JC")
    assert plays(s) == ["play JC", "play QC"]         # the jack and queen follow as clubs
    act(s, "play QC")
    act(s, "play 9C")
    act(s, "play 9S")
    assert s.current_player() == 1 and get_var(s, ("tricks", 1)) == 1     # the queen over the jack


def test_the_match_lasts_option_deals_deals():
    s = load((("deals", 2),)).new_initial_state(3)
    for _ in range(2000):
        if s.is_terminal():
            break
        s.apply_action(s.legal_actions()[-1])
    assert s.is_terminal() and sum(scores(s)) == 0
