"""What two variants change, rule by rule: two rulebooks compared entry by entry.

An entry whose words differ is changed. So is, in effect, an entry whose words are the same but that
uses a definition or procedure that changed (directly or through others): it is listed with the names
it depends on, since the rule now does something else although it reads the same.
"""
from __future__ import annotations

from koloda.rulebook.book import Book, Entry
from koloda.rulebook.phrases import Phrases

_DEFINITIONS = ("define/", "procedures/")


def changed_names(a: dict[str, Entry], b: dict[str, Entry]) -> set[str]:
    """The definitions and procedures that differ, and those that use them, however indirectly."""
    names = {key.split("/", 1)[1] for key in set(a) | set(b) if key.startswith(_DEFINITIONS)
             and (key not in a or key not in b or a[key].lines != b[key].lines)}
    grew = True
    while grew:
        grew = False
        for key, entry in b.items():
            name = key.split("/", 1)[1]
            if key.startswith(_DEFINITIONS) and name not in names and entry.uses & names:
                names.add(name)
                grew = True
    return names


def difference(a: Book, b: Book, name_a: str, name_b: str, language: str) -> tuple[str, int]:
    """The differences as Markdown, and how many rules differ."""
    say = Phrases(language)
    ea, eb = a.entries(), b.entries()
    titles = {f"{s.key}/{e.key}": s.title for book in (a, b) for s in book.sections for e in s.entries}
    affected = changed_names(ea, eb)
    changed, added, removed = [], [], []
    for key, entry in ea.items():
        if key not in eb:
            removed.append(_block(titles[key], key, entry.lines))
        elif entry.lines != eb[key].lines:
            changed.append(_block(titles[key], key, [f"*{say.word('diff.was')}:*", "", *entry.lines, "",
                                                     f"*{say.word('diff.now')}:*", "", *eb[key].lines]))
        elif eb[key].uses & affected:
            note = say.word("diff.uses", names=", ".join(sorted(f"“{n}”" for n in eb[key].uses & affected)))
            changed.append(_block(titles[key], key, [note, "", *entry.lines]))
    added = [_block(titles[key], key, entry.lines) for key, entry in eb.items() if key not in ea]
    out = [f"# {say.word('diff.title', a=name_a, b=name_b)}", ""]
    for title, blocks in ((say.word("diff.changed"), changed), (say.word("diff.removed", a=name_a, b=name_b), removed),
                          (say.word("diff.added", a=name_a, b=name_b), added)):
        if blocks:
            out += [f"## {title}", ""]
            for block in blocks:
                out += block
    count = len(changed) + len(added) + len(removed)
    if not count:
        out.append(say.word("diff.none"))
    return "\n".join(out).rstrip() + "\n", count


def _block(title: str, key: str, lines: list[str]) -> list[str]:
    what = key.split("/", 1)[1]
    return [f"### {title}: {what}", "", *[line for line in lines], ""]
