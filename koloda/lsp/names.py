"""The names a rule file can use, each with what it is, its reference text and where it is defined:
the file's own (from its Spec and checked rules) and the language's built-ins."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
import re

from koloda.dsl import builtins as B
from koloda.dsl import reference as D
from koloda.dsl import resolved as R
from koloda.dsl.errors import Span
from koloda.dsl.model import Spec
from koloda.dsl.types import CONSTANTS, GRID, PLAYER, SIDE, TYPE_NAMES, ZONE

# What an editor shows a name as (the words match LSP's completion item kinds in server.py).
ZONE_KIND, VARIABLE, OPTION, FUNCTION, PROCEDURE, BUILTIN, STATE, CONSTANT, KEYWORD, ATTRIBUTE = (
    "zone", "variable", "option", "function", "procedure", "built-in", "state", "constant", "keyword", "attribute")

# The attribute tables and their reference text, by the type of what has them.
ATTRIBUTES: dict[str, tuple[dict[str, str], dict[str, str]]] = {
    "card": (B.CARD_ATTRS, D.CARD_ATTRS), "zone": (B.ZONE_ATTRS, D.ZONE_ATTRS), "plan": (B.PLAN_ATTRS, D.PLAN_ATTRS),
    "combo": (B.COMBO_ATTRS, D.COMBO_ATTRS),
    "grid": (B.GRID_ATTRS, D.GRID_ATTRS), "player": (B.PLAYER_ATTRS, D.PLAYER_ATTRS),
    "side": (B.SIDE_ATTRS, D.SIDE_ATTRS), "list": (B.LIST_ATTRS, D.LIST_ATTRS),
}


@dataclass(frozen=True)
class Name:
    name: str
    kind: str
    detail: str                  # its type or signature, one line
    doc: str = ""                # its reference text or `help:`
    span: Span | None = None     # where the rule file defines it


def own_names(spec: Spec | None, rules: R.Rules | None) -> dict[str, Name]:
    """The zones, variables, functions, procedures and value tables a rule file defines."""
    if spec is None:
        return {}
    names: dict[str, Name] = {}
    for z in spec.zones.values():
        whose = " of each side" if z.per_side else " of each player" if z.each_player else ""
        what = "grid" if z.grid is not None else "meld area" if z.melds else "zone"
        names[z.name] = Name(z.name, ZONE_KIND, f"{what}{whose}, visible: {z.visible}", "", z.span)
    var_types = rules.var_types if rules is not None else {}
    for v in spec.vars.values():
        whose = " of each side" if v.per_side else " of each player" if v.each_player else ""
        kind = var_types.get(v.name) or v.type or "?"
        names[v.name] = Name(v.name, VARIABLE, f"variable{whose}: {kind}", "", v.span)
    functions = rules.functions if rules is not None else {}
    for name, f in spec.functions.items():
        result = functions[name].type if name in functions else "?"
        names[name] = Name(name, FUNCTION, f"{_signature(f.signature)} -> {result}", "", f.signature.span)
    for name, p in spec.procedures.items():
        names[name] = Name(name, PROCEDURE, f"procedure {_signature(p.signature)}", "", p.signature.span)
    for name in spec.value_tables:
        names[name] = Name(name, FUNCTION, f"{name}(card c) -> int", f"the card's value in the table `{name}` of "
                           "`values:`", spec.value_spans.get(name))
    return names


def options(spec: Spec | None) -> dict[str, Name]:
    if spec is None:
        return {}
    return {name: Name(name, OPTION, f"option ({o.type}, default {_shown(o.default)})", o.help, o.span)
            for name, o in spec.options.items()}


@lru_cache(maxsize=1)
def builtin_names() -> dict[str, Name]:
    """The built-in functions, the names of the state of play and the constants (not to be changed)."""
    names = {name: Name(name, BUILTIN, _builtin_signature(name, sig), D.FUNCTIONS.get(name, ""))
             for name, sig in B.FUNCTIONS.items()}
    names.update({name: Name(name, STATE, t, D.STATE_NAMES.get(name, "")) for name, t in B.STATE_NAMES.items()})
    names.update({name: Name(name, CONSTANT, t) for name, (t, _) in CONSTANTS.items()})
    return names


def attributes(of: str | None) -> list[Name]:
    """The attributes of a value of a type (None: of anything that has them)."""
    kinds = [of] if of in ATTRIBUTES else [] if of is not None else list(ATTRIBUTES)
    found: dict[str, Name] = {}
    for kind in kinds:
        types, docs = ATTRIBUTES[kind]
        for name, t in types.items():
            found.setdefault(name, Name(name, ATTRIBUTE, f"{kind}.{name}: {t}", docs.get(name, "")))
    return list(found.values())


def player_names(spec: Spec | None, rules: R.Rules | None, side: bool = False) -> list[Name]:
    """What a player (or a side) has: their zones and variables, and the built-in attributes."""
    own = own_names(spec, rules)
    held: list[str] = []
    for table in ((spec.zones, spec.vars) if spec is not None else ()):
        for name, x in table.items():        # a player also has their side's (per_side sets each_player)
            if x.per_side if side else x.each_player:
                held.append(name)
    return [own[name] for name in held if name in own] + attributes(SIDE if side else PLAYER)


# `c in my hand`, `p in others`, `card c`: the names a file binds, and what their type suggests.
_BINDING = re.compile(r"\b([A-Za-z_]\w*)\s+in\s+(my\s+)?([A-Za-z_][\w.]*)(\s*\()?")
_TYPED = re.compile(r"\b(" + "|".join(TYPE_NAMES) + r")\s+([A-Za-z_]\w*)\b")


def local_types(text: str, spec: Spec | None) -> dict[str, str]:
    """A guess at the type of each name the file binds (the first binding of a name wins): enough to
    offer the right attributes after `c.`, not a check."""
    found: dict[str, str] = {}
    for m in _TYPED.finditer(text):
        found.setdefault(m.group(2), TYPE_NAMES[m.group(1)])
    for m in _BINDING.finditer(text):
        name, over, call = m.group(1), m.group(3), m.group(4)
        element = _element_of(over, bool(call), spec)
        if element is not None:
            found.setdefault(name, element)
    return found


def _element_of(over: str, call: bool, spec: Spec | None) -> str | None:
    last = over.split(".")[-1]
    if call:
        result = B.FUNCTIONS[last].result if last in B.FUNCTIONS else None
        return result.removeprefix("list:") if result and result.startswith("list:") else None
    if spec is not None and last in spec.zones:
        return "card"
    if last in B.STATE_NAMES and B.STATE_NAMES[last].startswith("list:"):
        return B.STATE_NAMES[last].removeprefix("list:")
    for types, _ in ATTRIBUTES.values():
        t = types.get(last)
        if t and t.startswith("list:"):
            return t.removeprefix("list:")
    return None


def type_of_chain(chain: list[str], spec: Spec | None, rules: R.Rules | None, locals_: dict[str, str]
                  ) -> str | None:
    """The type of `a.b.c` written before a dot, as far as it can be told; None if it cannot."""
    if not chain:
        return None
    head = chain[0]
    t: str | None
    if spec is not None and head in spec.zones:
        t = GRID if spec.zones[head].grid is not None else ZONE
    elif head in locals_:
        t = locals_[head]
    elif head in B.STATE_NAMES:
        t = B.STATE_NAMES[head]
    elif spec is not None and head in spec.vars:
        t = (rules.var_types.get(head) if rules is not None else None) or spec.vars[head].type
    else:
        return None
    for attr in chain[1:]:
        if t is None:
            return None
        if t.startswith("list:"):
            t = B.LIST_ATTRS.get(attr)
        elif t in (PLAYER, SIDE) and spec is not None:
            t = (ZONE if attr in spec.zones else
                 (rules.var_types.get(attr) if rules is not None else None) or
                 (B.PLAYER_ATTRS if t == PLAYER else B.SIDE_ATTRS).get(attr))
        elif t in ATTRIBUTES:
            t = ATTRIBUTES[t][0].get(attr)
        else:
            return None
    return t


def _signature(sig) -> str:
    return f"{sig.name}({', '.join(f'{p.type} {p.name}' for p in sig.params)})"


def _builtin_signature(name: str, sig: B.Signature) -> str:
    required = len(sig.params) - sig.optional
    params = [p.type + ("?" if i >= required else "") for i, p in enumerate(sig.params)]
    return f"{name}({', '.join(params)}) -> {sig.result}"


def _shown(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
