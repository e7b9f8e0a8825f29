"""voicegame: Happy Families run by voice, keyboard and screen reader."""

from pathlib import Path


def names_list(names: list[str], conjunction: str = "and") -> str:
    """Alice, Ben and Cara: ``conjunction`` is the word itself ("and", "or", "en", "of"). Here, below
    every layer, because the engine, the settings and the table all list names."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + f" {conjunction} " + names[-1]


def shipped(name: str) -> Path:
    """A top-level folder of the project that the game reads (grammars, models): inside the package in a
    regular install (the wheel carries it as voicegame/NAME), else beside the package in a checkout (a
    source tree or an editable install)."""
    package = Path(__file__).resolve().parent
    packaged = package / name
    return packaged if packaged.is_dir() else package.parent / name
