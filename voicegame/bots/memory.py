"""The "memory" level: a player who remembers the whole game but does no arithmetic.

It asks where a card is known to be, never repeats a "Not at home" that still holds, and
prefers a player who has shown (by asking) that they hold the family. In a second phase with families
face down it remembers every family it heard completed or handed over, and guesses where it does not know.
"""

from __future__ import annotations

from voicegame.bots.knowledge import InformedBot, bits
from voicegame.engine import Action, Ask


class MemoryBot(InformedBot):
    level = "memory"

    def _score(self, c: int, t: int) -> int:
        """3: known to be there; 2: they hold the family; 1: not ruled out; 0: known to be elsewhere."""
        know = self.know
        h = know.holder[c]
        if h >= 0:
            return 3 if h == t else 0
        if know.cannot[c] >> t & 1:
            return 0
        return 2 if know.has_family[t] >> (c // self._m) & 1 else 1

    def _ask(self) -> Action:
        obs = self.obs
        m = self._m
        hand = obs.hand_mask
        wanted = obs.askable_mask() & ~hand
        targets = obs.legal_targets()
        if not wanted or not targets:
            return self.rng.choice(obs.legal_actions())
        family = (1 << m) - 1
        best: tuple[int, int] | None = None
        options: list[tuple[str, int]] = []
        for c in bits(wanted):
            held = (hand >> (c // m * m) & family).bit_count()
            for t in targets:
                key = (self._score(c, self._seat[t]), held)
                if best is None or key > best:
                    best, options = key, [(t, c)]
                elif key == best:
                    options.append((t, c))
        t, c = self.rng.choice(options)
        if obs.rules.ask_by_surname:
            # The surname takes every card of the family they hold: never worse than one card.
            return Ask(t, family=self._keys[c // m])
        return Ask(t, obs.card_ids[c])
