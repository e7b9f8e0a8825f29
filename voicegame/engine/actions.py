"""What a player can do, and the one error every refused action raises."""

from __future__ import annotations

from typing import Any, NamedTuple

__all__ = ["Action", "Ask", "Flip", "IllegalAction", "Pass", "action_from_json", "ERROR_CODES"]

ERROR_CODES = (
    "self",
    "target_empty",
    "own_card",
    "family_not_held",
    "family_complete",
    "not_your_turn",
    "unknown_player",
    "unknown_card",
    "wrong_phase",
    "bad_action",
)


class IllegalAction(ValueError):
    """A refused action. ``code`` is stable (one of ERROR_CODES); ``message`` is a sentence to say aloud
    (English); ``reason``, where one code covers several sentences ("wrong_phase"), tells which, so
    that another language can say it too, with ``example``, the card the sentence suggests, if any."""

    def __init__(self, code: str, message: str, reason: str | None = None, example: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.reason = reason
        self.example = example

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


class Ask(NamedTuple):
    """Ask ``target`` for one card, or (second phase, or the ask-by-surname rule) a whole family.

    ``by`` names the asker when it is known (a voice at the table); None means the current player.
    Actions are named tuples: immutable, and cheap enough for hundreds of thousands a second.
    """

    target: str
    card: str | None = None
    family: str | None = None
    polite: bool = True
    by: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"ask": self.target}
        if self.card is not None:
            out["card"] = self.card
        if self.family is not None:
            out["family"] = self.family
        if not self.polite:
            out["polite"] = False
        if self.by is not None:
            out["by"] = self.by
        return out


class Flip(NamedTuple):
    """Memory variant: after "Not at home", turn over the face-down centre card in ``slot``."""

    slot: int

    def to_json(self) -> dict[str, Any]:
        return {"flip": self.slot}


class Pass(NamedTuple):
    """Memory variant: decline to turn over a centre card."""

    def to_json(self) -> dict[str, Any]:
        return {"pass": True}


Action = Ask | Flip | Pass


def action_from_json(data: Any) -> Action:
    """Parse {"ask": NAME, "card": ID} / {"ask": NAME, "family": KEY} / {"flip": N} / {"pass": true}."""
    if not isinstance(data, dict):
        raise IllegalAction("bad_action", "An action must be an object such as {\"ask\": \"Ben\", \"card\": \"bun:mrs\"}.")
    if "ask" in data:
        card, family = data.get("card"), data.get("family")
        if (card is None) == (family is None):
            raise IllegalAction("bad_action", "Ask for either one card or one family.")
        polite = data.get("polite", True)
        if not isinstance(polite, bool):
            raise IllegalAction("bad_action", "polite must be true or false.")
        return Ask(str(data["ask"]), card=card and str(card), family=family and str(family), polite=polite,
                   by=data.get("by"))
    if "flip" in data:
        if not isinstance(data["flip"], int) or isinstance(data["flip"], bool):
            raise IllegalAction("bad_action", "flip takes the number of a centre card.")
        return Flip(data["flip"])
    if data.get("pass") is True:
        return Pass()
    raise IllegalAction("bad_action", "Unknown action: use ask, flip or pass.")
