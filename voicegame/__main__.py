import sys

from voicegame.cli import main

sys.exit(main())
