"""Uniformly random legal requests: the baseline every other level is measured against."""

from __future__ import annotations

from voicegame.bots.base import Bot
from voicegame.engine import Action, Ask


class RandomBot(Bot):
    level = "random"

    def choose(self) -> Action:
        obs = self.obs
        if obs.phase != "cards" or obs.rules.ask_by_surname:
            return self.rng.choice(obs.legal_actions())
        # Uniform over (target x card) without building every Ask: pick each coordinate uniformly.
        targets = obs.legal_targets()
        mask = obs.askable_mask()
        random = self.rng.random
        low = (mask & -mask).bit_length() - 1
        span = mask.bit_length() - low
        count = mask.bit_count()
        if 3 * count >= span:  # dense: rejection sampling over the span is cheapest
            card = low + int(random() * span)
            while not mask >> card & 1:
                card = low + int(random() * span)
        else:  # sparse: step to the k-th set bit
            for _ in range(int(random() * count)):
                mask &= mask - 1
            card = (mask & -mask).bit_length() - 1
        return Ask(targets[int(random() * len(targets))], obs.card_ids[card])
