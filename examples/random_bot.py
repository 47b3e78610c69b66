"""A koloda seat played from outside: reads JSON lines on standard input, answers one move a line.

    koloda play pony --seat human --seat "cmd:python examples/random_bot.py"
    koloda simulate kunkin -n 10 --seat "cmd:python examples/random_bot.py" --seat greedy

It plays a random legal move, but prefers a move that plays a card when it can, to show how the
observation and the moves' texts can be read. See docs/ai.md for the protocol. It needs nothing
but Python: no koloda, no packages.
"""
import json
import random
import sys


def choose(message: dict, rng: random.Random) -> int:
    legal = message["legal"]                 # [{"id": 12, "text": "play 9♣"}, ...]
    seen = message["observation"]            # what this seat may see: zones, variables, recent moves
    mine = [z for z in seen["zones"] if z.get("owner") == message["seat"] and "cards" in z]
    plays = [m for m in legal if m["text"].startswith("play")]
    if plays and mine:
        return rng.choice(plays)["id"]
    return rng.choice(legal)["id"]


def main() -> None:
    rng = random.Random(0)
    for line in sys.stdin:                   # the input closes when the game is over
        message = json.loads(line)
        if message["type"] == "start":
            rng.seed(message["seat"])
            print(f"playing seat {message['seat'] + 1} of {message['title']}", file=sys.stderr)
        elif message["type"] == "move":
            print(json.dumps({"move": choose(message, rng)}), flush=True)


if __name__ == "__main__":
    main()
