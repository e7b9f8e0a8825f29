#!/usr/bin/env python3
"""Engine benchmark: random-vs-random full games per second, against OpenSpiel's go_fish.

Measures, in one run:

* our engine: full 4-player games between random bots, for the guide profile (the headline
  figure, jaques deck) and the classic and dutch profiles (extra lines); games/s and actions/s;
* OpenSpiel's ``go_fish`` (optional: ``pip install open-spiel``, the ``bench`` extra), the same
  loop from Python: chance nodes sampled from ``state.chance_outcomes()``, decision nodes uniform
  over ``state.legal_actions()``; games/s and actions/s, plus the ratio ours/OpenSpiel;
* the expert bot's decision time (median, p95) with 6 players, when ``voicegame.bots`` has an
  "expert" level (skipped with a message otherwise);
* the peak memory of one game (tracemalloc) and the process's peak resident size.

Each throughput figure is the best of ``--repeats`` timed runs after a warm-up; a run lasts
``--seconds`` or plays ``--games`` games. Game set-up (shuffle, deal, bots) is inside the timing
for our engine, as ``new_initial_state()`` and the dealing chance nodes are for OpenSpiel.

    python scripts/bench_engine.py                 # about 60 s on 2 cores
    python scripts/bench_engine.py --seconds 1 --repeats 2 --json
    python scripts/bench_engine.py --games 2000
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import resource
import statistics
import sys
import time
import tracemalloc
from typing import Any, Callable

from voicegame import bots as vg_bots
from voicegame.bots import make_bot
from voicegame.engine import Game, profile

PLAYERS4 = ["Alice", "Ben", "Cara", "Dan"]
PLAYERS6 = ["Alice", "Ben", "Cara", "Dan", "Eve", "Finn"]
TARGET_RATIO = 0.5


# --------------------------------------------------------------------------- one batch of games


def play_ours(rules_name: str, players: list[str], seed: int) -> int:
    """One full random-vs-random game; returns the number of actions applied."""
    g = Game(players, rules=profile(rules_name), seed=seed)
    bots = {p: make_bot("random", g, p, seed) for p in g.players}
    n = 0
    while not g.over:
        g.apply(bots[g.current_player].choose())
        n += 1
    return n


def ours_batch(rules_name: str, players: list[str]) -> Callable[[int, int | None, float | None], dict[str, Any]]:
    def run(seed0: int, games: int | None, seconds: float | None) -> dict[str, Any]:
        # The loop is inlined (not a call to play_ours) so that the timing is the bare loop.
        rules = profile(rules_name)
        clock = time.perf_counter
        n_games = actions = 0
        seed = seed0
        start = clock()
        deadline = start + seconds if seconds else None
        while True:
            g = Game(players, rules=rules, seed=seed)
            bots = {p: make_bot("random", g, p, seed) for p in g.players}
            while not g.over:
                g.apply(bots[g.current_player].choose())
                actions += 1
            n_games += 1
            seed += 1
            if games is not None:
                if n_games >= games:
                    break
            elif clock() >= deadline:
                break
        elapsed = clock() - start
        return {"games": n_games, "actions": actions, "chance": 0, "seconds": elapsed, "next_seed": seed}

    return run


def replay_batch(rules_name: str, players: list[str], pool: int = 200) -> Callable[..., dict[str, Any]]:
    """Engine only: replay action lists recorded from random games (no bot in the timed loop).

    Replayed requests are checked in full; in the bot loop the engine skips checking the requests
    ``Observation.random_ask`` has just checked, so this line does somewhat more engine work per action.
    """
    rules = profile(rules_name)
    recorded: dict[int, list[Any]] = {}

    def actions_for(seed: int) -> list[Any]:
        acts = recorded.get(seed)
        if acts is None:
            g = Game(players, rules=rules, seed=seed)
            bots = {p: make_bot("random", g, p, seed) for p in g.players}
            while not g.over:
                g.apply(bots[g.current_player].choose())
            acts = recorded[seed] = list(g.actions)
        return acts

    def run(seed0: int, games: int | None, seconds: float | None) -> dict[str, Any]:
        seeds = [seed0 % pool + i for i in range(pool)]
        lists = [actions_for(s) for s in seeds]  # recorded before the clock starts
        clock = time.perf_counter
        n_games = actions = 0
        start = clock()
        deadline = start + seconds if seconds else None
        while True:
            i = n_games % pool
            g = Game(players, rules=rules, seed=seeds[i])
            apply = g.apply
            for a in lists[i]:
                apply(a)
            actions += len(lists[i])
            n_games += 1
            if games is not None:
                if n_games >= games:
                    break
            elif clock() >= deadline:
                break
        elapsed = clock() - start
        return {"games": n_games, "actions": actions, "chance": 0, "seconds": elapsed, "next_seed": seed0 + 1}

    return run


def openspiel_batch(game: Any) -> Callable[[int, int | None, float | None], dict[str, Any]]:
    def run(seed0: int, games: int | None, seconds: float | None) -> dict[str, Any]:
        rng = random.Random(seed0)
        choices = rng.choices
        rand = rng.random
        clock = time.perf_counter
        n_games = decisions = chance = 0
        start = clock()
        deadline = start + seconds if seconds else None
        while True:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    if len(outcomes) == 1:
                        action = outcomes[0][0]
                    else:
                        acts, probs = zip(*outcomes)
                        action = choices(acts, probs)[0]
                    state.apply_action(action)
                    chance += 1
                else:
                    legal = state.legal_actions()
                    state.apply_action(legal[int(rand() * len(legal))])
                    decisions += 1
            n_games += 1
            if games is not None:
                if n_games >= games:
                    break
            elif clock() >= deadline:
                break
        elapsed = clock() - start
        return {"games": n_games, "actions": decisions, "chance": chance, "seconds": elapsed,
                "next_seed": seed0 + 1}

    return run


def measure(run: Callable[..., dict[str, Any]], *, seconds: float, games: int | None, repeats: int,
            warmup: float, seed: int) -> dict[str, Any]:
    """Warm up, then time ``repeats`` runs; report the best and the median run."""
    seed = run(seed, None, warmup)["next_seed"] if warmup > 0 else seed
    runs = []
    for _ in range(repeats):
        gc.collect()
        r = run(seed, games, None if games else seconds)
        seed = r["next_seed"]
        runs.append(r)
    rates = [r["games"] / r["seconds"] for r in runs]
    arates = [r["actions"] / r["seconds"] for r in runs]
    best = max(range(len(runs)), key=lambda i: rates[i])
    total_games = sum(r["games"] for r in runs)
    return {
        "games_per_s": rates[best],
        "actions_per_s": arates[best],
        "games_per_s_median": statistics.median(rates),
        "actions_per_s_median": statistics.median(arates),
        "us_per_action": 1e6 / arates[best] if arates[best] else None,
        "actions_per_game": sum(r["actions"] for r in runs) / total_games,
        "chance_per_game": sum(r["chance"] for r in runs) / total_games,
        "repeats": [{"games": r["games"], "actions": r["actions"], "seconds": round(r["seconds"], 4)} for r in runs],
    }


# --------------------------------------------------------------------------------- expert bot


def measure_expert(players: list[str], decisions: int, budget: float, seed: int) -> dict[str, Any]:
    """Time every ``choose()`` of expert bots in full games (all seats expert, guide profile)."""
    levels = getattr(vg_bots, "BOT_LEVELS", {})
    if "expert" not in levels:
        return {"available": False,
                "reason": f"voicegame.bots has no 'expert' level yet (levels: {', '.join(sorted(levels)) or 'none'})"}
    clock = time.perf_counter
    times: list[float] = []
    games = 0
    warm = 20  # the first decisions warm caches and are not counted
    start = clock()
    try:
        while len(times) < decisions and clock() - start < budget:
            g = Game(players, rules=profile("guide"), seed=seed + games)
            bots = {p: make_bot("expert", g, p, seed + games) for p in g.players}
            while not g.over and len(times) < decisions:
                bot = bots[g.current_player]
                t0 = clock()
                action = bot.choose()
                dt = clock() - t0
                g.apply(action)
                if warm:
                    warm -= 1
                else:
                    times.append(dt)
                if clock() - start >= budget:
                    break
            games += 1
    except Exception as exc:  # another helper's bot: report, do not crash the benchmark
        return {"available": False, "reason": f"expert bot failed: {type(exc).__name__}: {exc}",
                "decisions": len(times)}
    if not times:
        return {"available": False, "reason": "no expert decisions were timed"}
    times.sort()
    ms = [t * 1000 for t in times]
    p95 = ms[min(len(ms) - 1, int(round(0.95 * (len(ms) - 1))))]
    return {"available": True, "players": len(players), "profile": "guide", "decisions": len(ms),
            "games_started": games, "median_ms": statistics.median(ms), "p95_ms": p95, "max_ms": ms[-1],
            "mean_ms": statistics.fmean(ms)}


# ------------------------------------------------------------------------------------- memory


def measure_memory(seed: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in ("guide", "dutch"):
        gc.collect()
        tracemalloc.start()
        actions = play_ours(name, PLAYERS4, seed)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        out[f"{name}_game_peak_kib"] = peak / 1024
        out[f"{name}_game_actions"] = actions
    # ru_maxrss is KiB on Linux, bytes on macOS.
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    out["process_max_rss_mib"] = rss / (1024 * 1024 if sys.platform == "darwin" else 1024)
    return out


# -------------------------------------------------------------------------------------- main


def machine() -> dict[str, Any]:
    cpu = platform.processor() or ""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    info: dict[str, Any] = {"cpu": cpu, "cores": os.cpu_count(), "python": platform.python_version(),
                            "implementation": platform.python_implementation(), "platform": platform.platform()}
    try:
        from importlib.metadata import version

        info["open_spiel"] = version("open_spiel")
    except Exception:
        info["open_spiel"] = None
    return info


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="length of each timed run (default 3)")
    ap.add_argument("--games", type=int, default=None, help="play this many games per timed run instead")
    ap.add_argument("--repeats", type=int, default=3, help="timed runs per line; the best is reported (default 3)")
    ap.add_argument("--warmup", type=float, default=0.5, help="warm-up seconds before each line (default 0.5)")
    ap.add_argument("--seed", type=int, default=1, help="first deal seed")
    ap.add_argument("--profiles", default="guide,classic,dutch", help="our profiles to time (first is the headline)")
    ap.add_argument("--no-openspiel", action="store_true", help="skip OpenSpiel")
    ap.add_argument("--no-expert", action="store_true", help="skip the expert-bot timing")
    ap.add_argument("--expert-decisions", type=int, default=1000, help="expert decisions to time (default 1000)")
    ap.add_argument("--expert-seconds", type=float, default=60.0, help="time budget for the expert timing")
    ap.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    args = ap.parse_args(argv)
    if args.games is not None and args.games < 1:
        ap.error("--games must be at least 1")
    if args.repeats < 1:
        ap.error("--repeats must be at least 1")

    opts = {"seconds": args.seconds, "games": args.games, "repeats": args.repeats, "warmup": args.warmup,
            "seed": args.seed}
    say = (lambda *a: None) if args.json else (lambda *a: print(*a, flush=True))
    report: dict[str, Any] = {"machine": machine(), "settings": {**opts, "players": len(PLAYERS4)}}
    say(f"Machine: {report['machine']['cpu']} ({report['machine']['cores']} cores), "
        f"Python {report['machine']['python']}")
    mode = f"{args.games} games" if args.games else f"{args.seconds:g} s"
    say(f"Each line: best of {args.repeats} runs of {mode} after {args.warmup:g} s warm-up; 4 players, random bots.\n")

    engine: dict[str, Any] = {}
    for name in [p.strip() for p in args.profiles.split(",") if p.strip()]:
        rules = profile(name)
        r = measure(ours_batch(name, PLAYERS4), **opts)
        r["deck"] = rules.deck
        engine[name] = r
        say(f"voicegame {name:<8} ({rules.deck:>8} deck): {r['games_per_s']:8.1f} games/s "
            f"{r['actions_per_s']:10.0f} actions/s  ({r['actions_per_game']:.0f} actions/game, "
            f"{r['us_per_action']:.2f} us/action)")
    report["engine"] = engine
    headline = next(iter(engine.values()), None)
    if headline:
        name = next(iter(engine))
        r = measure(replay_batch(name, PLAYERS4), **opts)
        report["engine_only"] = {"profile": name, **r}
        say(f"voicegame {name:<8} engine only, replaying recorded games: {r['games_per_s']:8.1f} games/s "
            f"{r['actions_per_s']:10.0f} actions/s  (every request checked; no bot)")

    ospiel: dict[str, Any] = {"available": False}
    if not args.no_openspiel:
        try:
            import pyspiel  # noqa: PLC0415
        except ImportError:
            ospiel = {"available": False, "reason": "open_spiel is not installed (pip install open-spiel)"}
            say("OpenSpiel: not installed (pip install open-spiel); skipped.")
        else:
            ospiel = {"available": True, "lines": {}}
            for label, params in (("go_fish", {"players": 4}), ("go_fish_44", {"players": 4, "ranks": 11})):
                game = pyspiel.load_game("go_fish", params)
                r = measure(openspiel_batch(game), **opts)
                r["parameters"] = {k: v for k, v in game.get_parameters().items()}
                ospiel["lines"][label] = r
                desc = "52 cards, 13 ranks" if label == "go_fish" else "44 cards, 11 ranks"
                say(f"OpenSpiel {label:<10} ({desc}): {r['games_per_s']:8.1f} games/s "
                    f"{r['actions_per_s']:10.0f} actions/s  ({r['actions_per_game']:.0f} decisions + "
                    f"{r['chance_per_game']:.0f} chance/game)")
    report["openspiel"] = ospiel

    if headline and ospiel.get("available"):
        ref = ospiel["lines"]["go_fish"]
        ratio = {
            "profile": next(iter(engine)),
            "reference": "go_fish players=4 (default parameters)",
            "games": headline["games_per_s"] / ref["games_per_s"],
            "actions": headline["actions_per_s"] / ref["actions_per_s"],
            "games_vs_go_fish_44": headline["games_per_s"] / ospiel["lines"]["go_fish_44"]["games_per_s"],
            "target_games": TARGET_RATIO,
        }
        ratio["meets_target"] = ratio["games"] >= TARGET_RATIO
        if "engine_only" in report:
            ratio["engine_only_games"] = report["engine_only"]["games_per_s"] / ref["games_per_s"]
        report["ratio"] = ratio
        say(f"\nRatio ours/OpenSpiel ({ratio['profile']} vs go_fish): {ratio['games']:.2f}x games/s, "
            f"{ratio['actions']:.2f}x actions/s (vs 44-card go_fish: {ratio['games_vs_go_fish_44']:.2f}x games/s); "
            f"target >= {TARGET_RATIO}x games/s: {'met' if ratio['meets_target'] else 'NOT met'}")
        if "engine_only_games" in ratio:
            say(f"Engine only (recorded games replayed) vs go_fish with its random player: "
                f"{ratio['engine_only_games']:.2f}x games/s")

    if args.no_expert:
        report["expert"] = {"available": False, "reason": "skipped (--no-expert)"}
    else:
        report["expert"] = ex = measure_expert(PLAYERS6, args.expert_decisions, args.expert_seconds, args.seed)
        if ex["available"]:
            say(f"\nExpert bot, {ex['players']} players ({ex['decisions']} decisions): median "
                f"{ex['median_ms']:.3f} ms, p95 {ex['p95_ms']:.3f} ms, max {ex['max_ms']:.3f} ms")
        else:
            say(f"\nExpert bot: skipped: {ex['reason']}.")

    report["memory"] = mem = measure_memory(args.seed)
    say(f"\nPeak memory of one game (tracemalloc): guide {mem['guide_game_peak_kib']:.0f} KiB, "
        f"dutch match {mem['dutch_game_peak_kib']:.0f} KiB; process max RSS {mem['process_max_rss_mib']:.0f} MiB")

    if args.json:
        print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
