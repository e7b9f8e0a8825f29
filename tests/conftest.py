"""Keep every saved game the tests make out of the user's real data folder, and the user's own
config file out of the tests (a file that does not exist: the built-in defaults)."""

import atexit
import os
import shutil
import tempfile

import pytest

os.environ["VOICEGAME_DATA_DIR"] = tempfile.mkdtemp(prefix="voicegame-tests-")
atexit.register(shutil.rmtree, os.environ["VOICEGAME_DATA_DIR"], ignore_errors=True)
os.environ["VOICEGAME_CONFIG"] = os.path.join(os.environ["VOICEGAME_DATA_DIR"], "no-config.toml")


@pytest.fixture(autouse=True)
def _own_data_folder(tmp_path_factory, monkeypatch):
    """Each test saves its games in a folder of its own: an unfinished game another test left is not
    this test's last game (a new game started with options names it first)."""
    monkeypatch.setenv("VOICEGAME_DATA_DIR", str(tmp_path_factory.mktemp("voicegame-data")))


@pytest.fixture(autouse=True)
def _own_keyboard():
    """Each test reads its own standard input: the command line keeps one keyboard reader a run, and a
    test given another's (an earlier test's exhausted input) would wait on it for ever."""
    from voicegame import cli

    cli._keyboard.cache_clear()
    yield
    cli._keyboard.cache_clear()
