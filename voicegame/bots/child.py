"""The "child" level: keeps to its biggest family and remembers only the last few things said.

Its memory is the last ``MEMORY`` requests, hand-overs, "Not at home"s and turned-over centre
cards of the current round; anything older is forgotten. In the second phase, with families face down,
it remembers who holds a family from the last ``MEMORY`` completions and whole-family hand-overs only.
"""

from __future__ import annotations

import random
from typing import Any

from voicegame.bots.base import Bot
from voicegame.bots.knowledge import ask_whole_family, bits
from voicegame.engine import Action, Ask, Flip, Observation

_REMEMBERED = ("ask", "transfer", "not_at_home", "flip")


class ChildBot(Bot):
    level = "child"
    MEMORY = 6

    def __init__(self, observation: Observation, rng: random.Random) -> None:
        super().__init__(observation, rng)
        self._m = observation.deck.family_size
        self._index = {cid: i for i, cid in enumerate(observation.card_ids)}
        self._family = {f.key: f.index for f in observation.deck.families}

    def _recent(self) -> list[dict[str, Any]]:
        """The remembered events, newest first (only reads back that far)."""
        out: list[dict[str, Any]] = []
        log = self.obs.log
        for i in range(len(log) - 1, -1, -1):
            e = log[i]
            kind = e["type"]
            if kind in ("deal", "phase"):
                break
            if kind in _REMEMBERED:
                out.append(e)
                if len(out) == self.MEMORY:
                    break
        return out

    def _family_of(self, e: dict[str, Any]) -> int:
        cid = e.get("card") or (e.get("cards") or [None])[0]
        return self._index[cid] // self._m if cid else self._family[e["family"]]

    def choose(self) -> Action:
        obs = self.obs
        phase = obs.phase
        if phase == "families":
            return self._ask_family()
        if phase == "flip":
            return self._flip()
        return self._ask()

    def _ask_family(self) -> Action:
        """A whole family: where one of the last few completions or hand-overs put it, else a guess."""
        owner = [-1] * len(self._family)
        not_owner = [0] * len(self._family)
        seat = {p: i for i, p in enumerate(self.obs.players)}
        seen = 0
        log = self.obs.log
        for i in range(len(log) - 1, -1, -1):  # newest first: an older sighting does not overwrite a newer one
            e = log[i]
            kind = e["type"]
            if kind == "deal":
                break
            if "family" not in e or kind not in ("family_complete", "transfer", "not_at_home"):
                continue
            f = self._family[e["family"]]
            if kind == "not_at_home":
                if owner[f] < 0:
                    not_owner[f] |= 1 << seat[e["player"]]
            elif owner[f] < 0:
                owner[f] = seat[e["player" if kind == "family_complete" else "to"]]
            seen += 1
            if seen == self.MEMORY:
                break
        return ask_whole_family(self.obs, self.rng, owner, not_owner)

    def _flip(self) -> Action:
        obs = self.obs
        m = self._m
        slots = set(obs.centre_slots)
        for e in self._recent():
            if e["type"] == "flip" and not e["kept"] and e["slot"] in slots:
                if obs.hand_mask >> (self._index[e["card"]] // m * m) & ((1 << m) - 1):
                    return Flip(e["slot"])
        return self.rng.choice(obs.legal_actions())

    def _ask(self) -> Action:
        obs = self.obs
        m = self._m
        hand = obs.hand_mask
        targets = obs.legal_targets()
        wanted = obs.askable_mask() & ~hand
        if not wanted or not targets:
            return self.rng.choice(obs.legal_actions())
        family = (1 << m) - 1
        sizes = {f: (hand >> (f * m) & family).bit_count() for f in {c // m for c in bits(wanted)}}
        most = max(sizes.values())
        f = self.rng.choice(sorted(f for f, k in sizes.items() if k == most))
        missing = bits(wanted & family << (f * m))
        ids = obs.card_ids
        holders: list[str] = []
        blocked: set[tuple[str, int]] = set()
        for e in self._recent():
            if self._family_of(e) != f:
                continue
            kind = e["type"]
            if kind == "transfer" and e["to"] in targets:
                for cid in e.get("cards", ()):
                    if self._index[cid] in missing and (e["to"], self._index[cid]) not in blocked:
                        return Ask(e["to"], ids[self._index[cid]])
                holders.append(e["to"])
            elif kind == "ask" and e["player"] in targets:
                holders.append(e["player"])
            elif kind == "not_at_home":
                gone = [self._index[e["card"]]] if "card" in e else missing
                blocked.update((e["player"], c) for c in gone)
        options = [(t, c) for t in targets for c in missing if (t, c) not in blocked]
        hinted = [(t, c) for t, c in options if t in holders]
        t, c = self.rng.choice(hinted or options or [(t, c) for t in targets for c in missing])
        return Ask(t, ids[c])
