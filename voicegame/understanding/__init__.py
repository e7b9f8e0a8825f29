"""Understanding requests: pure text in (a transcript, or a recognizer's alternatives), intent out.

- ``words``: normalising text and scoring how alike two words sound.
- ``grammar``: the request templates in grammars/<lang>.toml, the recognizer word list and JSGF grammar.
- ``matcher``: scoring every possible request against what was heard; act, confirm, or reject.
"""

from voicegame.understanding.grammar import (Grammar, GrammarError, Phrases, jsgf, load_grammar, name_words,
                                             speech_grammar, vocabulary)
from voicegame.understanding.matcher import NameWarning, Understander, Understanding
from voicegame.understanding.words import normalize

__all__ = ["Grammar", "GrammarError", "NameWarning", "Phrases", "Understander", "Understanding", "jsgf", "load_grammar",
           "name_words", "normalize", "speech_grammar", "vocabulary"]
