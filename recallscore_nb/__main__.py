"""``python -m recallscore_nb``: the same as the ``recallscore`` command."""

import sys

from .cli.main import main

sys.exit(main())
