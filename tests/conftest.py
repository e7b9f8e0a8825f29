"""Keep every saved game the tests make out of the user's real data folder, and the user's own
config file out of the tests (a file that does not exist: the built-in defaults)."""

import os
import tempfile

os.environ["VOICEGAME_DATA_DIR"] = tempfile.mkdtemp(prefix="voicegame-tests-")
os.environ["VOICEGAME_CONFIG"] = os.path.join(os.environ["VOICEGAME_DATA_DIR"], "no-config.toml")
