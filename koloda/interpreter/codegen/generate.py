"""The flow's hot paths as generated Python source, compiled once per load.

The rules run as generated Python only. This module writes one Python module
per load from the checked tree and puts its functions in the flow's frame
(game._flow):

- per step of a phase, the listing of its legal moves: every action's
  parameters as nested loops, its `if:` inline, parts that read no parameter
  worked out once per listing, locals for the state's lists;
- per list of effects (an action's `do:`, a phase's start and `after turn`,
  events, the deal, scoring), one function;
- the conditions the flow asks (`ends:`, `when:`, a phase's `if:`, `deal
  ends`, the match's end and score, the next dealer, the turn cap, the
  condition that closes an open window, the variables' starts);
- the values asked outside the flow: `count:`, `show:`, the move texts'
  computed fields; and, in a module of their own (`expressions`), one
  expression of a tool or a test (game.compile_expression) and the parts a
  refusal explains (explain.py).

That code is fast: it checks nothing it need not. Whenever a function of it
fails, the same node's checked function is generated (once, when first asked:
`recovery`, gen_checks.py) from the same generator methods in the checked mode,
and asked instead: it gives the value, or the error the rules give at its place
in the file. A listing that fails is listed again checked, from the start; a
condition is worked out again checked; in effects each expression that can
fail is (gen_effects.py), since effects before it have changed the state.

`KOLODA_SHOW_SOURCE=1` prints the generated module to stderr at each load.
"""
from __future__ import annotations

import hashlib
import linecache
import os
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from koloda.dsl import resolved as R
from koloda.dsl.errors import RuleError
from koloda.dsl.types import COMBO, PLAN
from koloda.interpreter.codegen.codecache import compiled
from koloda.interpreter.base.errors import PYTHON_FAILURES, RuleRuntimeError
from koloda.interpreter.core.cardmoves import move_card, move_cards
from koloda.interpreter.core.flow import Action, Flow, SlowListing
from koloda.interpreter.codegen.gen_checks import CHECKS, Checked
from koloda.interpreter.codegen.gen_listing import ListingGen
from koloda.interpreter.codegen.gen_frag import Frag
from koloda.interpreter.runtime.gen_runtime import RUNTIME
from koloda.interpreter.codegen.gen_source import Function, Module
from koloda.interpreter.core.watch import Watch


def _located(exc: Exception, span: Any) -> RuleRuntimeError:
    return RuleRuntimeError(f"this effect failed: {exc}", span)


NAMESPACE: dict[str, Any] = {**RUNTIME, **CHECKS, "_RuleError": RuleError, "_FAILURES": PYTHON_FAILURES,
                             "_RRE": RuleRuntimeError, "_located": _located, "_perf": time.perf_counter,
                             "_Slow": SlowListing, "_move_card": move_card, "_move_cards": move_cards,
                             "__builtins__": __builtins__}


@dataclass
class Generated:
    """What was generated for one game: the source, and how long it took."""
    source: str = ""
    namespace: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0                # generating, compiling and installing
    compile_seconds: float = 0.0        # of which Python's compile(), or reading its result from the cache
    installs: list[tuple[Callable[[Any], None], str]] = field(default_factory=list)


# True: the whole flow is written checked, as its recovery is (tests compare a game played so with its fast play)
ALL_CHECKED = False


def _run(gen: "Generator", title: str) -> tuple[dict[str, Any], str, float]:
    """Compile and run the module `gen` wrote, under a file name of its own (`<koloda TITLE HASH>`, one
    per text, so that tracebacks and profiles show its lines): its namespace, its source, and the
    seconds Python's compile() took (or reading its result from the cache)."""
    source = gen.m.source()
    filename = f"<koloda {title} {hashlib.sha256(source.encode('utf-8', 'replace')).hexdigest()[:8]}>"
    compiling = time.perf_counter()
    code = compiled(source, filename)
    seconds = time.perf_counter() - compiling
    namespace = gen.m.namespace
    exec(code, namespace)
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    return namespace, source, seconds


def generate(flow: Flow, loaded: Any, rules: R.Rules, watch: Watch, label: str,
             values: Sequence[R.Expr] = (), fns: list[Callable] | None = None) -> Generated:
    """Put the generated functions in the flow's frame (game._flow), and in `fns` those of `values`
    (expressions asked outside the flow: `count:`, `show:`, a move text's fields)."""
    started = time.perf_counter()
    gen = Generator(loaded, Module(NAMESPACE), watch)
    gen.checked = ALL_CHECKED
    done = gen.flow(flow, rules)
    for k, node in enumerate(values):
        if fns is not None:
            done.installs.append((_keyed(fns, k), gen.asked(node)))
    namespace, source, done.compile_seconds = _run(gen, f"generated {label!r}")
    for install, name in done.installs:
        install(namespace[name])
    done.installs.clear()
    done.source, done.namespace = source, namespace
    done.seconds = time.perf_counter() - started
    if os.environ.get("KOLODA_SHOW_SOURCE", "") not in ("", "0"):
        print(f"# generated for {label} in {done.seconds * 1000:.1f} ms\n{source}", file=sys.stderr)
    return done


def expressions(loaded: Any, watch: Watch, nodes: Sequence[R.Expr], label: str) -> list[Callable]:
    """Generated functions (s, b) for expressions asked apart from a game's module (one expression of
    a tool or a test, what a refusal explains), in one module, each reading its local names from the
    bindings `b`; where one fails, its checked function works it out again (for the located error)."""
    if not nodes:
        return []
    gen = Generator(loaded, Module(NAMESPACE), watch)
    names = [gen.asked(n) for n in nodes]
    namespace = _run(gen, f"generated {label!r}")[0]
    return [namespace[name] for name in names]


def effects(loaded: Any, watch: Watch, nodes: tuple[R.Effect, ...], names: Sequence[str], label: str) -> Callable:
    """A list of effects run apart from a game's module (a tool or a test): a function (s, b), the values of
    its local `names` read from `b`."""
    gen = Generator(loaded, Module(NAMESPACE), watch)
    name = gen.effects_function(nodes, list(names))
    namespace = _run(gen, f"generated {label!r}")[0]
    return namespace[name]


THIS_FAILED = "this failed"         # what a Python failure in a condition the flow asks is


def checked_function(loaded: Any, watch: Watch, write: Callable[["Generator"], str]) -> Callable:
    """The function `write` writes with a generator in the checked mode, compiled in a module of its own."""
    gen = Generator(loaded, Module(NAMESPACE), watch)
    gen.checked = True
    name = write(gen)
    namespace = _run(gen, "checked")[0]
    return namespace[name]


class Generator(ListingGen):
    """A game's flow as generated functions: its listings, effects and conditions, each installed in the
    flow's frame; and the checked function of each, written when first asked."""

    def __init__(self, loaded: Any, module: Module, watch: Watch):
        super().__init__(loaded, module)
        self.watch = watch

    def flow(self, flow: Flow, rules: R.Rules) -> Generated:
        done = Generated()
        add = done.installs.append
        for phase, ph in zip(flow.phases, rules.phases):
            if ph.first is not None and phase.first is not None:
                add((_setter(phase, "first"), self.condition(ph.first, failed=THIS_FAILED)))
            if ph.ends is not None and phase.ends is not None:
                add((_setter(phase, "ends"), self.condition(ph.ends, failed=THIS_FAILED)))
            if ph.when is not None and phase.when is not None:
                add((_setter(phase, "when"), self.condition(ph.when, failed=THIS_FAILED)))
            add((_setter(phase, "start"), self.effects_function(ph.start)))
            add((_setter(phase, "after_turn"), self.effects_function(ph.after_turn)))
            for step, actions in phase.steps.items():
                pairs = [(ph.actions[a.name], a) for a in actions]
                add((_keyed(phase.listings, step), self.step_listing(pairs)))
                phase.checked[step] = self.recovery(_listing(pairs))
        for action, ra in zip(flow.actions, [a for ph in rules.phases for a in ph.actions.values()]):
            # a plan is decoded from the state, a word from its list, a combination from its code: by the codec
            if all(p.type not in (PLAN, COMBO) and p.words is None for p in action.params):
                digits = [(p.var, p.type, pc.radix, pc.low, pc.step) for p, pc in zip(ra.params, action.params)]
                add((_setter(action, "run_code"), self.action_function(ra.effects, digits)))
            elif len(action.params) == 1 and action.params[0].type == COMBO \
                    and isinstance(ra.params[0].domain, R.BuiltinCall) and ra.params[0].domain.name == "combos":
                rp, call = ra.params[0], ra.params[0].domain       # one combination: its code read here
                add((_setter(action, "run_code"), self.combo_function(ra.effects, rp.var, action.params[0].low,
                                                                      call.args[0])))
            else:           # run with the parameters the codec decodes (a combination's cards taken where it lies)
                picks = {p.var: p.domain.args[0] for p in ra.params
                         if p.type == COMBO and isinstance(p.domain, R.BuiltinCall)}
                add((_setter(action, "run"), self.effects_function(ra.effects, [p.var for p in ra.params], picks)))
        for event, re in zip(flow.events, rules.events):
            add((_setter(event, "when"), self.condition(re.when, failed=THIS_FAILED)))
            add((_setter(event, "run"), self.effects_function(re.effects)))
        for attr, nodes in (("setup", rules.setup), ("deal", rules.deal), ("scoring", rules.scoring)):
            add((_setter(flow, attr), self.effects_function(nodes)))
        for attr, node, params in (("deal_ends", rules.deal_ends, ()), ("match_ends", rules.match_ends, ()),
                                   ("first_dealer", rules.first_dealer, ()), ("score", rules.match_score, ("p",)),
                                   ("heuristic", rules.heuristic, ("p", "viewer")),
                                   ("next_dealer", rules.next_dealer, ()), ("turn_cap", rules.turn_cap, ()),
                                   ("house_score", rules.house_score, ())):
            if node is not None and getattr(flow, attr) is not None:      # (the heuristic is asked apart)
                failed = None if attr == "heuristic" else THIS_FAILED
                add((_setter(flow, attr), self.condition(node, params, failed=failed)))
        starts = flow.var_starts.starts
        for k, node in enumerate(rules.var_starts.values()):
            if node is not None:
                add((_start(starts, k), self.condition(node, failed=THIS_FAILED)))
        for window in list(flow.windows):       # (those the effects opened: each knows its effect)
            opener = window.source
            if window.closes is not None and isinstance(opener, R.AskWindow) and opener.closes is not None:
                add((_setter(window, "closes"), self.condition(opener.closes)))
        return done

    # ------------------------------------------------------------ conditions
    def condition(self, node: R.Expr, params: tuple[str, ...] = (), watched: bool = True,
                  failed: str | None = None) -> str:
        """A function (s, b) giving the value of an expression; if it fails, its checked function's
        (generated then, see `recovery`), which raises the located error. A watched condition (watch.py)
        is asked only while the bits of its parts are set, and a part found false clears its bit. The
        flow's parameters are never none; those of an expression asked outside it (not `watched`) may be.
        `failed`: what a Python failure in it is (`this failed: …` at its place), or None to let it pass."""
        name = self.m.name("cond")
        self.fn = Function(self.m, name, "s, b", pure=True)
        self.listing, self.hoisting, self.memo = False, True, False
        parts = self.watch.parts.get(node) if watched else None
        head: list[str] = []
        if parts is not None:       # first of all, before the cells are made: most often nothing changed
            mask = self.watch.bits[node]
            head = [f"    if s.dirty & {mask} != {mask}:", "        return False"]
        scope = {}
        for p in params:
            local = self.m.local(p)
            self.fn.emit(f"{local} = b[{self.m.literal(p)}]", 1)
            scope[p] = Frag(local, frozenset({local}), True, watched)
        # a costly part asked for twice (a function of the rules used twice in it) is worked out once
        self.share = self.share_inner = not self.checked
        try:
            texts = [self.root(node, scope).text] if parts is None else [self.root(p, scope).text for p, _ in parts]
        finally:
            self.share = self.share_inner = False
        texts = self.fn.fold_single("\x03".join(texts)).split("\x03")
        if parts is None:
            self.fn.emit("try:", 1)
            self.fn.emit(f"return {texts[0]}", 2)
        else:           # part by part, as `and` goes: the part found false clears its bit
            values = [(text, bit) for text, (_, bit) in zip(texts, parts)]
            self.fn.emit("try:", 1)
            for k, (text, bit) in enumerate(values):
                self.fn.emit(f"_t0 = {text}", 2)
                if bit or k < len(values) - 1:
                    self.fn.emit("if not _t0:", 2)
                    if bit:
                        self.fn.emit(f"s.dirty &= {~bit}", 3)
                    self.fn.emit("return _t0", 3)
        if self.checked:
            self.fn.emit("except _RuleError:", 1)
            self.fn.emit("raise", 2)
            if failed is not None:
                self.fn.emit("except _FAILURES as _e:", 1)
                self.fn.emit(f"raise _ck_failed({self.m.literal(failed)}, _e, {self.at(node)}) from None", 2)
        else:
            self.fn.emit("except Exception:", 1)
            recover = self.recovery(lambda gen: gen.condition(node, params, watched, failed))
            self.fn.emit(f"return {self.m.const(recover, 'checked')}(s, b)", 2)
        if parts is not None:
            self.fn.emit("return _t0", 1)
        self.m.add(self.fn.text(head))
        return name

    def asked(self, node: R.Expr, params: Sequence[str] | None = None) -> str:
        """An expression asked outside the flow: a function (s, b) reading its local names (`params`, else
        all it reads) from `b`. A Python failure in it passes as it is."""
        names = tuple(sorted(self.c.free_locals(node))) if params is None else tuple(params)
        return self.condition(node, names, watched=False)

    def recovery(self, write: Callable[["Generator"], str]) -> Checked:
        """The checked function `write` writes (in a module of its own), generated when first asked."""
        loaded, watch = self.c, self.watch
        return Checked(lambda: checked_function(loaded, watch, write))

def _listing(pairs: list[tuple[R.Action, Action]]) -> Callable[[Generator], str]:
    """What writes one step's listing (its actions, each with what the flow made of it)."""
    return lambda gen: gen.step_listing(pairs)


def _setter(obj: Any, attr: str) -> Callable[[Any], None]:
    return lambda value: setattr(obj, attr, value)


def _start(starts: list, k: int) -> Callable[[Any], None]:
    """Puts a variable's generated start in its place (varstarts.VarStarts)."""
    def put(value: Any) -> None:
        base, owners, _ = starts[k]
        starts[k] = (base, owners, value)
    return put


def _keyed(table: dict | list, key: Any) -> Callable[[Any], None]:
    return lambda value: table.__setitem__(key, value)
