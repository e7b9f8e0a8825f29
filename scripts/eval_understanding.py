"""Evaluate the understanding layer on the request and chatter corpus.

    python scripts/eval_understanding.py                 # summary table
    python scripts/eval_understanding.py --show-failures # plus every line that was not an exact hit
    python scripts/eval_understanding.py --json          # everything as one JSON object

Corpus: ``tests/data/understanding/requests.jsonl`` and ``chatter.jsonl`` (one JSON object a line).
A request line carries ``expect`` = {"intent": "ask", "target", "card"} or {"intent": "ask_family",
"target", "family"} or {"intent": "confirm_or_none"} (an ambiguous line a careful program must not act on).

Outcomes of a request line:
  exact          the right intent, target and card/family, and confirm False (the program acts, correctly)
  confirm_ok     the right request, but the program would ask "Did you ask Ben for Mrs. Bun?" first
  confirm_other  a confirmation question about a different request (harmless, but a wasted turn)
  rejected       intent "none" (the program would say it did not understand)
  command        some other intent (hand, undo, quit ...) where a request was meant
  wrong_move     an act (ask / ask_family with confirm False) that is not the expected request;
                 for an ambiguous line, any act
  error          the understander raised an exception
An ambiguous line is correct (``ok``) when it is not acted on.

Chatter lines have no ``expect``; acting on one as a move (ask / ask_family, confirm False) is a
false accept; a confirmation question or a command is reported, not counted as a move.

Exit code 1 when there is any wrong move, any chatter move, or any exception.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "data" / "understanding"
REQUEST_CATEGORIES = ("in_grammar", "variant", "asr_error", "ambiguous")
MOVES = ("ask", "ask_family")

if str(ROOT) not in sys.path:  # run from a checkout without installing
    sys.path.insert(0, str(ROOT))


def load_jsonl(path: Path) -> list[dict[str, Any]]:
    lines = []
    with open(path, encoding="utf-8") as fh:
        for number, raw in enumerate(fh, 1):
            raw = raw.strip()
            if not raw or raw.startswith("//"):
                continue
            try:
                item = json.loads(raw)
            except json.JSONDecodeError as exc:
                raise SystemExit(f"{path}:{number}: not valid JSON ({exc})") from None
            item["_line"] = number
            lines.append(item)
    return lines


def load_corpus(directory: Path = CORPUS) -> tuple[list[dict], list[dict]]:
    return load_jsonl(directory / "requests.jsonl"), load_jsonl(directory / "chatter.jsonl")


class Understanders:
    """One Understander per (deck, players, lang), built once; construction time is kept apart."""

    def __init__(self) -> None:
        from voicegame.decks import load_deck
        from voicegame.understanding import Understander

        self._load_deck = load_deck
        self._cls = Understander
        self._cache: dict[tuple, Any] = {}
        self.build_ms: list[float] = []

    def get(self, deck: str, players: list[str], lang: str = "en"):
        key = (deck, tuple(players), lang)
        u = self._cache.get(key)
        if u is None:
            t0 = time.perf_counter()
            u = self._cls(self._load_deck(deck), list(players), lang=lang)
            self.build_ms.append((time.perf_counter() - t0) * 1000)
            self._cache[key] = u
        return u


HEARD_CATEGORIES = ("asr_error", "ambiguous", "chatter")


def run_one(us: Understanders, line: dict) -> tuple[dict, float]:
    """Understand one corpus line: (result as JSON, milliseconds). Exceptions become intent "error"."""
    u = us.get(line["deck"], line["players"], line.get("lang", "en"))
    t0 = time.perf_counter()
    try:
        # Recognizer-style lines and chatter go the way heard words go (a list of alternatives), the rest as typed.
        heard = [line["text"]] if line.get("category", "chatter") in HEARD_CATEGORIES else line["text"]
        r = u.understand(heard, asker=line["asker"], hand=line.get("hand"), phase=line.get("phase", "cards"))
        ms = (time.perf_counter() - t0) * 1000
        got = r.to_json() if hasattr(r, "to_json") else dict(r)
    except Exception as exc:  # noqa: BLE001 - reported as a failure, never hidden
        ms = (time.perf_counter() - t0) * 1000
        got = {"intent": "error", "reason": f"{type(exc).__name__}: {exc}"}
    return got, ms


def is_move(got: dict) -> bool:
    return got.get("intent") in MOVES and not got.get("confirm")


def same_request(got: dict, expect: dict) -> bool:
    if got.get("intent") != expect["intent"] or got.get("target") != expect.get("target"):
        return False
    if expect["intent"] == "ask":
        return got.get("card") == expect.get("card")
    return got.get("family") == expect.get("family")


def classify_request(got: dict, expect: dict) -> str:
    intent = got.get("intent")
    if intent == "error":
        return "error"
    if expect["intent"] == "confirm_or_none":
        return "wrong_move" if is_move(got) else "ok"
    if same_request(got, expect):
        return "confirm_ok" if got.get("confirm") else "exact"
    if is_move(got):
        return "wrong_move"
    if intent in MOVES:
        return "confirm_other"
    if intent in (None, "none"):
        return "rejected"
    return "command"


def classify_chatter(got: dict) -> str:
    intent = got.get("intent")
    if intent == "error":
        return "error"
    if is_move(got):
        return "move"
    if intent in MOVES:
        return "confirm"
    if intent in (None, "none"):
        return "rejected"
    return "command"


def _pct(n: int, d: int) -> float:
    return round(100.0 * n / d, 2) if d else 0.0


def _timing(ms: list[float]) -> dict[str, float]:
    if not ms:
        return {"n": 0, "mean_ms": 0.0, "median_ms": 0.0, "p95_ms": 0.0, "max_ms": 0.0}
    s = sorted(ms)
    p95 = s[min(len(s) - 1, max(0, round(0.95 * len(s)) - 1))]
    return {"n": len(s), "mean_ms": round(statistics.fmean(s), 3), "median_ms": round(statistics.median(s), 3),
            "p95_ms": round(p95, 3), "max_ms": round(s[-1], 3)}


def _brief(got: dict) -> dict:
    keys = ("intent", "target", "card", "family", "confirm", "confidence", "reason")
    return {k: got.get(k) for k in keys if got.get(k) is not None}


def evaluate(requests: list[dict], chatter: list[dict], us: Understanders | None = None) -> dict[str, Any]:
    us = us or Understanders()
    per_cat: dict[str, Counter] = defaultdict(Counter)
    failures: list[dict] = []
    times: list[float] = []
    for line in requests:
        got, ms = run_one(us, line)
        times.append(ms)
        cat = line.get("category", "?")
        outcome = classify_request(got, line["expect"])
        per_cat[cat][outcome] += 1
        per_cat[cat]["n"] += 1
        if got.get("confirm") and got.get("intent") in MOVES:
            per_cat[cat]["confirmed"] += 1
        if outcome not in ("exact", "ok"):
            failures.append({"kind": "request", "category": cat, "outcome": outcome, "line": line["_line"],
                             "text": line["text"], "deck": line["deck"], "players": line["players"],
                             "asker": line["asker"], "hand": line.get("hand"), "phase": line.get("phase", "cards"),
                             "expected": line["expect"], "got": _brief(got)})
    chat = Counter()
    for line in chatter:
        got, ms = run_one(us, line)
        times.append(ms)
        outcome = classify_chatter(got)
        chat[outcome] += 1
        chat["n"] += 1
        if outcome != "rejected":
            failures.append({"kind": "chatter", "category": "chatter", "outcome": outcome, "line": line["_line"],
                             "text": line["text"], "deck": line["deck"], "players": line["players"],
                             "asker": line["asker"], "hand": line.get("hand"), "phase": line.get("phase", "cards"),
                             "expected": None, "got": _brief(got)})

    categories = {}
    for cat in [c for c in REQUEST_CATEGORIES if c in per_cat] + sorted(set(per_cat) - set(REQUEST_CATEGORIES)):
        c = per_cat[cat]
        n = c["n"]
        entry = {"n": n, "outcomes": {k: v for k, v in sorted(c.items()) if k not in ("n", "confirmed")},
                 "confirmation_rate": _pct(c["confirmed"], n), "wrong_moves": c["wrong_move"],
                 "wrong_move_rate": _pct(c["wrong_move"], n), "errors": c["error"]}
        if cat == "ambiguous":
            entry["not_acted_on"] = _pct(c["ok"], n)
        else:
            entry["exact"] = _pct(c["exact"], n)
            entry["right_request_incl_confirm"] = _pct(c["exact"] + c["confirm_ok"], n)
        categories[cat] = entry
    total_req = sum(per_cat[c]["n"] for c in per_cat)
    wrong = sum(per_cat[c]["wrong_move"] for c in per_cat)
    confirmed = sum(per_cat[c]["confirmed"] for c in per_cat)
    errors = sum(per_cat[c]["error"] for c in per_cat) + chat["error"]
    return {
        "requests": {"n": total_req, "wrong_moves": wrong, "wrong_move_rate": _pct(wrong, total_req),
                     "confirmation_rate": _pct(confirmed, total_req), "categories": categories},
        "chatter": {"n": chat["n"], "moves": chat["move"], "false_accept_rate": _pct(chat["move"], chat["n"]),
                    "confirmations": chat["confirm"], "confirmation_rate": _pct(chat["confirm"], chat["n"]),
                    "commands": chat["command"], "command_rate": _pct(chat["command"], chat["n"]),
                    "rejected": chat["rejected"]},
        "errors": errors,
        "timing": {"per_utterance": _timing(times), "build_ms": _timing(us.build_ms)},
        "failures": failures,
    }


def timing_run(reps: int = 3, seed: int = 1) -> dict[str, Any]:
    """6 players, the 52-card standard pack, a hand given: ms per utterance over typical requests and chatter."""
    from voicegame.decks import load_deck
    from voicegame.understanding import Understander

    deck = load_deck("standard")
    players = ["Mia", "Sam", "Leo", "Zoe", "Max", "Ivy"]
    rng = random.Random(seed)
    t0 = time.perf_counter()
    u = Understander(deck, players, lang="en")
    build_ms = (time.perf_counter() - t0) * 1000
    forms = ["{t}, is the {c} at home, please?", "ask {t} for the {c}", "{t} {c} please", "is the {c} at home {t}",
             "um {t} have you got the {c}", "{t}, may I have the {c}?"]
    chatter = ["pass the juice", "who has the queen of spades?", "I love the ace of spades", "is it my turn",
               "Sam, have you got a pencil?", "ten more minutes, then bed"]
    utterances = []
    for i, card in enumerate(deck.cards):
        asker = players[i % len(players)]
        target = players[(i + 1 + i // len(players)) % len(players)]
        if target == asker:
            target = players[(i + 2) % len(players)]
        others = [c.id for c in deck.cards if c.family != card.family]
        own = [c.id for c in deck.cards if c.family == card.family and c.id != card.id][:1]
        hand = own + rng.sample(others, 8)
        text = forms[i % len(forms)].format(t=target, c=card.name("en", "short").lower())
        utterances.append((text, asker, hand))
    for i, text in enumerate(chatter):
        utterances.append((text, players[i], rng.sample([c.id for c in deck.cards], 8)))
    ms = []
    errors = 0
    for _ in range(reps):
        for text, asker, hand in utterances:
            t = time.perf_counter()
            try:
                u.understand(text, asker=asker, hand=hand, phase="cards")
            except Exception:  # noqa: BLE001
                errors += 1
            ms.append((time.perf_counter() - t) * 1000)
    return {"deck": "standard", "players": len(players), "utterances": len(utterances), "reps": reps,
            "build_ms": round(build_ms, 3), "errors": errors, **_timing(ms)}


def print_report(res: dict, show_failures: bool) -> None:
    req, chat = res["requests"], res["chatter"]
    print(f"requests: {req['n']}   wrong moves: {req['wrong_moves']} ({req['wrong_move_rate']}%)"
          f"   confirmation rate: {req['confirmation_rate']}%")
    print(f"{'category':<12}{'n':>5}{'exact%':>9}{'right+conf%':>13}{'confirm%':>10}{'wrong':>7}  outcomes")
    for cat, c in req["categories"].items():
        exact = f"{c['exact']:.1f}" if "exact" in c else f"ok {c['not_acted_on']:.1f}"
        right = f"{c['right_request_incl_confirm']:.1f}" if "exact" in c else "-"
        outcomes = ", ".join(f"{k} {v}" for k, v in c["outcomes"].items())
        print(f"{cat:<12}{c['n']:>5}{exact:>9}{right:>13}{c['confirmation_rate']:>10.1f}{c['wrong_moves']:>7}  {outcomes}")
    print(f"chatter: {chat['n']}   moves (false accepts): {chat['moves']} ({chat['false_accept_rate']}%)"
          f"   confirmations: {chat['confirmations']} ({chat['confirmation_rate']}%)"
          f"   commands: {chat['commands']}   rejected: {chat['rejected']}")
    t = res["timing"]["per_utterance"]
    b = res["timing"]["build_ms"]
    print(f"timing (corpus): {t['n']} utterances, mean {t['mean_ms']} ms, median {t['median_ms']} ms,"
          f" p95 {t['p95_ms']} ms, max {t['max_ms']} ms; {b['n']} understanders built, mean {b['mean_ms']} ms")
    if "timing_run" in res:
        tr = res["timing_run"]
        print(f"timing (6 players, standard 52, hand given): {tr['n']} calls, mean {tr['mean_ms']} ms,"
              f" median {tr['median_ms']} ms, p95 {tr['p95_ms']} ms, max {tr['max_ms']} ms, build {tr['build_ms']} ms")
    if res["errors"]:
        print(f"EXCEPTIONS: {res['errors']}")
    if show_failures and res["failures"]:
        print("\nfailures (text | expected | got):")
        order = {"wrong_move": 0, "move": 0, "error": 1, "command": 2, "confirm_other": 3, "rejected": 4,
                 "confirm_ok": 5, "confirm": 5}
        for f in sorted(res["failures"], key=lambda f: (order.get(f["outcome"], 9), f["category"], f["line"])):
            exp = f["expected"]
            exp_s = "-" if exp is None else " ".join(str(exp[k]) for k in ("intent", "target", "card", "family") if k in exp)
            got = f["got"]
            got_s = " ".join(str(got[k]) for k in ("intent", "target", "card", "family") if k in got)
            if got.get("confirm"):
                got_s += " (confirm)"
            if got.get("reason") and f["outcome"] in ("rejected", "error", "command"):
                got_s += f" [{got['reason']}]"
            hand = " hand" if f.get("hand") else ""
            print(f"  [{f['outcome']}/{f['category']} {f['deck']} {len(f['players'])}p{hand}] "
                  f"{f['text']!r} | {exp_s} | {got_s}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--show-failures", action="store_true", help="list every line that was not an exact hit")
    ap.add_argument("--corpus", type=Path, default=CORPUS, help="folder holding requests.jsonl and chatter.jsonl")
    ap.add_argument("--timing-reps", type=int, default=3, help="repetitions of the 6-player timing run (0: skip)")
    args = ap.parse_args(argv)
    requests, chatter = load_corpus(args.corpus)
    res = evaluate(requests, chatter)
    if args.timing_reps > 0:
        res["timing_run"] = timing_run(args.timing_reps)
    if args.json:
        if not args.show_failures:
            res["failures"] = [f for f in res["failures"] if f["outcome"] in ("wrong_move", "move", "error")]
        print(json.dumps(res, indent=2, ensure_ascii=False))
    else:
        print_report(res, args.show_failures)
    bad = res["requests"]["wrong_moves"] + res["chatter"]["moves"] + res["errors"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
