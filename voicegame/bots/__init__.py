"""Computer players. A bot sees only its own Observation (its hand plus public information)."""

from __future__ import annotations

import random

from voicegame.bots.base import Bot
from voicegame.bots.child import ChildBot
from voicegame.bots.expert import ExpertBot
from voicegame.bots.memory import MemoryBot
from voicegame.bots.random_bot import RandomBot
from voicegame.engine import Game

__all__ = ["BOT_LEVELS", "Bot", "make_bot"]

# Weakest first: the order the levels are offered in.
BOT_LEVELS: dict[str, type[Bot]] = {"random": RandomBot, "child": ChildBot, "memory": MemoryBot, "expert": ExpertBot}


def make_bot(level: str, game: Game, player: str, seed: int = 0) -> Bot:
    """A bot of ``level`` for ``player``, with its own random stream derived from ``seed``."""
    try:
        cls = BOT_LEVELS[level]
    except KeyError:
        raise ValueError(f"There is no computer level {level!r}. Levels: {', '.join(BOT_LEVELS)}.") from None
    return cls(game.observation(player), random.Random(f"{seed}/{player}/{level}"))
