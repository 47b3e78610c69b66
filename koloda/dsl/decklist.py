"""A deck built from a list: each suit with ranks of its own (`suits: {hearts: [1..10, J, C, Q, K], trumps:
1..21}`), suits of the deck's own beside the four, and extra named cards (`cards: {EX: {}, RJ: {colour:
red}}`). Ranks may be a range whose ends follow the table (`2..player_count + 2`), worked out per table as
a deck's `copies` are (deckcount.py)."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Callable

from koloda.dsl import ast
from koloda.dsl.deckcount import problems, work_out
from koloda.dsl.errors import RuleError, Span, did_you_mean
from koloda.dsl.marked import MarkedDict, span_of
from koloda.dsl.types import (COLORS, KNIGHT, MAX_RANK_NUMBER, SUIT_LETTERS, SUITS, number_rank, rank_code,
                              rank_strength, rank_word)

# a rank list as written: rank codes, and ranges (`1..21`, `2..player_count + 2`) worked out per table
RankItems = tuple["int | ast.Range", ...]
Parse = Callable[[object, Span], "ast.Node | None"]


@dataclass(frozen=True)
class SuitSpec:
    """One suit of a listed deck: its code (the four keep 0..3; a deck's own suits follow), its ranks."""
    name: str
    code: int
    ranks: RankItems
    letter: str           # in card names: `21T`
    symbol: str           # on screen
    colour: int | None    # 0 red, 1 black, None
    span: Span


@dataclass(frozen=True)
class ExtraCard:
    """A card named on its own (`EX`, `RJ`): a joker unless it says its rank; no suit unless it says one."""
    name: str
    label: str
    rank: int
    suit: int | None
    colour: int | None
    span: Span


_SUIT_KEYS = ("ranks", "letter", "symbol", "colour")
_CARD_KEYS = ("rank", "suit", "colour", "label")
STANDARD_COLOURS = (1, 0, 0, 1)      # clubs black, diamonds and hearts red, spades black


def work_out_ranks(items: RankItems, options: dict, players: int, span: Span) -> tuple[int, ...]:
    """The rank codes of a list at a table, each once, in the natural order."""
    codes: list[int] = []
    for item in items:
        if isinstance(item, int):
            codes.append(item)
            continue
        low, high = work_out(item.low, options, players), work_out(item.high, options, players)
        for end, value in ((item.low, low), (item.high, high)):
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_RANK_NUMBER:
                raise RuleError(f"a deck's range of ranks works out to end at {value} with {players} players; "
                                f"ranks are 1..{MAX_RANK_NUMBER}", end.span, category="runtime")
        codes += [number_rank(n) for n in range(int(str(low)), int(str(high)) + 1)]
    if len(set(codes)) != len(codes):
        raise RuleError(f"a deck's ranks repeat a rank with {players} players", span, category="runtime")
    knight = KNIGHT in codes
    return tuple(sorted(codes, key=lambda r: rank_strength(r, knight)))


def read_ranks(raw: object, where: Span, options: dict, errors: list[RuleError], parse: Parse,
               what: str = "deck `ranks`") -> RankItems:
    """`[9, 10, J, Q, K, A]`, `[1..10, J, C, Q, K]`, `1..21` or `2..player_count + 2`."""
    items: list[int | ast.Range] = []
    for item in raw if isinstance(raw, list) else [raw]:
        at = span_of(item, where)
        code = rank_code(item) if not isinstance(item, bool) else None
        if code is not None:
            items.append(code)
            continue
        node = parse(str(item), at) if isinstance(item, str) and ".." in item else None
        if isinstance(node, ast.Range) and node.step is None:
            found = problems(node.low, options, f"{what}'s range") + problems(node.high, options, f"{what}'s range")
            fixed = _fixed_range(node)
            if fixed is not None and not (1 <= fixed[0] <= fixed[1] <= MAX_RANK_NUMBER):
                found.append(RuleError(f"{what}: the range `{item}` is not ranks 1..{MAX_RANK_NUMBER} from low to "
                                       "high", at, category="schema"))
            errors.extend(found)
            if not found:
                items.extend([number_rank(n) for n in range(fixed[0], fixed[1] + 1)] if fixed is not None else [node])
            continue
        if node is None and isinstance(item, str) and ".." in item:
            continue                    # the parser said what is wrong with it
        errors.append(RuleError(f"{what}: `{item}` is not a rank: a rank is 1..{MAX_RANK_NUMBER}, J, C "
                                "(a knight), Q, K or A, or a range such as `1..21`", at, category="schema"))
    static = [i for i in items if isinstance(i, int)]
    if len(set(static)) != len(static):
        errors.append(RuleError(f"{what}: each rank once", where, category="schema"))
    return tuple(items)


def _fixed_range(node: ast.Range) -> tuple[int, int] | None:
    """The ends of a range of written numbers (None where an end follows the table)."""
    if not (isinstance(node.low, ast.Number) and isinstance(node.high, ast.Number)):
        return None
    return node.low.value, node.high.value


def static_ranks(items: RankItems | None) -> tuple[int, ...] | None:
    """The codes of a list that does not follow the table, in the natural order (None if it does)."""
    if items is None or not all(isinstance(i, int) for i in items):
        return None
    codes = [i for i in items if isinstance(i, int)]
    knight = KNIGHT in codes
    return tuple(sorted(set(codes), key=lambda r: rank_strength(r, knight)))


def read_suits(raw: MarkedDict, options: dict, errors: list[RuleError], parse: Parse,
               own: dict[str, SuitSpec]) -> tuple[SuitSpec, ...]:
    """`suits: {hearts: [1..10, J, C, Q, K], trumps: {ranks: 1..21, letter: T}}`. `own` holds the suits of
    the game's own already read (named decks share them), by name."""
    suits: list[SuitSpec] = []
    for name, body in raw.items():
        name = str(name)
        at = raw.key_spans.get(name, raw.span)
        settings: dict = body if isinstance(body, MarkedDict) else {"ranks": body}
        for key in settings:
            if key not in _SUIT_KEYS:
                errors.append(RuleError(f"suit `{name}` has no `{key}`", getattr(settings, 'key_spans', {}).get(key, at),
                                        did_you_mean(str(key), _SUIT_KEYS) or "a suit has " + ", ".join(_SUIT_KEYS),
                                        category="schema"))
        if settings.get("ranks") is None:
            errors.append(RuleError(f"suit `{name}` lists no ranks", at, "as in `hearts: [7, 8, 9, 10, J, Q, K, A]`",
                                    category="schema"))
            continue
        ranks = read_ranks(settings["ranks"], span_of(settings["ranks"], at), options, errors, parse,
                           f"suit `{name}`")
        colour = _colour(settings, at, errors, f"suit `{name}`")
        if name in SUITS:
            code = SUITS.index(name)
            for key in ("letter", "symbol", "colour"):
                if key in settings:
                    errors.append(RuleError(f"suit `{name}` is one of the four: its {key} is its own", 
                                            getattr(settings, 'key_spans', {}).get(key, at), category="schema"))
            suits.append(SuitSpec(name, code, ranks, SUIT_LETTERS[code], "♣♦♥♠"[code], STANDARD_COLOURS[code], at))
            continue
        if not name.isidentifier():
            errors.append(RuleError(f"`{name}` cannot name a suit: a suit's name is a name such as `trumps`", at,
                                    category="name"))
        letter = str(settings.get("letter", name[:1])).upper()
        if not (len(letter) == 1 and letter.isascii() and letter.isalpha()):
            errors.append(RuleError(f"suit `{name}`: its letter in card names is one letter A..Z, not `{letter}`",
                                    getattr(settings, 'key_spans', {}).get("letter", at), category="schema"))
        symbol = str(settings.get("symbol", letter))
        spec = own.get(name)
        if spec is None:
            spec = own[name] = SuitSpec(name, len(SUITS) + len(own), ranks, letter, symbol, colour, at)
        elif (spec.letter, spec.symbol, spec.colour) != (letter, symbol, colour):
            errors.append(RuleError(f"suit `{name}` has another letter, symbol or colour in another deck", at,
                                    category="schema"))
        suits.append(SuitSpec(name, spec.code, ranks, letter, symbol, colour, at))
    letters = [s.letter for s in suits] + [s.letter for s in own.values() if s.name not in {x.name for x in suits}]
    for s in suits:
        if letters.count(s.letter) > 1:
            errors.append(RuleError(f"suit `{s.name}`'s letter {s.letter} is another suit's too: card names would "
                                    "be ambiguous", s.span, "give it a `letter:` of its own", category="schema"))
    return tuple(sorted(suits, key=lambda s: s.code))


def _colour(settings: dict, at: Span, errors: list[RuleError], what: str) -> int | None:
    raw = settings.get("colour")
    if raw is None:
        return None
    if str(raw) not in COLORS:
        errors.append(RuleError(f"{what}: `{raw}` is not a colour", getattr(settings, 'key_spans', {}).get("colour", at),
                                "red or black", category="schema"))
        return None
    return COLORS.index(str(raw))


def read_cards(raw: MarkedDict, errors: list[RuleError], own: dict[str, SuitSpec]) -> tuple[ExtraCard, ...]:
    """`cards: {EX: {label: Excuse}, RJ: {colour: red}, BJ: {colour: black}}`: cards named on their own."""
    cards = []
    for name, body in raw.items():
        name = str(name)
        at = raw.key_spans.get(name, raw.span)
        settings: dict = body if isinstance(body, MarkedDict) else {}
        if body is not None and not isinstance(body, MarkedDict):
            errors.append(RuleError(f"card `{name}` is described by a mapping (rank, suit, colour, label)",
                                    span_of(body, at), category="schema"))
        for key in settings:
            if key not in _CARD_KEYS:
                errors.append(RuleError(f"card `{name}` has no `{key}`", getattr(settings, 'key_spans', {}).get(key, at),
                                        did_you_mean(str(key), _CARD_KEYS) or "a card has " + ", ".join(_CARD_KEYS),
                                        category="schema"))
        if not (name.isascii() and name.isalnum() and name == name.upper() and name[:1].isalpha()) or \
                len(name) < 2 or name == "JOKER" or (len(name) == 2 and name.startswith("T")):
            errors.append(RuleError(f"`{name}` cannot name a card: a card's name is a capital letter and one or more "
                                    "capital letters and digits, as `EX` or `RJ` (not JOKER, and not T and one "
                                    "letter, which is a ten)", at,
                                    category="name"))
        rank = 0
        if "rank" in settings and str(settings["rank"]) != "joker":
            code = rank_code(settings["rank"])
            if code is None:
                errors.append(RuleError(f"card `{name}`: `{settings['rank']}` is not a rank",
                                        getattr(settings, 'key_spans', {}).get("rank", at), category="schema"))
            rank = code or 0
        suit = None
        if "suit" in settings:
            word = str(settings["suit"])
            known = list(SUITS) + list(own)
            if word in SUITS:
                suit = SUITS.index(word)
            elif word in own:
                suit = own[word].code
            else:
                errors.append(RuleError(f"card `{name}`: there is no suit `{word}` in this deck",
                                        getattr(settings, 'key_spans', {}).get("suit", at), did_you_mean(word, known),
                                        category="name"))
        colour = _colour(settings, at, errors, f"card `{name}`")
        if colour is None and suit is not None:
            colour = STANDARD_COLOURS[suit] if suit < len(SUITS) else next(
                (s.colour for s in own.values() if s.code == suit), None)
        label = str(settings.get("label", "🃏" if name == "JK" else name))
        cards.append(ExtraCard(name, label, rank, suit, colour, at))
    return tuple(cards)


def card_names(suits: tuple[SuitSpec, ...], ranks_of: dict[int, tuple[int, ...]], extras: tuple[ExtraCard, ...],
               jokers: int) -> list[str]:
    """Every card's name (a suited card's is its rank's and its suit's letter)."""
    names = [rank_word(r) + s.letter for s in suits for r in ranks_of[s.code]]
    return names + [c.name for c in extras] + ["JK"] * (1 if jokers else 0)


def clashes(names: list[str]) -> list[str]:
    """The names two different cards share (copies of one card are listed once by `card_names`)."""
    return sorted(name for name, count in Counter(names).items() if count > 1)
