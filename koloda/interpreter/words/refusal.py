"""Why a move a person typed cannot be made now, in the rule file's words.

The typed text is read against every action of the game, not only the legal
ones: the action by the words its move text starts with (`meld`, `lay off`),
its parameters by the words in their places (`10H JH QH`), each looked up in
its `with:` domain. Then the first reason that stands is told: the game is
over, the action belongs to another phase or step, a parameter is not where
the action takes it from (`Q♠ is not in my hand`), or a part of the `if:`
fails (explain.py), with the action's `help:`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from string import Formatter
from typing import Any, Callable
from weakref import WeakKeyDictionary

from koloda.dsl import resolved as R
from koloda.dsl.labels import DEFAULT_LANGUAGE, Help, label_text
from koloda.dsl.types import BOOL, CARD, PLAN, PLAYER, RANK, SUIT, ZONE, show
from koloda.interpreter.base.cards import rank_name
from koloda.interpreter.core.codec import ActionCode
from koloda.interpreter.words.explain import FAILURES, Explainer, Finding, Look, Unknown
from koloda.interpreter.core.movetext import looks_like_card, normal_move, read_move

MAX_WORDS = 40           # a longer line names no move
MAX_VALUES = 20_000      # values of one parameter's domain looked through
MAX_SPELLED = 5_000      # the most moves of an action looked through to spell out a short form
SAID_WIDTH = 60          # the most of a typed line repeated in an answer


@dataclass
class _Template:
    """How an action's move text reads: literal words, and the parameters' places."""
    head: tuple[str, ...]                      # the literal words it starts with
    tokens: tuple[tuple[bool, str], ...]       # (is a parameter, word or parameter name)


@dataclass
class _Meant:
    code: ActionCode
    action: R.Action
    typed: dict[str, tuple[str, str]] | None   # parameter -> the words in its place (normal, as typed)


class _Untold(Exception):
    """Nothing may be said: the player may not know what the reason would tell."""


_readers: WeakKeyDictionary = WeakKeyDictionary()


def why_refused(state: Any, text: str, viewer: int | None = None, language: str = DEFAULT_LANGUAGE,
                rule_text: bool = False) -> str | None:
    """Why the move typed as `text` cannot be made now by `viewer` (the player to move if None),
    in the rule file's words (its `help:` texts in `language`, else English); None when the text names
    no action of the game, or names a legal move. The reason may take several lines. rule_text: the
    failing part of the guard as the file writes it, even where a `help:` says it in words (for designers)."""
    game = state.game
    reader = _readers.get(game)
    if reader is None:
        reader = _readers[game] = _Reader(game)
    try:
        who = state.current if viewer is None else viewer
        return reader.why(state, text, who, language, rule_text)
    except (_Untold, Unknown, *FAILURES):
        return None


class _Reader:
    def __init__(self, game: Any):
        self.game = game
        self.codec = game.codec
        self.rules = game.rules
        self.cards = game.cards
        self.explainer = Explainer(game.loaded, game.rules, game.view, game.layout)
        self.templates = [_template(code) for code in self.codec.actions]
        self._texts: dict[tuple[int, bool], str] = {}
        self._every: list[int] | None = None
        self._words: dict[int, set[tuple[str, ...]]] = {}

    def spelled(self, s: Any, text: str) -> str:
        """The whole text of the one move of the game a short form names (`x`: `double`, `2nt`: `bid 2 no
        trump`), else the text as typed. Only actions of few moves are looked through (not melds)."""
        if self._every is None:
            self._every = [a for code in self.codec.actions if code.size <= MAX_SPELLED
                           and all(p.type != PLAN for p in code.params) for a in range(code.offset, code.offset + code.size)]
        found, _ = read_move(text, self._every, self._text, None if s.terminal else s.current, self._words)
        return self._text(found[0], True) if len(found) == 1 else text

    def _text(self, action: int, plain: bool = False) -> str:
        key = (action, plain)
        found = self._texts.get(key)
        if found is None:
            try:
                found = self.game.action_to_string(action, plain)
            except (*FAILURES, Unknown):
                found = ""
            self._texts[key] = found
        return found

    # ------------------------------------------------------------ what was meant
    def meant(self, s: Any, words: list[str], original: list[str]) -> _Meant | None:
        """The action the words name: one whose text they fit, else one whose text they start like;
        of several, one of this step, else of this phase."""
        fits: list[_Meant] = []
        starts: list[_Meant] = []
        for code, template in zip(self.codec.actions, self.templates):
            action = self.rules.phases[code.phase].actions[code.name]
            places = _fit(template.tokens, words)
            if places is not None:
                typed = {var: (" ".join(words[i:j]), " ".join(original[i:j])) for var, (i, j) in places.items()
                         if var}
                fits.append(_Meant(code, action, typed))
            elif template.head and (tuple(words[:len(template.head)]) == template.head
                                    or tuple(words) == template.head[:len(words)]):
                # the words the move starts with, or their start (`take` of `take the pile (…)`)
                starts.append(_Meant(code, action, None))
        steps = self.rules.phases[s.phase].steps.get(s.step, ())

        def rank(m: _Meant) -> tuple[int, int, int]:
            here = m.code.phase == s.phase
            tokens = self.templates[m.code.index]
            # of texts that fit alike, the one with more of its own words (`bid {n} no trump`, not `bid {n} {s}`)
            return (0 if here and m.code.name in steps else 1 if here else 2, -len(tokens.head),
                    -sum(not is_param for is_param, _ in tokens.tokens))
        for found in (fits, starts):
            if found:
                return min(found, key=rank)
        return None

    def why(self, s: Any, text: str, viewer: int, language: str = DEFAULT_LANGUAGE,
            rule_text: bool = False) -> str | None:
        # brackets are words of their own, as in the move texts (`take the pile (A♥)`)
        spaced = text.replace("(", " ( ").replace(")", " ) ")
        original = spaced.split()
        words = normal_move(spaced).split()
        if not words or len(words) > MAX_WORDS or len(words) != len(original):
            return None
        if s.terminal:
            return _say(language, "over")
        meant = self.meant(s, words, original)
        if meant is None or meant.typed is None:
            # a short form (`x`, `2nt`) of one move of the game: read as that move's whole text
            whole = self.spelled(s, text)
            if whole != text:
                return self.why(s, whole, viewer, language, rule_text)
        if meant is None:
            return None
        said = " ".join(text.split())
        if len(said) > SAID_WIDTH:
            said = said[:SAID_WIDTH - 1] + "…"
        if viewer != s.current:
            return _say(language, "turn", said=said, player=f"P{s.current + 1}")
        code, action = meant.code, meant.action
        elsewhere = self._elsewhere(s, code, language)
        if elsewhere is not None:
            return f"`{said}`: {elsewhere}"
        if meant.typed is None:
            offered = [a for a in s.legal_actions() if code.offset <= a < code.offset + code.size]
            if offered:
                # the moves of that action that can be made now say what it takes
                shown = ", ".join(self.game.action_to_string(a) for a in offered[:6])
                more = _say(language, "more", n=str(len(offered) - 6)) if len(offered) > 6 else ""
                return _say(language, "whole", said=said, moves=shown + more)
            needs = ", ".join(f"{show(p.type)} for `{p.var}` ({p.var} in {self.explainer.quote(p.domain)})"
                              for p in action.params)
            return f"`{said}` is not a whole move: `{code.name}` takes {needs}" if needs else None
        look = Look(s, viewer)
        b, missing = self._bind(look, action, meant.typed)
        if missing is not None:
            whole = self.spelled(s, text)
            if whole != text:
                return self.why(s, whole, viewer, language, rule_text)
            return f"`{said}` cannot be made: {missing}"
        action_id = self._action_id(code, b)
        if action_id is not None and action_id in s.legal_actions():
            return None
        if action_id is not None:
            said = self.game.action_to_string(action_id)
        self.explainer.in_words = not rule_text
        found = self._guard(look, action, b)
        if found is None:
            return None
        finding, condition_help = found
        spec_action = self.game.spec.phases[code.phase].actions[code.name]
        # the failing condition's `help:`, else the action's, in the player's words; else the rule's own
        for help_text in () if rule_text else (condition_help, spec_action.help):
            told = self._help(help_text, look, action, b, language)
            if told:
                return _say(language, "refused", said=said, why=told)
        lines = [f"`{said}` is not allowed now: " + finding.lines()[0]] + ["  " + x for x in finding.lines()[1:]]
        return "\n".join(lines)

    def _help(self, help_text: Any, look: Look, action: R.Action, b: dict, language: str) -> str | None:
        """A help text in `language`, its `{…}` fields worked out for this move; None if there is none, or a
        field tells what the player may not know."""
        text = help_text.text(language) if isinstance(help_text, Help) else str(help_text or "")
        text = " ".join(text.split())
        if not text:
            return None
        ex = self.explainer
        public = frozenset(b)

        def said(node: R.Expr) -> str:
            if not ex.knowable(node, look, b, public):
                raise _Untold()
            return ex.render(ex.value(node, look.s, b), node.type)
        try:
            return filled(text, action.help_values, said)
        except (_Untold, Unknown):
            return None

    def _elsewhere(self, s: Any, code: ActionCode, language: str) -> str | None:
        """Where an action of another phase or step belongs, in words: `you can't meld now: first draw or
        take the discard` (the moves of now, by their labels)."""
        phase = self.rules.phases[code.phase]
        here = code.phase == s.phase and code.name in phase.steps.get(s.step, ())
        if here:
            return None
        now = self._now(s, language)
        verb = self._action_label(code.phase, code.name, language)
        if code.phase != s.phase:
            theirs = label_text(self.game.spec.phases[code.phase].label, phase.name, language)
            mine = label_text(self.game.spec.phases[s.phase].label, self.rules.phases[s.phase].name, language)
            return _say(language, "phase", verb=verb, theirs=theirs, mine=mine) + \
                (_say(language, "may", now=now) if now else "")
        order = list(phase.steps)
        later = [k for k, step in enumerate(order) if code.name in phase.steps[step]]
        if now and later and s.step in order and min(later) > order.index(s.step):
            return _say(language, "first", verb=verb, now=now)
        return _say(language, "not now", verb=verb) + (_say(language, "may", now=now) if now else "")

    def _now(self, s: Any, language: str) -> str:
        """The moves that can be made now, by the labels of their actions: `draw or take the discard`."""
        names: list[str] = []
        for a in s.legal_actions():
            code, _ = self.codec.decode(a, s)
            label = self._action_label(code.phase, code.name, language)
            if label not in names:
                names.append(label)
        if len(names) > 1:
            return ", ".join(names[:-1]) + _say(language, "or") + names[-1]
        return names[0] if names else ""

    def _action_label(self, phase: int, name: str, language: str) -> str:
        return label_text(self.game.spec.phases[phase].actions[name].label, name, language)

    # ------------------------------------------------------------ the parameters
    def _bind(self, look: Look, action: R.Action, typed: dict[str, tuple[str, str]]) -> tuple[dict, str | None]:
        """The parameters' values as typed, each found in its domain; or why one is not there.
        Raises _Untold for a domain the player may not see into (`c in stock`): whether a card is
        there is not theirs to learn."""
        ex = self.explainer
        b: dict[str, Any] = {}
        for p in action.params:
            if not self._domain_seen(look, p.domain, b):
                raise _Untold()
            values = [v for v in ex.items(p.domain, look.s, b)[:MAX_VALUES] if v is not None]
            if p.var not in typed:         # the move text does not show it: any value will do
                if not values:
                    return b, f"{ex.quote(p.domain)} is empty"
                b[p.var] = values[0]
                continue
            want, said = typed[p.var]
            found = [v for v in values if self._reads(v, p.type, want)]
            if not found:
                return b, self._not_in(look, p, want, said, values, b)
            b[p.var] = found[0]
        return b, None

    def _forms(self, v: Any, t: str) -> set[str]:
        forms = {self.explainer.render(v, t)}
        if t == CARD:
            forms.add(self.cards.names[v])
        elif t == PLAN:
            forms.add(self.game.plan_text(v, plain=True))
        elif t == SUIT and isinstance(v, int) and 0 <= v < self.cards.suit_radix:
            forms |= {self.cards.suit_letters[v], self.cards.suit_symbols[v]}
        return {normal_move(f) for f in forms}

    def _reads(self, v: Any, t: str, want: str) -> bool:
        forms = self._forms(v, t)
        if want in forms:
            return True
        # the cards of a meld in any order
        return t == PLAN and sorted(want.split()) in (sorted(f.split()) for f in forms)

    def _domain_seen(self, look: Look, domain: R.Expr, b: dict) -> bool:
        ex = self.explainer
        if domain.type != ZONE:
            return ex.knowable(domain, look, b, frozenset(b))
        try:
            return ex.zone_seen(ex.value(domain, look.s, b), look)
        except Unknown:
            return False

    def _not_in(self, look: Look, p: R.Param, want: str, said: str, values: list, b: dict) -> str:
        ex = self.explainer
        if p.type == CARD and not self.cards.parse(want):
            return f"`{said}` is not a card of this deck"
        if p.type == PLAN:
            named = [w.split("=")[0] for w in want.split()]
            unknown = [s.split("=")[0] for w, s in zip(named, said.split())
                       if looks_like_card(w) and not self.cards.parse(w)]
            if unknown:
                return f"`{unknown[0]}` is not a card of this deck"
            named = [w for w in named if looks_like_card(w)]
            away = self._not_in_zones(look, p.domain, named, b)
            if away:
                return away
        elif p.type != CARD and self._read(p.type, want) is _UNREAD:
            return f"`{said}` is not {show(p.type)}"
        domain = ex.quote(p.domain)
        if p.domain.type == ZONE:
            return f"{self._label(p.type, said)} is not in {domain}"
        if isinstance(p.domain, R.ListLit) and all(isinstance(i, R.Const) for i in p.domain.items) \
                and len(values) <= 20:        # a list written out: its values, once
            return f"{self._label(p.type, said)} is not one of {', '.join(ex.render(v, p.type) for v in values)}"
        listed = ""
        if p.type not in (CARD, PLAN) and len(values) <= 20:
            listed = f" ({', '.join(ex.render(v, p.type) for v in values)})"
        return f"{self._label(p.type, said)} is not among {domain}{listed}"

    def _not_in_zones(self, look: Look, domain: R.Expr, names: list[str], b: dict) -> str | None:
        """A card typed for a meld that is not in the zone its domain takes cards from (`my hand`)."""
        ex = self.explainer
        zones = [n for n in R.walk(domain) if isinstance(n, R.Expr) and n.type == ZONE]
        for z in zones:
            try:
                zone = ex.value(z, look.s, b)
            except Unknown:
                continue
            if not ex.zone_seen(zone, look):
                continue
            held = {self.cards.names[c] for c in look.s.zones[zone]}
            away = [self._label(CARD, name) for name in names if normal_move(name) not in held]
            if away:
                return f"{', '.join(away)} {'is' if len(away) == 1 else 'are'} not in {ex.quote(z)}"
        return None

    def _label(self, t: str, said: str) -> str:
        """What was typed for a parameter, its cards named as the table shows them."""
        if t == CARD:
            ids = self.cards.parse(said)
            if ids:
                return self.cards.labels[ids[0]]
        if t == PLAN:
            return "`" + " ".join(self.cards.labels[ids[0]] if (ids := self.cards.parse(w)) else w
                                  for w in said.split()) + "`"
        return said

    def _read(self, t: str, word: str) -> Any:
        """A typed word as a value of a type, for the types that are not looked up on the table."""
        w = word.strip().lower()
        if t == SUIT:
            cards = self.cards
            for k in range(cards.suit_radix):
                if w in (cards.suit_names[k], cards.suit_letters[k].lower(), cards.suit_symbols[k]):
                    return k
            return _UNREAD
        if t == RANK:
            names = {rank_name(r).lower(): r for r in range(self.cards.rank_radix)}
            return names.get(w, _UNREAD)
        if t == BOOL:
            return {"yes": True, "true": True, "no": False, "false": False}.get(w, _UNREAD)
        if t == PLAYER:
            return int(w[1:]) - 1 if w[:1] == "p" and w[1:].isascii() and w[1:].isdigit() and len(w) < 6 else _UNREAD
        if t == "int":
            digits = w.lstrip("-")
            return int(w) if digits.isascii() and digits.isdigit() and len(digits) < 12 else _UNREAD
        return None             # zones and sides are read by their labels only

    def _action_id(self, code: ActionCode, b: dict) -> int | None:
        number = 0
        for p in code.params:
            if p.var not in b:
                return None
            digit = p.digit_of(b[p.var])
            if digit is None:
                return None
            number = number * p.radix + digit
        return code.offset + number

    # ------------------------------------------------------------ the guard
    def _guard(self, look: Look, action: R.Action, b: dict) -> tuple[Finding, str] | None:
        """Why the guard fails, and the `help:` of the condition that fails (if written as a list)."""
        if action.guard is None:
            return None
        public = frozenset(b)
        for condition, help_text in action.conditions:
            # the first condition that fails and that the player may be told of
            found = self.explainer.why(condition, look, b, True, public, implied=False)
            if found is not None:
                return found, help_text
        if action.conditions:
            # none may be told alone; one that fails alone follows from the refusal
            failing = [(c, h) for c, h in action.conditions if self.explainer.truth(c, look.s, b) is False]
            if len(failing) == 1:
                found = self.explainer.why(failing[0][0], look, b, True, public)
                return None if found is None else (found, failing[0][1])
            return (Finding("its `if:` is false"), "") if failing else None
        found = self.explainer.why(action.guard, look, b, True, public)
        return None if found is None else (found, "")


_UNREAD = object()
# the words a refusal is framed in, per language (the reasons themselves are the rule file's)
_PHRASES = {
    "en": {"refused": "`{said}` is not allowed now: {why}", "not now": "you can't {verb} now",
           "first": "you can't {verb} yet: first {now}", "may": "; you may {now}", "or": " or ",
           "whole": "`{said}` is not a whole move: {moves}", "more": ", and {n} more",
           "over": "the game is over: no move can be made", "turn": "`{said}`: it is {player}'s turn, not yours",
           "phase": "you can't {verb} now: that is for the {theirs}, and this is the {mine}"},
    "ru": {"refused": "`{said}` сейчас нельзя: {why}", "not now": "сейчас нельзя {verb}",
           "first": "пока нельзя {verb}: сначала {now}", "may": "; можно {now}", "or": " или ",
           "whole": "`{said}` — не весь ход: {moves}", "more": " и ещё {n}",
           "over": "игра окончена: ходов больше нет", "turn": "`{said}`: сейчас ход {player}, не ваш",
           "phase": "сейчас нельзя {verb}: это ход фазы «{theirs}», а сейчас «{mine}»"},
}


def filled(text: str, values: dict[str, R.Expr], said: Callable[[R.Expr], str]) -> str:
    """A help text with each `{…}` field replaced by what `said` makes of its checked expression (`values`:
    the field as written -> the expression, as the checker resolved it). Raises Unknown for a field that
    was not checked."""
    def field(m: re.Match) -> str:
        node = values.get(m.group(1))
        if node is None:
            raise Unknown()
        return said(node)
    return _FIELD.sub(field, text)


def _say(language: str, key: str, **values: str) -> str:
    return _PHRASES.get(language, _PHRASES[DEFAULT_LANGUAGE])[key].format(**values)
_FIELD = re.compile(r"\{([^{}]*)\}")


def _template(code: ActionCode) -> _Template:
    """An action's move text as words and places (`meld {m}`), or its name and parameters."""
    names = [p.var for p in code.params]
    tokens: list[tuple[bool, str]] = []
    if code.text:
        try:
            for literal, field, _spec, _conv in Formatter().parse(code.text):
                tokens.extend((False, w) for w in normal_move(literal.replace("(", " ( ").replace(")", " ) ")).split())
                if field is not None:
                    # a computed value (`{value(c)}`) takes the words typed in its place, and names nothing
                    tokens.append((True, field if field in names else ""))
        except ValueError:
            tokens = []
    if not tokens:
        tokens = [(False, w) for w in normal_move(code.name).split()] + [(True, n) for n in names]
    head = []
    for is_param, word in tokens:
        if is_param:
            break
        head.append(word)
    return _Template(tuple(head), tuple(tokens))


def _fit(tokens: tuple[tuple[bool, str], ...], words: list[str]) -> dict[str, tuple[int, int]] | None:
    """Where the words typed in each parameter's place are (from, to), if the words fit the template
    (each place takes one word or more)."""
    failed: set[tuple[int, int]] = set()

    def go(t: int, w: int) -> dict[str, tuple[int, int]] | None:
        if (t, w) in failed:
            return None
        found: dict[str, tuple[int, int]] | None = None
        if t == len(tokens):
            found = {} if w == len(words) else None
        elif not tokens[t][0]:
            found = go(t + 1, w + 1) if w < len(words) and words[w] == tokens[t][1] else None
        else:
            for end in range(w + 1, len(words) + 1):
                found = go(t + 1, end)
                if found is not None:
                    found[tokens[t][1]] = (w, end)
                    break
        if found is None:
            failed.add((t, w))
        return found
    return go(0, 0)
