"""The limits a rule file must keep to.

A rule file is data from whoever wrote it: these bounds make reading,
checking and loading one take bounded time and memory, and each has its
own message. docs/language.md lists them for authors.
"""
from __future__ import annotations

MAX_FILE_BYTES = 1_000_000           # one rule file, as read from disk
MAX_YAML_DEPTH = 64                  # mappings and lists inside one another
MAX_YAML_ALIASES = 1_000             # `*name` references to anchors
MAX_YAML_NODES = 200_000             # values in the file once every alias is expanded
MAX_CHAIN = 32                       # files reached through `extends:` and `import:`, one after another
MAX_EXPRESSION_DEPTH = 240           # operators and calls inside one another in one expression or effect
MAX_NESTING = 250                    # the same, counting the bodies of the rule file's functions it calls
MAX_NUMBER = 999_999_999             # the largest whole number written in a rule file
MAX_CARDS = 10_000                   # cards in a game, every deck and joker counted
MAX_PLAYERS = 64
LOOP_LIMIT = 1_000                   # rounds of a `repeat:` or `while:` loop unless its `limit:` says otherwise
MAX_LOOP_LIMIT = 1_000_000           # the most a loop's `limit:` may allow
MAX_PROCEDURE_DEPTH = 32             # procedures calling procedures, one inside another
MOST_NUMBERS = 10_000                # values of one number parameter drawn from a range fixed before play
# The work of one run of the rules, counted in steps: an item of a list made or gone through (a
# comprehension's, a range's, a `for:` loop's, the values of a move's parameters), a round of a
# loop, a procedure run, the events checked. One listing of legal moves, one action (with the events
# and the flow after it), and one deal (at load: the setup and the first deal) each have this many.
MAX_WORK = 1_000_000
MAX_VALUE = 10 ** 18                 # whole numbers in play stay within ±this
