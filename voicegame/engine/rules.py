"""Rule parameters and the three named profiles taken from the seed rule texts.

Each parameter is a named field with a default and a ``doc`` (shown by ``voicegame rules``).
docs/rules.md gives, for each one, the sentence of the seed text it comes from.
"""

from __future__ import annotations

import difflib
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any, Literal

__all__ = ["PROFILES", "RuleError", "Rules", "parse_rule_value", "profile"]


class RuleError(ValueError):
    """An unknown profile or parameter, or a value of the wrong kind."""


def _param(default: Any, doc: str, choices: tuple[str, ...] | None = None) -> Any:
    return field(default=default, metadata={"doc": doc, "choices": choices})


@dataclass(frozen=True)
class Rules:
    profile: str = _param("custom", "Name of the profile these rules started from.")
    deck: str = _param("jaques", "Deck the profile is meant for (a game may choose another).")
    after_miss: Literal["asked", "clockwise"] = _param(
        "asked",
        'Who takes the turn after "Not at home": the asked player, or the next player clockwise from the asker.',
        ("asked", "clockwise"),
    )
    second_phase: bool = _param(
        False,
        "When every family is complete, players ask each other for whole families; whoever completed"
        " the last family asks first, and the winner is the one who ends up holding them all.",
    )
    families_face_down: bool = _param(
        False,
        "Completed families lie face down: a family completed in play is named as it is laid down (everyone saw"
        " its cards go), one complete in the dealt hand is laid down unnamed, and the table tells only how many"
        " families each player holds, never which; in the second phase players must remember who holds what.",
    )
    politeness_penalty: bool = _param(
        False, "An impolite request (no 'please') loses the turn to the asked player and transfers nothing."
    )
    bluff: bool = _param(False, "A player may ask for a card they hold themselves (it always fails).")
    ask_by_surname: bool = _param(
        False, "A player may ask for a whole surname: every member of that family the asked player holds transfers."
    )
    stock: int = _param(
        0,
        "Go Fish stock: deal this many cards to each player and keep the rest as a face-down stock;"
        " a failed asker draws one. 0 deals every card and has no stock.",
    )
    centre_cards: int = _param(
        0,
        "Memory variant: this many cards lie face down in the centre; after a failed request the asker"
        " may turn one over and keeps it if it belongs to a family they hold.",
    )
    three_generations: bool = _param(False, "Families of 6: Grandpa and Grandma join each family.")
    dealer_gets_fewest: bool = _param(
        True,
        "Dealing starts left of the dealer, so with an uneven deal the dealer gets the smallest hand;"
        " off, dealing starts with the dealer, who then gets the extra card.",
    )
    first_player: Literal["left_of_dealer", "dealer"] = _param(
        "left_of_dealer",
        "Who starts: the player left of the dealer (skipping empty hands), or the dealer (the Jaques variant).",
        ("left_of_dealer", "dealer"),
    )
    lay_out_dealt_families: bool = _param(
        True, "Families complete in the dealt hand are laid out and scored at once."
    )
    match_target: int = _param(
        0, "Match play: rounds continue until a player's total of families reaches this (often 10 or 15); 0 is one round."
    )
    next_dealer: Literal["clockwise", "winner"] = _param(
        "clockwise", "In match play, who deals the next round.", ("clockwise", "winner")
    )
    tie_break: bool = _param(
        False,
        "A tie for first place is settled by a sudden-death round of the tied players (the first to complete"
        " a family wins); off, tied players share the victory.",
    )

    def with_overrides(self, **overrides: Any) -> Rules:
        """These rules with some changed; the profile they started from is not one of them (it is chosen
        as a whole: ``profile(name)``)."""
        known = {f.name for f in fields(self)} - {"profile"}
        for key in overrides:
            if key not in known:
                raise _no_such_rule(key)
        changed = {k: v for k, v in overrides.items() if getattr(self, k) != v}
        if not changed:
            return self
        return replace(self, **changed, profile=f"{self.profile.rstrip('+')}+")

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: str | dict[str, Any]) -> Rules:
        """A profile name, or an object with an optional "profile" and parameter overrides."""
        if isinstance(data, str):
            return profile(data)
        data = dict(data)
        name = str(data.pop("profile", "guide"))
        base = Rules(profile=name) if name.rstrip("+") == "custom" else profile(name.rstrip("+"))
        values = {k: parse_rule_value(k, v) for k, v in data.items()}
        rules = base.with_overrides(**values)
        # Keep the saved name: "guide+" stays "guide+", not "guide++".
        return replace(rules, profile=name) if rules != base else rules

    @staticmethod
    def describe() -> list[dict[str, Any]]:
        return [
            {"name": f.name, "default": f.default, "doc": f.metadata["doc"], "choices": f.metadata["choices"]}
            for f in fields(Rules)
            if f.name != "profile"
        ]

    def differences(self) -> dict[str, Any]:
        """Parameters that differ from the defaults."""
        base = Rules()
        return {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) != getattr(base, f.name)}


def _no_such_rule(name: str) -> RuleError:
    """An unknown rule, with the close one (a typo) or every rule's name, and where to read about them."""
    names = sorted(f.name for f in fields(Rules) if f.name != "profile")
    close = difflib.get_close_matches(name.strip().lower().replace("-", "_"), names, n=2, cutoff=0.6)
    if close:
        return RuleError(f"There is no rule called {name!r}. Did you mean {' or '.join(close)}?"
                         " See: voicegame rules")
    return RuleError(f"There is no rule called {name!r}. The rules are: {', '.join(names)}."
                     " See what each one does: voicegame rules")


def parse_rule_value(name: str, value: Any) -> Any:
    """Turn a typed or command-line value ("on", "3", "clockwise") into the parameter's type."""
    spec = {f.name: f for f in fields(Rules) if f.name != "profile"}.get(name)
    if spec is None:
        raise _no_such_rule(name)
    default = spec.default
    if isinstance(default, bool):
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in ("1", "true", "yes", "on"):
            return True
        if text in ("0", "false", "no", "off"):
            return False
        raise RuleError(f"Rule {name} takes on or off, not {value!r}.")
    if isinstance(default, int):
        try:
            number = int(value)
        except (TypeError, ValueError):
            raise RuleError(f"Rule {name} takes a whole number, not {value!r}.") from None
        if number < 0:
            raise RuleError(f"Rule {name} cannot be negative.")
        return number
    choices = spec.metadata["choices"]
    if choices and value not in choices:
        raise RuleError(f"Rule {name} takes one of {', '.join(choices)}, not {value!r}.")
    return str(value)


PROFILES: dict[str, Rules] = {
    # Seed 000, the modern guide: no stock, the failed requester's opponent takes the turn, no second phase.
    "guide": Rules(profile="guide", deck="jaques"),
    # Seed 003, the old rules card: 48-card sporting deck, families laid face down, whole families asked for
    # once all are complete.
    "classic": Rules(profile="classic", deck="sporting", second_phase=True, families_face_down=True),
    # Seed 004, the Dutch description: the turn passes clockwise after a failure, match play to 10,
    # ties settled by an extra round. Its strict politeness penalty is available as a rule override.
    "dutch": Rules(profile="dutch", deck="jaques", after_miss="clockwise", match_target=10, tie_break=True),
}


def profile(name: str) -> Rules:
    try:
        return PROFILES[name]
    except KeyError:
        raise RuleError(f"There is no rules profile called {name!r}. Profiles: {', '.join(PROFILES)}.") from None
