"""The one interface every computer player implements."""

from __future__ import annotations

import random

from voicegame.engine import Action, Observation


class Bot:
    """A computer player bound to one seat. ``choose`` is called only on its turn."""

    level = "base"

    def __init__(self, observation: Observation, rng: random.Random) -> None:
        self.obs = observation
        self.rng = rng

    def choose(self) -> Action:
        raise NotImplementedError
