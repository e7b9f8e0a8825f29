"""Keep every saved game the tests make out of the user's real data folder, and the user's own
config file out of the tests (a file that does not exist: the built-in defaults)."""

import atexit
import os
import shutil
import tempfile

os.environ["VOICEGAME_DATA_DIR"] = tempfile.mkdtemp(prefix="voicegame-tests-")
atexit.register(shutil.rmtree, os.environ["VOICEGAME_DATA_DIR"], ignore_errors=True)
os.environ["VOICEGAME_CONFIG"] = os.path.join(os.environ["VOICEGAME_DATA_DIR"], "no-config.toml")
