"""What one seat can infer from the public log, shared by the memory and expert bots.

``Knowledge`` reads only the events it has not read yet, starts afresh at every deal and when the
log list is replaced (undo replays a game into a new list), so a decision costs the new events only.

Locations are seats ``0..n-1``, then ``stock`` (the Go Fish stock), ``centre`` (face-down
centre cards nobody has turned over yet) and ``down`` (families another player laid face down from
the deal without naming them, under ``families_face_down``). Everything here is sound: the real deal always
satisfies every fact recorded, so the expert's narrowing (``possible_holders``) never contradicts it.
"""

from __future__ import annotations

import random
from typing import Any

from voicegame.bots.base import Bot
from voicegame.engine import Action, Ask, Flip, Observation, Pass

__all__ = ["Knowledge", "ask_whole_family", "bits", "choose_flip", "holder_probabilities",
           "narrow"]


def bits(mask: int) -> list[int]:
    """The set bit positions of ``mask``, lowest first (card indices, locations, families)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class Knowledge:
    """Public facts about every card, kept up to date from the log.

    * ``holder[c]``: the seat that last received ``c`` in public (a transfer or a kept flip) and has
      not given it away since, else -1;
    * ``cannot[c]``: locations known not to hold ``c`` (a "Not at home", or asking for it oneself),
      each valid until that seat could have gained the card (it receives it, or draws from the stock);
    * ``has_family[s]``: families seat ``s`` holds at least one card of (it asked for one), valid until
      it gives a card of that family away;
    * ``centre_known``: face-down centre slot -> the card seen there when it was turned over and not kept;
    * ``owner[f]``: the seat the table last heard holds complete family ``f`` (it was completed by name, or
      handed over in the second phase), else -1; ``not_owner[f]``: seats that said "Not at home" to it
      in the second phase (or asked for it), valid until they receive it.
    """

    def __init__(self, obs: Observation) -> None:
        self.obs = obs
        deck = obs.deck
        self.m = deck.family_size
        self.n_cards = len(obs.card_ids)
        self.card_index = {cid: i for i, cid in enumerate(obs.card_ids)}
        self.family_index = {f.key: f.index for f in deck.families}
        self.seat_of = {p: i for i, p in enumerate(obs.players)}
        self.n = len(obs.players)
        self.stock = self.n
        self.centre = self.n + 1
        self.down = self.n + 2
        self.n_families = len(deck.families)
        self.bluff = obs.rules.bluff
        self._log: list[dict[str, Any]] | None = None
        self._read = 0
        self._reset()

    def _reset(self) -> None:
        self.holder = [-1] * self.n_cards
        self.cannot = [0] * self.n_cards
        self.has_family = [0] * self.n
        self.centre_known: dict[int, int] = {}
        self.owner = [-1] * self.n_families
        self.not_owner = [0] * self.n_families
        self.families_phase = False
        self._asked_family: int | None = None

    def update(self) -> None:
        """Read the events added since the last call."""
        log = self.obs.log
        if log is not self._log:
            self._log = log
            self._read = 0
            self._reset()
        for i in range(self._read, len(log)):
            self._event(log[i])
        self._read = len(log)

    def _family_cards(self, f: int) -> range:
        return range(f * self.m, (f + 1) * self.m)

    def _event(self, e: dict[str, Any]) -> None:
        kind = e["type"]
        if kind == "ask":
            self._ask(e)
        elif kind == "transfer":
            if "cards" in e:
                self._transfer(self.seat_of[e["from"]], self.seat_of[e["to"]], e["cards"])
            elif "family" in e:  # the second phase: a whole family changes hands
                f = self.family_index[e["family"]]
                to = self.seat_of[e["to"]]
                self.owner[f] = to
                self.not_owner[f] &= ~(1 << to)
        elif kind == "not_at_home":
            if self.families_phase:
                if "family" in e:
                    self.not_owner[self.family_index[e["family"]]] |= 1 << self.seat_of[e["player"]]
                return
            t = self.seat_of[e["player"]]
            if "card" in e:
                self.cannot[self.card_index[e["card"]]] |= 1 << t
            else:
                f = self.family_index[e["family"]]
                for c in self._family_cards(f):
                    self.cannot[c] |= 1 << t
                self.has_family[t] &= ~(1 << f)
        elif kind == "draw":
            # The drawer may now hold any card that could have been in the stock.
            keep = ~(1 << self.seat_of[e["player"]])
            stock = 1 << self.stock
            for c in range(self.n_cards):
                if self.holder[c] < 0 and not self.cannot[c] & stock:
                    self.cannot[c] &= keep
        elif kind == "flip":
            c = self.card_index[e["card"]]
            if e["kept"]:
                self.centre_known.pop(e["slot"], None)
                self._gain(self.seat_of[e["player"]], c)
            else:
                self.centre_known[e["slot"]] = c
        elif kind == "family_complete":
            if "family" in e:  # (a family laid face down from the deal is not named)
                f = self.family_index[e["family"]]
                self.owner[f] = self.seat_of[e["player"]]
                gone = ~(1 << f)
                self.has_family = [h & gone for h in self.has_family]
            elif e.get("drawn"):  # laid face down unnamed after a draw: cards seen going to them may be in it
                s = self.seat_of[e["player"]]
                either = (1 << s) | (1 << self.down)
                for c in range(self.n_cards):
                    if self.holder[c] == s:
                        self.holder[c] = -1
                        self.cannot[c] = ((1 << (self.down + 1)) - 1) & ~either
                self.has_family[s] = 0
        elif kind == "phase":
            self.families_phase = True
        elif kind == "deal":
            self._reset()

    def _ask(self, e: dict[str, Any]) -> None:
        if self.families_phase:
            if "family" in e and not self.bluff:  # one does not ask for a family one holds
                self.not_owner[self.family_index[e["family"]]] |= 1 << self.seat_of[e["player"]]
            return
        p = self.seat_of[e["player"]]
        if "card" in e:
            c = self.card_index[e["card"]]
            f = c // self.m
            if not self.bluff:
                self.cannot[c] |= 1 << p
            self._asked_family = None
        else:
            f = self.family_index[e["family"]]
            self._asked_family = f
        self.has_family[p] |= 1 << f

    def _gain(self, s: int, c: int) -> None:
        self.holder[c] = s
        self.cannot[c] &= ~(1 << s)

    def _transfer(self, giver: int, taker: int, cards: list[str]) -> None:
        moved = [self.card_index[cid] for cid in cards]
        for c in moved:
            self._gain(taker, c)
        f = moved[0] // self.m
        self.has_family[giver] &= ~(1 << f)
        if self._asked_family == f:
            # A surname request takes every card of the family: the giver has none left.
            for c in self._family_cards(f):
                if c not in moved:
                    self.cannot[c] |= 1 << giver

    # ------------------------------------------------------------ for the expert

    def hidden_cards(self) -> int:
        """Mask of the cards this seat cannot see: not its own, not laid out, not seen in the centre."""
        obs = self.obs
        seen = obs.hand_mask
        for f in bits(obs.complete_mask):
            seen |= ((1 << self.m) - 1) << (f * self.m)
        for c in self.centre_known.values():
            seen |= 1 << c
        return ((1 << self.n_cards) - 1) & ~seen

    def counts(self) -> list[int]:
        """How many hidden cards each location holds: hand sizes, stock size, unseen centre cards, cards of
        families laid face down unnamed."""
        obs = self.obs
        out = [0 if s == obs.seat else obs.hand_size(s) for s in range(self.n)]
        slots = obs.centre_slots
        out.append(obs.stock_size)
        out.append(sum(1 for s in slots if s not in self.centre_known))
        out.append(obs.unnamed_families * self.m)
        return out

    def possible_holders(self) -> tuple[dict[int, int], list[int], list[tuple[int, int]]]:
        """Each hidden card's possible locations (bit masks), the counts, and the "holds one of" facts,
        narrowed by ``narrow``."""
        counts = self.counts()
        anywhere = sum(1 << loc for loc, k in enumerate(counts) if k)
        poss = {}
        for c in bits(self.hidden_cards()):
            h = self.holder[c]
            poss[c] = 1 << h if h >= 0 else anywhere & ~self.cannot[c]
        musts = []
        for s, fams in enumerate(self.has_family):
            if s == self.obs.seat:
                continue
            for f in bits(fams):
                fm = sum(1 << c for c in self._family_cards(f) if c in poss)
                if fm:
                    musts.append((s, fm))
        narrow(poss, counts, musts)
        return poss, counts, musts


def narrow(poss: dict[int, int], counts: list[int], musts: list[tuple[int, int]]) -> None:
    """Propagate in place until nothing changes: a location whose known cards fill its count holds
    nothing else; one whose possible cards equal its count holds them all; a "holds one of" fact with a
    single candidate fixes that card; a card with one possible location is there."""
    changed = True
    while changed:
        changed = False
        for loc, need in enumerate(counts):
            bit = 1 << loc
            fixed = maybe = 0
            for c, m in poss.items():
                if m & bit:
                    if m == bit:
                        fixed += 1
                    else:
                        maybe += 1
            if not maybe:
                continue
            if fixed >= need:
                for c, m in poss.items():
                    if m & bit and m != bit:
                        poss[c] = m & ~bit
                changed = True
            elif fixed + maybe <= need:
                for c, m in poss.items():
                    if m & bit:
                        poss[c] = bit
                changed = True
        for s, fm in musts:
            bit = 1 << s
            cands = [c for c in bits(fm) if poss[c] & bit]
            if len(cands) == 1 and poss[cands[0]] != bit:
                poss[cands[0]] = bit
                changed = True


def holder_probabilities(
    poss: dict[int, int], counts: list[int], musts: list[tuple[int, int]], rounds: int = 3, iters: int = 40
) -> dict[int, dict[int, float]]:
    """P(card at location) for every hidden card: ``poss`` after ``narrow``.

    Iterative proportional fitting of the cards x locations 0/1 matrix to row sums 1 and column sums
    ``counts`` (the maximum-entropy fit), then each "holds one of" fact is imposed by scaling its
    location's weights on the candidates by 1/P(at least one), and the fit is redone.
    """
    out: dict[int, dict[int, float]] = {}
    need = list(counts)
    rows: list[tuple[int, list[int], list[float]]] = []
    for c, m in poss.items():
        locs = bits(m)
        if len(locs) == 1:
            out[c] = {locs[0]: 1.0}
            need[locs[0]] -= 1
        else:
            rows.append((c, locs, [1.0 / len(locs)] * len(locs)))
    n_loc = len(counts)

    def fit() -> None:
        for _ in range(iters):
            col = [0.0] * n_loc
            for _, locs, w in rows:
                for loc, x in zip(locs, w):
                    col[loc] += x
            scale = [need[loc] / col[loc] if col[loc] > 0 else 1.0 for loc in range(n_loc)]
            if max(abs(col[loc] - need[loc]) for loc in range(n_loc)) < 1e-6:
                return
            for _, locs, w in rows:
                total = 0.0
                for i, loc in enumerate(locs):
                    w[i] *= scale[loc]
                    total += w[i]
                if total > 0:
                    for i in range(len(w)):
                        w[i] /= total

    fit()
    index = {c: (locs, w) for c, locs, w in rows}
    for _ in range(rounds):
        adjusted = False
        for s, fm in musts:
            entries = []
            none = 1.0
            for c in bits(fm):
                if c in index:
                    locs, w = index[c]
                    if s in locs:
                        i = locs.index(s)
                        entries.append((w, i))
                        none *= 1.0 - w[i]
                elif out.get(c, {}).get(s) == 1.0:
                    none = 0.0
            if 1e-6 < none < 1.0 and entries:
                for w, i in entries:
                    w[i] /= 1.0 - none
                adjusted = True
        if not adjusted:
            break
        fit()
    for c, locs, w in rows:
        out[c] = dict(zip(locs, w))
    return out


def ask_whole_family(obs: Observation, rng: random.Random, owner: list[int], not_owner: list[int],
                     weigh: bool = False) -> Action:
    """Second phase: ask for a family where it is known to be, else guess.

    Where families lie face up everyone sees them, so the request always succeeds. Face down
    (``families_face_down``) a bot knows only what it remembers: ``owner[f]`` (a seat, or -1) and
    ``not_owner[f]`` (seats ruled out), read from what the table was told. It asks for a remembered
    family when it has one; otherwise it guesses a family it does not hold and a player who may have it:
    among those, one with families not yet accounted for, the likeliest (most unaccounted-for families)
    with ``weigh``, any at random without.
    """
    me = obs.seat
    players = obs.players
    keys = [f.key for f in obs.deck.families]
    seat = {p: i for i, p in enumerate(players)}
    targets = [seat[t] for t in obs.legal_targets()]
    mine = set(obs.families_of(me))
    if obs.families_public:
        owner = [-1] * len(keys)
        for t in targets:
            for f in obs.families_of(t):
                owner[f] = t
    live = set(targets)
    known = [Ask(players[owner[f]], family=keys[f]) for f in range(len(keys))
             if f not in mine and owner[f] in live]
    if known:
        return rng.choice(known)
    accounted = {t: sum(1 for f in range(len(keys)) if owner[f] == t) for t in targets}
    open_slots = {t: obs.family_count(t) - accounted[t] for t in targets}
    guesses: list[tuple[float, int, int]] = []
    for f in range(len(keys)):
        if f in mine or owner[f] >= 0:
            continue
        cands = [t for t in targets if open_slots[t] > 0 and not not_owner[f] >> t & 1]
        total = sum(open_slots[t] for t in cands)
        guesses += [(open_slots[t] / total, f, t) for t in cands]
    if weigh and guesses:
        best = max(p for p, _, _ in guesses)
        guesses = [g for g in guesses if g[0] >= best - 1e-9]
    if guesses:
        _, f, t = rng.choice(guesses)
        return Ask(players[t], family=keys[f])
    return rng.choice(obs.legal_actions())


def choose_flip(obs: Observation, centre_known: dict[int, int], rng: random.Random) -> Action:
    """Turn over a centre card remembered to fit a family in hand; else an unseen one; else pass
    (every face-down card is known to be of no use)."""
    m = obs.deck.family_size
    hand = obs.hand_mask
    slots = obs.centre_slots
    useful = [s for s in slots if s in centre_known and hand >> (centre_known[s] // m * m) & ((1 << m) - 1)]
    if useful:
        return Flip(rng.choice(useful))
    unseen = [s for s in slots if s not in centre_known]
    return Flip(rng.choice(unseen)) if unseen else Pass()


class InformedBot(Bot):
    """A bot that keeps a Knowledge of the whole public log: the shared frame of memory and expert,
    which differ only in how they pick a card request (``_ask``)."""

    def __init__(self, observation: Observation, rng: random.Random) -> None:
        super().__init__(observation, rng)
        self.know = Knowledge(observation)
        self._m = observation.deck.family_size
        self._keys = [f.key for f in observation.deck.families]
        self._seat = {p: i for i, p in enumerate(observation.players)}

    def choose(self) -> Action:
        obs = self.obs
        self.know.update()
        phase = obs.phase
        if phase == "flip":
            return choose_flip(obs, self.know.centre_known, self.rng)
        if phase == "families":
            return ask_whole_family(obs, self.rng, self.know.owner, self.know.not_owner, weigh=self.weigh_guesses)
        return self._ask()

    # Whether a second-phase guess (families face down, owner forgotten or never told) goes to the likeliest
    # player (the expert) or to any player who may hold the family (memory).
    weigh_guesses = False

    def _ask(self) -> Action:
        raise NotImplementedError
