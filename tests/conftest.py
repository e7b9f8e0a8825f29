"""Keep every saved game the tests make out of the user's real data folder."""

import os
import tempfile

os.environ["VOICEGAME_DATA_DIR"] = tempfile.mkdtemp(prefix="voicegame-tests-")
