#!/usr/bin/env python3
"""Bot tournament: each computer level against three random players (or three of ``--opponent``).

Every level plays the same seeded 4-player deals, each deal four times with the level in each seat
in turn (game ``i`` deals seed ``--seed + i // 4`` and seats the level at ``i % 4``), so neither
seat nor deal luck favours a level. A game's win counts 1, a shared win 1/k among k winners; the
random level itself scores exactly 0.25, which checks the set-up.

    python scripts/tournament.py                      # 2,000 games per level, guide rules, jaques deck
    python scripts/tournament.py --games 500 --profile dutch --json
    python scripts/tournament.py --levels expert --opponent memory     # head to head
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from voicegame.bots import BOT_LEVELS, make_bot
from voicegame.decks import load_deck
from voicegame.engine import Game, profile

PLAYERS = ["North", "East", "South", "West"]


def play(level: str, opponent: str, rules_name: str, deck_name: str | None, games: range) -> list[float]:
    """The level's score in each of ``games`` (1, 1/k for a k-way shared win, or 0)."""
    rules = profile(rules_name)
    deck = load_deck(deck_name or rules.deck, three_generations=rules.three_generations)
    scores = []
    for i in games:
        seed = i // len(PLAYERS)
        game = Game(PLAYERS, rules=rules, deck=deck, seed=seed)
        me = PLAYERS[i % len(PLAYERS)]
        bots = {p: make_bot(level if p == me else opponent, game, p, seed) for p in PLAYERS}
        while not game.over:
            game.apply(bots[game.current_player].choose())
        scores.append(1 / len(game.winners) if me in game.winners else 0.0)
    return scores


def summary(scores: list[float], seconds: float) -> dict[str, Any]:
    n = len(scores)
    mean = sum(scores) / n
    var = sum((s - mean) ** 2 for s in scores) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n)
    return {"games": n, "win_rate": mean, "ci95": [max(0.0, mean - half), min(1.0, mean + half)],
            "seconds": round(seconds, 3)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=2000, help="games per level (default 2000)")
    ap.add_argument("--profile", default="guide", help="rules profile (default guide)")
    ap.add_argument("--deck", default=None, help="deck (default: the profile's, jaques for guide)")
    ap.add_argument("--levels", default=",".join(BOT_LEVELS), help="comma-separated levels to test")
    ap.add_argument("--opponent", default="random", help="level of the three other players (default random)")
    ap.add_argument("--seed", type=int, default=0, help="first deal seed (default 0)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    ap.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.error("--games must be at least 1")
    levels = [s.strip() for s in args.levels.split(",") if s.strip()]
    for level in levels + [args.opponent]:
        if level not in BOT_LEVELS:
            ap.error(f"unknown level {level!r}; levels: {', '.join(BOT_LEVELS)}")
    rules = profile(args.profile)
    deck = args.deck or rules.deck
    chunks = max(1, args.jobs) * 4
    first = args.seed * len(PLAYERS)
    bounds = [first + args.games * k // chunks for k in range(chunks + 1)]
    results: dict[str, Any] = {}
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for level in levels:
            start = time.perf_counter()
            parts = pool.map(play, [level] * chunks, [args.opponent] * chunks, [args.profile] * chunks, [args.deck] * chunks,
                             [range(a, b) for a, b in zip(bounds, bounds[1:])])
            scores = [s for part in parts for s in part]
            results[level] = summary(scores, time.perf_counter() - start)
    last_seed = (first + args.games - 1) // len(PLAYERS)
    report = {"profile": args.profile, "deck": deck, "players": len(PLAYERS), "opponents": f"3 x {args.opponent}",
              "games_per_level": args.games, "seeds": [args.seed, last_seed], "levels": results}
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"{args.games} games per level, 4 players (the level against 3 {args.opponent}), "
          f"profile {args.profile}, deck {deck}, deal seeds {args.seed}..{last_seed}, every deal in every seat")
    print(f"{'level':<8} {'win rate':>9}  95% interval")
    for level, r in results.items():
        lo, hi = r["ci95"]
        print(f"{level:<8} {r['win_rate']:>9.1%}  {lo:.1%} - {hi:.1%}   ({r['seconds']:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
