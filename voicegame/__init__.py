"""voicegame: Happy Families run by voice, keyboard and screen reader."""

from pathlib import Path


def shipped(name: str) -> Path:
    """A top-level folder of the project that the game reads (grammars, models): inside the package in a
    regular install (the wheel carries it as voicegame/NAME), else beside the package in a checkout (a
    source tree or an editable install)."""
    package = Path(__file__).resolve().parent
    packaged = package / name
    return packaged if packaged.is_dir() else package.parent / name
