"""Where the table's words go: to the whole table, or privately to one seat.

At a shared table the loudspeaker (or the shared screen) is public. A hand, "you drew ...", help
that lists what you may ask for, and a refusal that says what you hold are private: they go to
the seat's own channel (headphones, the terminal of a screen-reader user, or, for one player
against computer players, the same loudspeaker, which is then private anyway).
"""

from __future__ import annotations

from typing import Callable

__all__ = ["Lines", "Output"]


class Output:
    """The table's two mouths. ``who``: the player whose words a public line is (a computer
    player asking, or answering "Not at home"), so speech can use that player's voice."""

    listening = False  # True while a recognizer listens: prompts then say "say", not "type"

    def public(self, line: str, who: str | None = None) -> None:
        raise NotImplementedError

    def private(self, player: str, line: str) -> None:
        raise NotImplementedError

    def expect(self, answer: str | None) -> None:
        """What the table waits for next: "yes_no", "flip_yes_no" (to a turn-over or pass, a new
        number may come instead), a player's "name", "flip" (a centre card), or None (anything). A
        listener can then listen for just that; lines of text need nothing."""

    def listen_to(self, player: str, reminder: str | None = None) -> None:
        """The human player whose turn it is, who speaks next: a listener may tune its ears to
        them (a young child's voice), and say ``reminder`` if nobody speaks for a while; lines of
        text need nothing."""

    def may_take_back(self, player: str | None) -> None:
        """The human whose last words made a move, so that a "no" said now offers to take it back
        (None: nobody's): a listener should hear a "no" then however poorly it fits; lines of text
        need nothing."""

    def let_pass(self) -> str | None:
        """The last words heard and let pass (not clearly meant for the game) before the utterance
        the table was last given: for "What did you hear?"."""
        return None

    def take_notice(self) -> str | None:
        """Once, the key of a prompt about a change in how the players are heard (``Recognizer.take_notice``)."""
        return None


class Lines(Output):
    """Plain appended lines (typing, pipes, tests): ``write`` for the table, ``seats[player]`` for
    a player's private lines; a seat without its own channel shares ``write``."""

    def __init__(self, write: Callable[[str], None], seats: dict[str, Callable[[str], None]] | None = None) -> None:
        self.write = write
        self.seats = dict(seats or {})

    def public(self, line: str, who: str | None = None) -> None:
        self.write(line)

    def private(self, player: str, line: str) -> None:
        self.seats.get(player, self.write)(line)
