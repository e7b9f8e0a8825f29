"""The pure rules engine: game state, actions, events and rule profiles (no I/O)."""

from voicegame.engine.actions import ERROR_CODES, Action, Ask, Flip, IllegalAction, Pass, action_from_json
from voicegame.engine.game import Game, Observation, PositionError
from voicegame.engine.rules import PROFILES, RuleError, Rules, profile

__all__ = [
    "ERROR_CODES", "PROFILES", "Action", "Ask", "Flip", "Game", "IllegalAction", "Observation", "Pass",
    "PositionError", "RuleError", "Rules", "action_from_json", "profile",
]
