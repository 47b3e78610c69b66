"""What an action's parameter may range over, as far as its ids must be fixed before play.

Every move has an id fixed by the rule file, its options and the player count (interpreter/core/codec.py):
a parameter's values are digits. Two kinds of parameter are checked here, so that what cannot be coded
is said by `koloda check` where it is written rather than when the game runs:

* a word parameter, `g in ["grand", "null", "clubs_game"]`: its words are written in its list, each as
  a text, and its digit is its word's place there;
* a number parameter whose range or list reads the state of play (`b in [high + 1, 36]`): its digits
  are 0 to the deck's size, so a number it names outright must lie there;
* a combination parameter, `m in combos(my hand)`: its digit is the combination's place among all those the
  deck and `combos:` allow, and the cards it moves are taken from the cards `combos` was given when the move
  is made, so it ranges over a call of `combos` itself.
"""
from __future__ import annotations

from koloda.dsl import resolved as R
from koloda.dsl.errors import RuleError, did_you_mean
from koloda.dsl.fixed import fixed_int, fixed_span
from koloda.dsl.model import RESERVED, Spec
from koloda.dsl.types import CONSTANTS, STR, enum_of, list_of

__all__ = ["word_domain", "uncoded_numbers", "combo_domain", "combo_kind"]

_WORDS_HINT = 'write the words in the list, each as a text: `g in ["grand", "null"]`'


def word_domain(var: str, domain: R.Expr) -> tuple[str, R.Expr, list[RuleError]]:
    """A parameter over a list of texts is a word parameter: its type (the words, in the list's order),
    its domain as a list of those words, and what is wrong with it."""
    if not isinstance(domain, R.ListLit) or not domain.items \
            or not all(isinstance(i, R.Const) and i.type == STR for i in domain.items):
        return STR, domain, [RuleError(f"parameter `{var}` ranges over texts: a word parameter's words are "
                                       "written in its `with:`, fixed before play", domain.span, _WORDS_HINT,
                                       category="type")]
    items = [i for i in domain.items if isinstance(i, R.Const)]
    words = [str(i.value) for i in items]
    errors = [RuleError(f"`{i.value}` cannot be a word of parameter `{var}`: a word is a name such as "
                        "`grand`, and not a word of the language", i.span,
                        "words are letters, digits and `_`, such as `null_game`", category="type")
              for i in items if not str(i.value).isidentifier() or i.value in RESERVED or i.value in CONSTANTS]
    seen: set[str] = set()
    for item, word in zip(items, words):
        if word in seen:
            errors.append(RuleError(f"parameter `{var}` lists `{word}` twice", item.span,
                                    "each word once: a word is one move", category="type"))
        seen.add(word)
    t = enum_of(list(dict.fromkeys(words)))
    return t, R.ListLit(domain.span, list_of(t), tuple(R.Const(i.span, t, i.value) for i in items)), errors


def uncoded_numbers(var: str, domain: R.Expr, spec: Spec) -> list[RuleError]:
    """A number parameter whose range or list reads the state of play takes the digits 0 to the deck's
    size; a number it names outright (a list's item, a range's end, made of numbers and options) outside
    them, with the options' defaults and any player count, could never be a move: say so where it is."""
    defaults = {name: o.default for name, o in spec.options.items()}
    parts = domain.items if isinstance(domain, R.ListLit) else \
        (domain.low, domain.high) if isinstance(domain, R.Range) else ()
    for players in range(spec.min_players, min(spec.max_players, spec.min_players + 32) + 1):
        try:
            size = spec.deck.size(defaults, players)
        except RuleError:
            return []           # (the deck's own error is told where the deck is written)
        if size is None:
            return []
        known = {"player_count": players, "deck_size": size}
        if fixed_span(domain, defaults, known) is not None:
            continue            # fixed before play: numbered by its range (codec.py), checked elsewhere
        step = fixed_int(domain.step, defaults, known) if isinstance(domain, R.Range) and domain.step else None
        if step is not None and step <= 0:
            return []           # a step of 0 or less, told where it is written
        for part in parts:
            value = fixed_int(part, defaults, known)
            if value is not None and not 0 <= value <= size:
                table = f" with {players} players" if spec.min_players != spec.max_players else ""
                kind = "list" if isinstance(domain, R.ListLit) else "range"
                return [RuleError(
                    f"parameter `{var}` may take {value}, but its {kind} reads the state of play, so its "
                    f"numbers are 0 to the deck's size ({size}{table})",
                    part.span, "a number's ids are fixed before play: draw it from a range or a list made of "
                    "numbers and options only (`b in [18, 20, 22]`, `b in 100..300 by 5`), and let `if:` say "
                    "which of them may be taken", category="type")]
    return []


def combo_domain(var: str, domain: R.Expr) -> list[RuleError]:
    """A combination parameter ranges over `combos(CARDS)` or `combos(CARDS, KIND)` itself: a list made from
    it (a comprehension, a function's value) does not say which cards the move takes when it is made."""
    if isinstance(domain, R.BuiltinCall) and domain.name == "combos":
        return []
    return [RuleError(f"parameter `{var}` ranges over combinations, so it ranges over `combos(...)` itself",
                      domain.span, "write `with: m in combos(my hand)` and say under `if:` which may be played",
                      category="type")]


def combo_kind(kind: R.Expr, kinds: list[str]) -> list[RuleError]:
    """`combos(my hand, "chain")`: the kind is written out, one of `combos:`, so that its moves are known."""
    if not isinstance(kind, R.Const) or kind.type != STR:
        return [RuleError('the kind of `combos` is written as a text: `combos(my hand, "chain")`', kind.span,
                          "one of " + ", ".join(kinds), category="type")]
    if kinds and kind.value not in kinds:
        return [RuleError(f"there is no combination `{kind.value}` in `combos:`", kind.span,
                          did_you_mean(str(kind.value), kinds) or "one of " + ", ".join(kinds), category="name")]
    return []
