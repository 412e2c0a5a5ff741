"""``python -m corefud_scorer``."""

from .cli import entry_point

entry_point()
