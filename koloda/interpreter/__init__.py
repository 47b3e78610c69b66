"""The engine: a checked game assembled (game.py) from its wings, each importing only those before it:

base (cards, the layout, errors, the work budget) < melds (the meld search, compiled) < runtime (the
built-ins on plain values) < core (the state and its flow) < codegen (the rules as generated Python) <
words (what a seat sees and is told). docs/architecture.md draws them; tests/test_architecture.py checks them.
"""
