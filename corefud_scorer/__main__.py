"""``python -m corefud_scorer``."""

import sys

from .cli import main

sys.exit(main())
