"""Uniformly random legal requests: the baseline every other level is measured against."""

from __future__ import annotations

import random

from voicegame.bots.base import Bot
from voicegame.engine import Action, Ask, Observation


class RandomBot(Bot):
    level = "random"

    def __init__(self, observation: Observation, rng: random.Random) -> None:
        super().__init__(observation, rng)
        self._only_cards = not observation.rules.ask_by_surname
        self._random = rng.random
        self._ids = observation.card_ids

    def choose(self) -> Action:
        obs = self.obs
        if not self._only_cards or obs.phase != "cards":
            return self.rng.choice(obs.legal_actions())
        # Uniform over (target x card) without building every Ask: pick each coordinate uniformly.
        targets = obs.legal_targets()
        mask = obs.askable_mask()
        rand = self._random
        low = (mask & -mask).bit_length() - 1
        span = mask.bit_length() - low
        count = mask.bit_count()
        if 3 * count >= span:  # dense: rejection sampling over the span is cheapest
            card = low + int(rand() * span)
            while not mask >> card & 1:
                card = low + int(rand() * span)
        else:  # sparse: step to the k-th set bit
            for _ in range(int(rand() * count)):
                mask &= mask - 1
            card = (mask & -mask).bit_length() - 1
        return Ask(targets[int(rand() * len(targets))], self._ids[card])
