"""``python -m corefud_scorer``."""

from .cli import entry_point

# Guarded: worker processes started by spawn import this module again.
if __name__ == "__main__":
    entry_point()
