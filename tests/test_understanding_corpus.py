"""The understanding corpus: requests must be understood, chatter must never become a move.

The corpus is ``tests/data/understanding/requests.jsonl`` and ``chatter.jsonl``; the evaluation itself
lives in ``scripts/eval_understanding.py`` (run it with ``--show-failures`` to see every miss).
Checked here: the corpus is well formed (every card, family, player and hand exists and the
request is legal), and the understander makes no wrong move, acts on no chatter, and gets at
least 99% of the in-grammar requests exactly right. Other figures are printed, not asserted.
"""

from __future__ import annotations

import importlib.util
import json
import re
from collections import Counter
from pathlib import Path

import pytest

import voicegame.understanding as understanding
from voicegame.decks import builtin_decks, load_deck

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "eval_understanding.py"

_spec = importlib.util.spec_from_file_location("eval_understanding", SCRIPT)
ev = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ev)

REQUESTS, CHATTER = ev.load_corpus()
CATEGORIES = ("in_grammar", "variant", "asr_error", "ambiguous")
# Exact command phrasings: chatter must not contain them, or a command would be a fair reading.
COMMAND_WORDS = ("my hand", "my cards", "cards", "whose turn", "score", "scores", "status", "history", "repeat",
                 "again", "help", "undo", "take back", "yes", "no", "cancel", "pause", "quit", "exit", "stop",
                 "slower", "faster")

needs_understander = pytest.mark.skipif(
    not hasattr(understanding, "Understander"), reason="voicegame.understanding.Understander is not written yet"
)


def _words(text: str) -> str:
    return " " + " ".join(re.findall(r"[a-z0-9]+", text.casefold())) + " "


def _where(line: dict) -> str:
    return f"line {line['_line']}: {line['text']!r}"


# --------------------------------------------------------------------------- the corpus itself


def test_corpus_sizes():
    counts = Counter(line["category"] for line in REQUESTS)
    assert set(counts) <= set(CATEGORIES), counts
    assert len(REQUESTS) >= 300, counts
    assert counts["in_grammar"] >= 150, counts
    assert counts["asr_error"] >= 80, counts
    assert counts["variant"] >= 30, counts
    assert counts["ambiguous"] >= 15, counts
    assert len(CHATTER) >= 100
    assert {line["deck"] for line in REQUESTS} == set(builtin_decks())
    assert {len(line["players"]) for line in REQUESTS} >= {2, 3, 4, 5, 6}


def _check_common(line: dict):
    deck = load_deck(line["deck"])
    players = line["players"]
    assert 2 <= len(players) <= 6 and len(set(players)) == len(players), _where(line)
    assert line["asker"] in players, _where(line)
    assert line.get("phase", "cards") in ("cards", "families"), _where(line)
    assert line.get("lang", "en") in deck.languages, _where(line)
    assert isinstance(line["text"], str) and line["text"].strip(), _where(line)
    for card in line.get("hand") or []:
        assert deck.has_card(card), f"{_where(line)}: hand card {card} is not in the {deck.name} deck"
    if line.get("hand"):
        assert len(set(line["hand"])) == len(line["hand"]), _where(line)
        held = Counter(deck.card(c).family for c in line["hand"])
        assert max(held.values()) < deck.family_size, f"{_where(line)}: a complete family would be laid down"
    return deck, players


@pytest.mark.parametrize("line", CHATTER, ids=lambda line: f"chatter-{line['_line']}")
def test_chatter_line_is_well_formed(line):
    _check_common(line)
    assert "expect" not in line and "category" not in line, _where(line)


@pytest.mark.parametrize("line", REQUESTS, ids=lambda line: f"request-{line['_line']}")
def test_request_line_is_well_formed(line):
    deck, players = _check_common(line)
    expect = line["expect"]
    assert line["category"] in CATEGORIES, _where(line)
    if line["category"] == "ambiguous":
        assert expect == {"intent": "confirm_or_none"}, _where(line)
        return
    assert expect["target"] in players and expect["target"] != line["asker"], _where(line)
    if expect["intent"] == "ask":
        assert line.get("phase", "cards") == "cards", _where(line)
        assert deck.has_card(expect["card"]), f"{_where(line)}: {expect['card']} is not in the {deck.name} deck"
        assert "family" not in expect, _where(line)
        if line.get("hand"):
            family = deck.card(expect["card"]).family
            assert expect["card"] not in line["hand"], f"{_where(line)}: the asker already holds the card"
            assert any(deck.card(c).family == family for c in line["hand"]), (
                f"{_where(line)}: the asker holds no card of the {family} family, so the request is illegal")
    else:
        assert expect["intent"] == "ask_family", _where(line)
        assert line.get("phase") == "families", _where(line)
        assert deck.has_family(expect["family"]), f"{_where(line)}: no family {expect['family']}"
        assert "card" not in expect and "hand" not in line, _where(line)
    if line["category"] == "in_grammar" and len(players) > 2:
        assert _words(expect["target"]) in _words(line["text"]), f"{_where(line)}: an in-grammar line names its target"


def test_no_duplicate_lines():
    keys = Counter((line["text"].casefold(), line["deck"], tuple(line["players"]), line["asker"],
                    line.get("phase", "cards"), tuple(line.get("hand") or ())) for line in REQUESTS + CHATTER)
    assert [k for k, n in keys.items() if n > 1] == []


def test_chatter_has_no_command_phrasing():
    bad = [line["text"] for line in CHATTER
           if any(f" {w} " in _words(line["text"]) for w in COMMAND_WORDS)]
    assert bad == []


# --------------------------------------------------------------------------- the understander on it


@pytest.fixture(scope="module")
def results():
    res = ev.evaluate(REQUESTS, CHATTER)
    ev.print_report(res, show_failures=True)  # visible with pytest -s, and on failure
    return res


def _listing(failures, *outcomes) -> str:
    return "\n".join(f"{f['text']!r} ({f['deck']}, asker {f['asker']}): expected {json.dumps(f['expected'])},"
                     f" got {json.dumps(f['got'])}" for f in failures if f["outcome"] in outcomes)


@needs_understander
def test_no_exceptions(results):
    assert results["errors"] == 0, _listing(results["failures"], "error")


@needs_understander
def test_no_wrong_moves(results):
    assert results["requests"]["wrong_moves"] == 0, "\n" + _listing(results["failures"], "wrong_move")


@needs_understander
def test_chatter_never_becomes_a_move(results):
    assert results["chatter"]["moves"] == 0, "\n" + _listing(results["failures"], "move")


@needs_understander
def test_in_grammar_requests_are_understood_exactly(results):
    cat = results["requests"]["categories"]["in_grammar"]
    misses = [f for f in results["failures"] if f["category"] == "in_grammar"]
    assert cat["exact"] >= 99.0, f"{cat['exact']}% exact\n" + _listing(
        misses, "confirm_ok", "confirm_other", "rejected", "command", "wrong_move", "error")


@needs_understander
def test_the_other_figures_stay_near_those_published(results):
    """docs/benchmarks.md publishes rewordings 82.9% exact, recognizer errors 77.1%, every ambiguous
    line held back and chatter 6.7% asked about: a change that loses more than a few lines fails here."""
    cats = results["requests"]["categories"]
    assert set(cats) == set(CATEGORIES)
    assert cats["variant"]["exact"] >= 80.0, _listing(results["failures"], "confirm_ok", "confirm_other", "rejected")
    assert cats["asr_error"]["exact"] >= 75.0, _listing(results["failures"], "confirm_ok", "confirm_other", "rejected")
    assert cats["ambiguous"]["not_acted_on"] == 100.0
    assert results["chatter"]["confirmation_rate"] <= 10.0 and results["chatter"]["command_rate"] <= 2.0
