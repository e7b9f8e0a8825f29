"""Uniformly random legal requests: the baseline every other level is measured against."""

from __future__ import annotations

import random

from voicegame.bots.base import Bot
from voicegame.engine import Action, Observation


class RandomBot(Bot):
    level = "random"

    def __init__(self, observation: Observation, rng: random.Random) -> None:
        super().__init__(observation, rng)
        self._random_ask = observation.random_ask
        self._random = rng.random

    def choose(self) -> Action:
        # A card request is drawn without building every Ask (Observation.random_ask); anything else
        # (a flip, the second phase, surnames) is uniform over the legal actions.
        return self._random_ask(self._random) or self.rng.choice(self.obs.legal_actions())
