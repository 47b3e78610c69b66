"""A rule file as a rulebook: sections of entries, each entry a few lines of Markdown in one language.

Every entry has a key (`action:play/meld`, `option:hand`), so that two rulebooks can be compared rule
by rule (compare.py). The texts come from the rule file's constructs through the phrase tables, and
from the file's own `title:`, `source:`, `notes:`, `help:` and `label:` texts.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from koloda.dsl import resolved as R
from koloda.dsl.errors import RuleError
from koloda.dsl.decklist import RankItems, work_out_ranks
from koloda.dsl.deckspec import DeckSpec, deck_size
from koloda.dsl.labels import help_in, label_text
from koloda.dsl.model import Spec
from koloda.dsl.types import SUITS, rank_word
from koloda.rulebook.deeds import Deeds, Lines
from koloda.rulebook.phrases import Phrases
from koloda.rulebook.words import Words, source_of


@dataclass
class Entry:
    key: str
    lines: list[str]
    uses: frozenset[str] = frozenset()      # the rule file's functions and procedures it names


@dataclass
class Section:
    key: str
    title: str
    entries: list[Entry] = field(default_factory=list)


@dataclass
class Book:
    title: str
    sections: list[Section]
    fallbacks: dict[str, int]

    def markdown(self) -> str:
        out = [f"# {self.title}"]
        for s in self.sections:
            if not s.entries:
                continue
            out += ["", f"## {s.title}", ""]
            for e in s.entries:
                out.extend(e.lines)
        return "\n".join(out) + "\n"

    def entries(self) -> dict[str, Entry]:
        return {f"{s.key}/{e.key}": e for s in self.sections for e in s.entries}


def bullets(lines: Lines, base: int = 0) -> list[str]:
    return ["  " * (base + depth) + "- " + text for depth, text in lines]


def names_used(nodes: Sequence[R.Node]) -> frozenset[str]:
    """The rule file's own functions and procedures these nodes name (not those they name in turn)."""
    found = set()
    for n in nodes:
        for x in R.walk(n):
            if isinstance(x, (R.UserCall, R.Perform)):
                found.add(x.name)
    return frozenset(found)


class Writer:
    """Writes one rule file's rulebook in one language, for a table with these options."""

    def __init__(self, rules: R.Rules, language: str, options: Mapping[str, object]):
        self.rules = rules
        self.spec: Spec = rules.spec
        self.lang = language
        self.say = Phrases(language)
        self.options = options
        self.w = Words(rules, self.say, options)
        self.fx = Deeds(self.w)

    def book(self) -> Book:
        spec = self.spec
        title = spec.title_label.text(self.lang) if spec.title_label is not None else None
        sections = [self.about(), self.table_options(), self.deck(), self.zones(), self.melds(), self.kept(),
                    self.definitions(), self.procedures(), self.effects("setup", "book.setup", self.rules.setup),
                    self.effects("deal", "book.deal", self.rules.deal), *self.phases(), self.events(),
                    self.deal_end(), self.effects("scoring", "book.scoring", self.rules.scoring), self.match(),
                    self.shown(), self.counted()]
        return Book(title or spec.title, sections, dict(self.w.fallbacks))

    def entry(self, key: str, lines: list[str], nodes: Sequence[R.Node] = ()) -> Entry:
        return Entry(key, lines, names_used(nodes))

    # ------------------------------------------------------------ the game and its table
    def about(self) -> Section:
        spec, say = self.spec, self.say
        s = Section("about", say.word("book.players"))
        if spec.min_players == spec.max_players == 1:          # a solitaire: "1 players" reads wrong
            text = say.word("book.players.one")
        elif spec.min_players == spec.max_players:
            text = say.word("book.players.fixed", count=spec.min_players)
        else:
            text = say.word("book.players.range", low=spec.min_players, high=spec.max_players,
                            default=spec.default_players)
        if spec.sides:
            text += "; " + say.word("book.sides", count=spec.sides)
        s.entries.append(self.entry("players", [text + ".", ""]))
        if spec.source.strip():
            s.entries.append(self.entry("source", [f"*{say.word('book.source')}:* {spec.source.strip()}", ""]))
        if spec.notes.strip():
            s.entries.append(self.entry("notes", [f"*{say.word('book.notes')}:*", "", spec.notes.strip(), ""]))
        return s

    def table_options(self) -> Section:
        say = self.say
        s = Section("options", say.word("book.options"))
        for name, opt in self.spec.options.items():
            value = self.options.get(name, opt.default)
            text = say.word("book.option", name=name, value=_shown(value))
            text += " " + (say.word("book.option.default") if value == opt.default else
                           say.word("book.option.changed", default=_shown(opt.default)))
            if opt.help:
                text += f" — {opt.help}"
            if opt.choices:
                text += "; " + say.word("book.option.choices", choices=", ".join(_shown(c) for c in opt.choices))
            elif opt.low is not None:
                text += "; " + (say.word("book.option.range2", low=opt.low, high=opt.high) if opt.high is not None
                                else say.word("book.option.range", low=opt.low))
            s.entries.append(self.entry(name, ["- " + text]))
        return s

    def listed_deck(self, d: DeckSpec) -> str:
        """A deck built from a list: each suit and its ranks (at the default table), the cards named alone."""
        def ranks(items: RankItems) -> str:
            try:
                codes = work_out_ranks(items, dict(self.options), self.spec.default_players, d.span)
            except RuleError:
                return "…"
            return " ".join(rank_word(r) for r in codes)
        parts = [f"{self.say.word('suit.' + s.name) if s.code < len(SUITS) else s.name}: {ranks(s.ranks)}"
                 for s in d.suit_list]
        return "; ".join(parts + ([", ".join(c.label for c in d.extras)] if d.extras else []))

    def deck(self) -> Section:
        say, d = self.say, self.spec.deck
        s = Section("deck", say.word("book.deck"))
        try:
            base, copies, jokers = d.bound(dict(self.options), self.spec.default_players)
        except RuleError:
            base, copies, jokers = d.base, d.copies, d.jokers
        what = self.listed_deck(d) if d.listed else str(base)
        parts: list[str] = [say.word("book.deck.copies", copies=copies, base=what) if copies != 1
                 else what if d.listed else say.word("book.deck.base", base=base)]
        if jokers:
            parts.append(say.word("book.deck.jokers", jokers=jokers))
        if d.ranks is not None:
            parts.append(say.word("book.deck.ranks", ranks=" ".join(rank_word(r) for r in d.ranks)))
        if d.suits is not None:
            parts.append(say.word("book.deck.suits", suits=", ".join(say.word("suit." + SUITS[x]) for x in d.suits)))
        if d.per_player:
            parts.append(say.word("book.deck.each"))
        size = d.size(dict(self.options), self.spec.default_players) if d.listed or d.rank_items else \
            deck_size(base, copies, jokers, 1, False, d.ranks, d.suits)
        if size is not None:
            parts.append(say.word("book.deck.size", size=size))
        s.entries.append(self.entry("deck", ["- " + "; ".join(parts)]))
        if self.spec.ace != "high":
            s.entries.append(self.entry("ace", ["- " + say.word("book.deck.ace", ace=self.spec.ace)]))
        tables = self.spec.value_tables or ({"": self.spec.values} if self.spec.values else {})
        for name, values in tables.items():
            listed = ", ".join(f"{rank} = {v}" for rank, v in values.items())
            text = say.word("book.values.named", name=name, values=listed) if name else \
                say.word("book.values", values=listed)
            s.entries.append(self.entry("values:" + name, ["- " + text]))
        if self.rules.wild is not None:
            s.entries.append(self.entry("wild", ["- " + say.word("book.wild", cond=self.w(self.rules.wild))],
                                        [self.rules.wild]))
        return s

    def zones(self) -> Section:
        say = self.say
        s = Section("zones", say.word("book.zones"))
        for name, z in self.spec.zones.items():
            kind = say.word("zone.side" if z.per_side else "zone.each" if z.each_player else "zone.shared")
            if z.melds:
                kind += ", " + say.word("zone.melds")
            if z.grid is not None:
                kind += ", " + say.word("zone.grid", rows=len(z.grid))
            key = "seen." + z.visible
            seen = say.word(key) if say.has(key) else say.word("seen.other", visible=z.visible)
            s.entries.append(self.entry(name, ["- " + say.word("book.zone", name=self.w.zone_name(name), kind=kind,
                                                               seen=seen)]))
        return s

    def melds(self) -> Section:
        say = self.say
        s = Section("melds", say.word("book.melds"))
        for m in self.spec.meld_kinds:
            # a size set by an option reads as the option's name, as the options section lists it
            low = f"`{m.min_option}`" if m.min_option else m.min
            high = f"`{m.max_option}`" if m.max_option else m.max
            if m.of == "rank":
                text = (say.word("meld.set", name=m.name, low=low, high=high) if high is not None
                        else say.word("meld.set.open", name=m.name, low=low))
                text += " " + say.word("meld.suits." + m.suits) if say.has("meld.suits." + m.suits) else ""
                if m.repeat_from is not None:
                    text += " " + say.word("meld.repeat", n=m.repeat_from)
                if m.layoffs_past_max:
                    text += ", " + say.word("meld.past_max")
            else:
                text = say.word("meld.run", name=m.name, low=low)
                if high is not None:
                    text += " " + say.word("meld.run.max", high=high)
                    if m.layoffs_past_max:
                        text += ", " + say.word("meld.past_max")
                if say.has("meld.ace." + m.ace):
                    text += ", " + say.word("meld.ace." + m.ace)
            text += "; " + (say.word("meld.wild", n=m.wild_max) if m.wild_max is not None
                            else say.word("meld.wild.fewer"))
            s.entries.append(self.entry("meld:" + m.name, ["- " + text]))
        if self.spec.patterns:
            for p in self.spec.patterns:
                parts = []
                if p.groups:
                    parts.append(say.word("pattern.groups", groups="+".join(map(str, p.groups))))
                if p.same_suit:
                    parts.append(say.word("pattern.suit", n=p.same_suit))
                if p.run:
                    parts.append(say.word("pattern.run", n=p.run))
                s.entries.append(self.entry("pattern:" + p.name, [f"- **{p.name}**: " + ", ".join(parts)]))
        return s

    def kept(self) -> Section:
        say = self.say
        s = Section("vars", say.word("book.vars"))
        for name, v in self.spec.vars.items():
            text = say.word("book.var", name=self.w.var_name(name))
            if v.per_side or v.each_player:
                text += " " + say.word("var.side" if v.per_side else "var.each")
            start = self.rules.var_starts.get(name)
            if start is not None:
                text += ", " + say.word("var.start", start=self.w(start))
            if v.internal:
                text += " " + say.word("var.hidden")
            s.entries.append(self.entry(name, ["- " + text], [start] if start is not None else []))
        return s

    def definitions(self) -> Section:
        s = Section("define", self.say.word("book.defs"))
        for name, f in self.rules.functions.items():
            params = f"({', '.join(f.params)})" if f.params else ""
            text = self.say.word("book.def", name=_readable(name), params=params, body=self.w(f.body))
            s.entries.append(self.entry(name, ["- " + text], [f.body]))
        return s

    def procedures(self) -> Section:
        s = Section("procedures", self.say.word("book.procs"))
        for name, p in self.rules.procedures.items():
            params = f"({', '.join(p.params)})" if p.params else ""
            lines = ["- " + self.say.word("book.proc", name=_readable(name), params=params)]
            s.entries.append(self.entry(name, lines + bullets(self.fx(p.body), 1), list(p.body)))
        return s

    def effects(self, key: str, title: str, effects: tuple[R.Effect, ...]) -> Section:
        s = Section(key, self.say.word(title))
        if effects:
            s.entries.append(self.entry(key, bullets(self.fx(effects)), list(effects)))
        return s

    # ------------------------------------------------------------ play
    def phases(self) -> list[Section]:
        out = []
        specs = {p.name: p for p in self.spec.phases}
        for phase in self.rules.phases:
            spec = specs.get(phase.name)
            name = label_text(spec.label if spec else None, phase.name, self.lang)
            s = Section("phase:" + phase.name, self.say.word("book.phase", name=name))
            s.entries.append(self.phase_rules(phase, help_in(spec.help, self.lang) if spec else ""))
            actions = spec.actions if spec else {}
            for step, names in phase.steps.items():
                shown = ", ".join(self.action_name(phase.name, a) for a in names)
                s.entries.append(self.entry("step:" + step, ["", self.say.word("book.step", name=step, actions=shown),
                                                             ""]))
                for a in names:
                    if a in phase.actions:
                        aspec = actions.get(a)
                        s.entries.append(self.action(phase.actions[a], help_in(aspec.help, self.lang) if aspec else "",
                                                     self.action_name(phase.name, a)))
            out.append(s)
        return out

    def action_name(self, phase: str, action: str) -> str:
        for p in self.spec.phases:
            if p.name == phase and action in p.actions:
                return label_text(p.actions[action].label, action, self.lang)
        return action

    def phase_rules(self, phase: R.Phase, help_text: str) -> Entry:
        say = self.say
        lines: list[str] = []
        nodes: list[R.Node] = []
        if help_text:
            lines += [help_text.strip(), ""]
        for cond, key in ((phase.when, "phase.when"), (phase.first, "phase.first"), (phase.ends, "phase.ends")):
            if cond is not None:
                lines.append(say.word(key, cond=self.w(cond), player=self.w(cond)))
                nodes.append(cond)
        if phase.once:
            lines.append(say.word("phase.together" if phase.together else "phase.once"))
        for effects, key in ((phase.start, "phase.start"), (phase.after_turn, "phase.after")):
            if effects:
                lines += ["", say.word(key), ""] + bullets(self.fx(effects))
                nodes.extend(effects)
        return self.entry("rules", lines + [""], nodes)

    def action(self, a: R.Action, help_text: str, name: str) -> Entry:
        say = self.say
        head = say.word("action", name=name)
        if help_text:
            head += " " + say.word("action.help", help=help_text.strip())
        lines = ["- " + head]
        nodes: list[R.Node] = []
        for p in a.params:
            lines.append("  - " + say.word("action.choose", over=self.w.over(p.var, p.domain)))
            nodes.append(p.domain)
        conditions = [c for c, _ in a.conditions] if a.conditions else ([a.guard] if a.guard is not None else [])
        helps = [help_in(h, self.lang) for _, h in a.conditions] if a.conditions else [""]
        if len(conditions) == 1:
            lines.append("  - " + say.word("action.if", cond=self.w.clause(conditions[0])) + _otherwise(helps[0], say))
        elif conditions:
            lines.append("  - " + say.word("action.ifs"))
            lines += ["    - " + self.w.clause(c).nom + _otherwise(h, say) for c, h in zip(conditions, helps)]
        nodes += conditions
        if a.effects:
            lines.append("  - " + say.word("action.do"))
            lines += bullets(self.fx(a.effects), 2)
            nodes += list(a.effects)
        return self.entry("action:" + a.name, lines, nodes)

    def events(self) -> Section:
        s = Section("events", self.say.word("book.events"))
        for e in self.rules.events:
            lines = ["- " + self.say.word("event", name=e.name, cond=self.w(e.when))] + bullets(self.fx(e.effects), 1)
            s.entries.append(self.entry(e.name, lines, [e.when, *e.effects]))
        return s

    def deal_end(self) -> Section:
        s = Section("deal_ends", self.say.word("book.deal_ends"))
        if self.rules.deal_ends is not None:
            s.entries.append(self.entry("ends", [self.say.word("deal.ends", cond=self.w(self.rules.deal_ends)), ""],
                                        [self.rules.deal_ends]))
        if self.rules.turn_cap is not None:
            ends = self.say.word("cap." + self.spec.cap_ends) if self.say.has("cap." + self.spec.cap_ends) \
                else self.spec.cap_ends
            s.entries.append(self.entry("cap", [self.say.word("deal.cap", cap=self.w(self.rules.turn_cap), ends=ends),
                                                ""], [self.rules.turn_cap]))
        return s

    def match(self) -> Section:
        say, rules, m = self.say, self.rules, self.spec.match
        s = Section("match", say.word("book.match"))
        lines: list[str] = []
        nodes: list[R.Node] = []
        if rules.first_dealer is not None:
            lines.append(say.word("match.first", player=self.w(rules.first_dealer)))
            nodes.append(rules.first_dealer)
        else:
            lines.append(say.word("match.first.lot"))
        if rules.next_dealer is not None:
            lines.append(say.word("match.next", player=self.w(rules.next_dealer)))
            nodes.append(rules.next_dealer)
        else:
            lines.append(say.word("match.rotate" if m.rotate else "match.stays"))
        s.entries.append(self.entry("dealer", lines + [""], nodes))
        if rules.match_ends is not None:
            s.entries.append(self.entry("ends", [say.word("match.ends", cond=self.w(rules.match_ends)), ""],
                                        [rules.match_ends]))
        else:
            s.entries.append(self.entry("ends", [say.word("match.one"), ""]))
        lines, nodes = [], []
        if rules.match_score is not None:
            lines.append(say.word("match.score", score=self.w(rules.match_score)))
            nodes.append(rules.match_score)
        if rules.house_score is not None and self.rules.spec.house is not None:     # each player against the house
            house = label_text(self.rules.spec.house.label, "house", say.language)
            lines.append(say.word("match.house." + m.winner, house=house, score=self.w(rules.house_score)))
            nodes.append(rules.house_score)
        elif rules.match_won is not None:         # a goal: whoever reaches it wins, whatever the scores
            lines.append(say.word("match.won", cond=self.w(rules.match_won)))
            nodes.append(rules.match_won)
        else:
            key = "match.winner." + m.winner
            lines.append(say.word(key) if say.has(key) else say.word("match.winner.other", winner=m.winner))
        s.entries.append(self.entry("score", lines + [""], nodes))
        return s

    def shown(self) -> Section:
        s = Section("show", self.say.word("book.show"))
        for name, value in self.rules.show.items():
            s.entries.append(self.entry(name, ["- " + self.say.word("show", name=name, value=self.w(value))], [value]))
        return s

    def counted(self) -> Section:
        """`count:` conditions: counted for `simulate`'s report, never shown at the table."""
        s = Section("count", self.say.word("book.counters"))
        for name, cond in self.rules.counters.items():
            s.entries.append(self.entry("count:" + name, ["- " + self.say.word("counter", name=name,
                                                                                 cond=self.w(cond))], [cond]))
        return s


def _otherwise(text: str, say: Phrases) -> str:
    """A condition's help: what a refusal for it says."""
    return " " + say.word("action.otherwise", help=text.strip()) if text else ""


def _help(text: str, say: Phrases) -> str:
    return " " + say.word("action.help", help=text.strip()) if text else ""


def _shown(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _readable(name: str) -> str:
    return name.replace("_", " ")


__all__ = ["Book", "Entry", "Section", "Writer", "source_of"]
