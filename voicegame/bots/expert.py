"""The "expert" level: exact bookkeeping of the public log plus a probability for every card.

Each hidden card gets the set of places it can still be (``Knowledge.possible_holders``: negatives,
known positives, "asked for the family, so holds one", hand sizes, propagated), then a probability
per place (``holder_probabilities``). The expert asks for the (player, card) most likely to succeed,
preferring, among equals, the family it is closest to completing, then one it has already shown
(every request tells the table a family it holds). Under the ask-by-surname rule it asks for the
(player, family) most likely to hold any missing member. In a second phase with families face down it
asks where it remembers a family to be, else the player most likely to hold one (``ask_whole_family``).
"""

from __future__ import annotations

from voicegame.bots.knowledge import InformedBot, bits, holder_probabilities
from voicegame.engine import Action, Ask


class ExpertBot(InformedBot):
    level = "expert"
    weigh_guesses = True

    def probabilities(self) -> dict[int, dict[int, float]]:
        """P(hidden card at location), from this seat's point of view."""
        return holder_probabilities(*self.know.possible_holders())

    def _ask(self) -> Action:
        obs = self.obs
        m = self._m
        hand = obs.hand_mask
        wanted = obs.askable_mask() & ~hand
        targets = obs.legal_targets()
        if not wanted or not targets:
            return self.rng.choice(obs.legal_actions())
        probs = self.probabilities()
        family = (1 << m) - 1
        by_family: dict[int, list[int]] = {}
        for c in bits(wanted):
            by_family.setdefault(c // m, []).append(c)
        surname = obs.rules.ask_by_surname
        best: tuple[float, ...] | None = None
        options: list[Ask] = []
        for f, cards in by_family.items():
            held = (hand >> (f * m) & family).bit_count()
            shown = self.know.has_family[obs.seat] >> f & 1
            for t in targets:
                s = self._seat[t]
                ps = [probs.get(c, {}).get(s, 0.0) for c in cards]
                if surname:
                    # The surname succeeds if they hold any missing member, and takes them all.
                    none = 1.0
                    for p in ps:
                        none *= 1.0 - p
                    scored = [((round(1.0 - none, 6), round(sum(ps), 6), held, shown), Ask(t, family=self._keys[f]))]
                else:
                    scored = [((round(p, 6), held, shown), Ask(t, obs.card_ids[c])) for p, c in zip(ps, cards)]
                for key, action in scored:
                    if best is None or key > best:
                        best, options = key, [action]
                    elif key == best:
                        options.append(action)
        return self.rng.choice(options)
