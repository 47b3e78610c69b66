"""The types of koloda's expressions, and the names every rule file knows."""
from __future__ import annotations

INT, BOOL, CARD, RANK, SUIT, COLOR, PLAYER, ZONE, STR, NONE, ANY, GRID, SIDE, PLAN, COMBO = (
    "int", "bool", "card", "rank", "suit", "color", "player", "zone", "str", "none", "any", "grid", "side", "plan",
    "combo")
# An exact number that may be a fraction (`pot / 2`): a whole number is one too, but not the other way
# round, so a fraction never reaches what counts (an index, a range, a number of cards).
FRAC = "fraction"

NULLABLE = {CARD, RANK, SUIT, COLOR, PLAYER, INT, FRAC, ANY, NONE, ZONE, GRID, SIDE}
PARAM_TYPES = {CARD, RANK, SUIT, PLAYER, INT, BOOL, COLOR, ZONE, SIDE, PLAN, COMBO}


def list_of(t: str) -> str:
    return "list:" + t


def is_list(t: str) -> bool:
    return t.startswith("list:")


def is_number(t: str) -> bool:
    """A whole number or a fraction: what arithmetic and `<` take."""
    return t in (INT, FRAC)


def number_of(*types: str) -> str:
    """The type of arithmetic on these: a fraction if any of them is one."""
    return FRAC if FRAC in types else INT


def elem(t: str) -> str:
    """The type of one item of a list or a zone."""
    if t == ZONE:
        return CARD
    if is_list(t):
        return t[5:]
    return ANY


# A word variable (`type: [check, bet, raise, fold]`): its type names its words, in the order written.
ENUM = "one of:"


def enum_of(words: list[str] | tuple[str, ...]) -> str:
    return ENUM + ",".join(words)


def is_enum(t: str) -> bool:
    return t.startswith(ENUM)


def enum_words(t: str) -> tuple[str, ...]:
    return tuple(t[len(ENUM):].split(","))


def show(t: str) -> str:
    if is_enum(t):
        return "one of " + ", ".join(enum_words(t))
    if is_list(t):
        inner = elem(t)
        if is_list(inner):          # `list:list:card`: a list of lists of cards
            return "a list of " + show(inner)[len("a "):].replace("list of", "lists of", 1)
        return "a list of " + ("texts" if inner == STR else "words" if is_enum(inner) else inner + "s")
    return {INT: "a number", BOOL: "true/false", CARD: "a card", RANK: "a rank", SUIT: "a suit",
            COLOR: "a colour", PLAYER: "a player", ZONE: "a zone", STR: "a text", NONE: "none",
            ANY: "anything", GRID: "a grid", SIDE: "a side", PLAN: "a meld plan", FRAC: "a fraction",
            COMBO: "a combination"}.get(t, t)


def compatible(a: str, b: str) -> bool:
    """Can values of these two types be compared or assigned to each other?"""
    if a == b or ANY in (a, b) or (is_number(a) and is_number(b)):
        return True
    if NONE in (a, b):
        other = b if a == NONE else a
        return other in NULLABLE or is_list(other) or is_enum(other)
    if is_enum(a) and is_enum(b):       # a word parameter's words among a word variable's, or the other way
        words_a, words_b = set(enum_words(a)), set(enum_words(b))
        return words_a <= words_b or words_b <= words_a
    if is_enum(a) or is_enum(b):        # a word and a text: the checker sees that a written text is a word
        return STR in (a, b)
    if is_list(a) and is_list(b):
        return compatible(elem(a), elem(b))
    return False


def assignable(target: str, value: str) -> bool:
    """May a value of type `value` be kept where `target` is declared? As `compatible`, but a fraction
    does not go where a whole number is wanted (a whole number may go where a fraction is)."""
    if target == INT and value == FRAC:
        return False
    if is_list(target) and is_list(value):
        return assignable(elem(target), elem(value))
    return compatible(target, value)


# The decks a rule file can name, by their ranks low to high; each rank comes in four suits.
DECK_RANKS: dict[str, tuple[int, ...]] = {
    "standard52": tuple(range(2, 15)),
    "russian36": tuple(range(6, 15)),
    "piquet32": tuple(range(7, 15)),
}
DECKS: dict[str, int] = {name: 4 * len(ranks) for name, ranks in DECK_RANKS.items()}

# Suits in bridge order; the engine codes them 0..3 in this order.
SUITS = ("clubs", "diamonds", "hearts", "spades")
SUIT_LETTERS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
COLORS = ("red", "black")
# Rank codes: 2..10 are their number, J 11, Q 12, K 13, A 14, joker 0. A deck built from a list may have
# more: the rank 1, the knight C (15) of Tarot packs, and numbers 11..99 (code the number + 5, so that the
# codes of the 52-card pack never change).
RANK_NAMES = {11: "J", 12: "Q", 13: "K", 14: "A", 0: "JK"}
RANK_CONSTANTS = {"A": 14, "K": 13, "Q": 12, "J": 11, "joker": 0}
KNIGHT = 15
MAX_RANK_NUMBER = 99
_PICTURES = {"J": 11, "Q": 12, "K": 13, "A": 14, "C": KNIGHT}


def rank_code(word: object) -> int | None:
    """The code of a rank as a deck lists it (`7`, `21`, `J`, `C`), or None if it is not a rank."""
    text = str(word).strip().upper()
    if text in _PICTURES:
        return _PICTURES[text]
    if text.isdigit() and 1 <= int(text) <= MAX_RANK_NUMBER:
        number = int(text)
        return number if number <= 10 else number + 5
    return None


def rank_word(code: int) -> str:
    """A rank's name in card names and on screen: `7`, `21`, `J`, `C`, `JK` (a joker)."""
    if code in RANK_NAMES:
        return RANK_NAMES[code]
    if code == KNIGHT:
        return "C"
    return str(code - 5 if code > KNIGHT else code)


def rank_number(code: int) -> int:
    """The number a numbered rank is written as (1..10, 11..99)."""
    return code - 5 if code > KNIGHT else code


def number_rank(number: int) -> int:
    """The code of the rank a written number means (`c.rank == 21`)."""
    return number if number <= 10 else number + 5


def rank_strength(code: int, knight: bool) -> int:
    """A rank's place in the natural order: 1..10, J, (C where the deck has knights), Q, K, A, then the
    numbers above 10; the ranks of the 52-card pack keep their codes as their strength."""
    if code <= 11:
        return code
    if code == KNIGHT:
        return 12
    if code <= 14:
        return code + knight
    return code - 1 + knight        # 11 (code 16) follows the ace (14, or 15 with knights)

CONSTANTS: dict[str, tuple[str, object]] = {
    "true": (BOOL, True), "false": (BOOL, False), "none": (NONE, None),
    **{name: (RANK, code) for name, code in RANK_CONSTANTS.items()},
    **{name: (SUIT, code) for code, name in enumerate(SUITS)},
    "red": (COLOR, 0), "black": (COLOR, 1),
}

# Types a user function's parameter may be declared with: `worth(grid g)`, `score(line l)`.
TYPE_NAMES: dict[str, str] = {
    "int": INT, "fraction": FRAC, "bool": BOOL, "card": CARD, "rank": RANK, "suit": SUIT, "color": COLOR, "player": PLAYER,
    "side": SIDE, "zone": ZONE, "cell": ZONE, "grid": GRID, "cards": "list:card", "zones": "list:zone",
    "line": "list:zone", "players": "list:player", "plan": PLAN, "combo": COMBO,
}
