"""The set-up conversation before a game: start at once, or change things one question at a time."""

from __future__ import annotations

from dataclasses import replace

import pytest

from voicegame.config import Settings
from voicegame.table.setup import SOURCE, parse_names, parse_number, set_up, summary


class Talk:
    """Plays the person at the table: answers in order, records every question and remark."""

    def __init__(self, *answers: str | None) -> None:
        self.answers = list(answers)
        self.questions: list[str] = []
        self.said: list[str] = []

    def ask(self, question: str) -> str | None:
        self.questions.append(question)
        assert self.answers, f"asked more than expected: {question}"
        return self.answers.pop(0)

    def say(self, line: str) -> None:
        self.said.append(line)

    def run(self, settings: Settings | None = None, **kw) -> Settings | None:
        result = set_up(settings or Settings(), self.ask, self.say, **kw)
        assert not self.answers, f"answers left over: {self.answers}"
        return result


OFFER = ("New game: You against 2 computer players at memory level, the Jaques deck, guide rules."
         " Say yes or press Enter to start, or say change.")


def test_enter_starts_with_the_settings_as_they_are():
    talk = Talk("")
    assert talk.run() == Settings()
    assert talk.questions == [OFFER] and talk.said == []


@pytest.mark.parametrize("answer", ["yes", "Yes please", "start", "ok", "  OK  ", "yess", "ja"])
def test_yes_starts(answer):
    settings = Settings(bots=3, level="expert")
    assert Talk(answer).run(settings) is settings


@pytest.mark.parametrize("answer", [None, "quit", "stop please", "bye"])
def test_quit_or_end_of_input_means_no_game(answer):
    assert Talk(answer).run() is None


def test_change_with_digits():
    talk = Talk("change", "3", "expert", "standard", "dutch", "Alice, Ben", "")
    result = talk.run()
    assert (result.bots, result.level, result.deck, result.rules, result.players) == (
        3, "expert", "standard", "dutch", ("Alice", "Ben"))
    assert all(result.source(k) == SOURCE for k in ("bots", "level", "deck", "rules", "players"))
    assert talk.questions[1:] == [
        "How many computer players, from 1 to 5? Now 2. Press Enter to keep it.",
        "Which level for the computer players: random, child, memory or expert? Now memory. Press Enter to keep it.",
        "Which deck: jaques, letters, sporting or standard? Now the Jaques deck. Press Enter to keep it.",
        "Which rules: guide, classic or dutch? Now guide. Press Enter to keep it.",
        "Who is playing here? Type the names with commas between them. Now You. Press Enter to keep them.",
        "Ready: Alice and Ben against 3 computer players at expert level, the Standard deck, dutch rules."
        " Say yes or press Enter to start, or say change.",
    ]


def test_change_with_words_and_forgiving_names():
    result = Talk("no", "four please", "Expurt", "Jacques", "classics", "", "yes").run()
    assert (result.bots, result.level, result.deck, result.rules) == (4, "expert", "jaques", "classic")
    assert result.players == ("You",) and result.source("players") == "default"


def test_dutch_number_words_when_playing_in_dutch():
    result = Talk("change", "drie", "", "", "", "", "").run(Settings(lang="nl"))
    assert result.bots == 3
    assert parse_number("twee", "nl") == 2 and parse_number("één", "nl") == 1
    assert parse_number("twee", "en") is None


def test_enter_keeps_every_value_and_keeps_their_sources():
    start = Settings()
    result = Talk("change", "", "", "", "", "", "").run(start)
    assert result == start and dict(result.sources) == {}


def test_bad_answers_are_asked_again_then_the_value_is_kept():
    talk = Talk("change", "banana", "purple", "lots", "", "", "", "", "")
    result = talk.run()
    assert result.bots == 2
    assert talk.questions[2:4] == [
        "I didn't catch a number between 1 and 5. How many computer players?",
        "I didn't catch a number between 1 and 5. How many computer players?",
    ]
    assert talk.said == ["I'll keep 2 computer players."]


def test_a_bad_level_is_asked_again_and_a_good_second_answer_is_taken():
    talk = Talk("change", "", "sausage", "child", "", "", "", "")
    assert talk.run().level == "child"
    assert talk.questions[3] == "I didn't catch a level. Which level: random, child, memory or expert?"
    assert talk.said == []


def test_too_many_and_too_few_computer_players_are_explained():
    talk = Talk("change", "9", "0", "five", "", "", "", "", "")
    assert talk.run().bots == 5
    assert talk.questions[2:4] == [
        "At most 6 players fit at the table, so at most 5 computer players. How many computer players?",
        "A game needs at least 2 players, so at least 1 computer player. How many computer players?",
    ]


def test_with_two_people_no_computer_players_is_fine_and_skips_the_level():
    talk = Talk("change", "none", "", "", "", "")
    result = talk.run(Settings(players=("Alice", "Ben")))
    assert result.bots == 0
    assert talk.questions[1].startswith("How many computer players, from 0 to 4?")
    assert not any(q.startswith("Which level") for q in talk.questions)
    assert talk.questions[-1].startswith("Ready: Alice and Ben, no computer players, the Jaques deck")


def test_names_that_fill_the_table_lower_the_computer_players():
    talk = Talk("change", "5", "", "", "", "Ann, Ben, Cat and Dan", "")
    result = talk.run()
    assert result.players == ("Ann", "Ben", "Cat", "Dan") and result.bots == 2
    assert talk.said == ["At most 6 players fit at the table, so 2 computer players will play."]


def test_one_name_alone_gets_a_computer_player():
    talk = Talk("change", "", "", "", "Ann", "")  # no computer players: no level question
    result = talk.run(Settings(players=("Ann", "Ben"), bots=0))
    assert result.players == ("Ann",) and result.bots == 1
    assert talk.said == ["A game needs at least 2 players, so 1 computer player will join you."]


def test_bad_names_are_asked_again():
    talk = Talk("change", "", "", "", "", "Ben, ben", "A, B, C, D, E, F, G", "Ben, Cara", "")
    assert talk.run().players == ("Ben", "Cara")
    assert talk.questions[6:8] == [
        "Two players can't both be called Ben. Who is playing here? Type the names with commas between them.",
        "At most 6 players fit at the table. Who is playing here? Type the names with commas between them.",
    ]


def test_a_name_may_hold_a_quit_word_but_quit_alone_ends():
    assert Talk("change", "", "", "", "", "Stop Watson", "").run().players == ("Stop Watson",)
    assert Talk("change", "", "", "", "", "quit").run() is None


def test_without_a_keyboard_names_are_not_asked_and_keep_is_said():
    talk = Talk("change", "keep", "same", "keep", "guide", "yes")
    assert talk.run(typing=False) == Settings()
    assert talk.questions[0].endswith("Say yes to start, or say change.")
    assert all("Enter" not in q for q in talk.questions)
    assert talk.questions[1].endswith("Now 2. Say keep to keep it.")
    assert not any(q.startswith("Who is playing") for q in talk.questions)


@pytest.mark.parametrize("answer", [None, "quit"])
def test_ending_in_the_middle_means_no_game(answer):
    assert Talk("change", "3", answer).run() is None


def test_an_offer_not_understood_is_asked_again_then_the_game_starts():
    talk = Talk("hmm", "what", "eh")
    assert talk.run() == Settings()
    assert talk.questions[1] == "I didn't catch that. Say yes or press Enter to start, or say change. Or say quit."
    assert talk.said == ["Starting with these settings."]


def test_summary_sentences():
    assert summary(Settings(bots=1)) == "You against 1 computer player at memory level, the Jaques deck, guide rules"
    assert summary(Settings(rules="classic")).endswith("the Sporting deck, classic rules")
    assert summary(replace(Settings(), deck="/home/a/packs/mine.toml")).endswith("the deck from mine.toml, guide rules")
    assert summary(Settings(players=("Ann", "Ben", "Cat"), bots=0)).startswith("Ann, Ben and Cat, no computer")


@pytest.mark.parametrize(("text", "number"), [("3", 3), ("three", 3), ("I want four please", 4), ("0", 0),
                                              ("no computer players", 0), ("to", 2), ("for 2", 2), ("12", 12),
                                              ("banana", None), ("", None)])
def test_numbers(text, number):
    assert parse_number(text) == number


def test_names():
    assert parse_names("Alice, Ben and  Cara") == ["Alice", "Ben", "Cara"]
    assert parse_names("Brandon, Andy") == ["Brandon", "Andy"]
    assert parse_names("Jan en Piet", "nl") == ["Jan", "Piet"]
    assert parse_names("Jan en Piet") == ["Jan en Piet"]


def test_a_bigger_table_from_the_config_file_is_kept_when_nothing_is_changed():
    big = Settings(players=("Ann", "Ben", "Cat"), bots=5)  # 8 players: the engine takes up to 12
    talk = Talk("change", "", "", "", "", "", "")
    assert talk.run(big) == big and talk.said == []
