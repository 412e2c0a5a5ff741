"""What one input may hold before the scorer refuses it, for files come from
strangers: the longest line, what a compressed file or a zip may unpack to,
a zip's members, the mentions on one word. Each default lets every real
corpus through (the longest OntoNotes jsonlines document is a few MB, the
largest CorefUD file a few hundred MB, GUM nests at most 6 mentions on a
word) and refuses what would take the machine's memory or time; an
environment variable sets each, for the command line, the service and
``codalab`` alike, and ``--help`` and ``GET /api/options`` state them."""

from __future__ import annotations

import os
from collections import namedtuple

from ...errors import ScorerError

MB = 2 ** 20


class Limit(namedtuple("Limit", "field variable default unit stated")):
    """One bound on what is read, and how it is set and said: ``field``,
    the attribute of :class:`Limits`; ``variable``, the environment variable
    that sets it; ``default``, in ``unit``, bytes per unit (MB) or 1;
    ``stated``, how --help says it, with {} for the value."""

    __slots__ = ()


LIMITS = (
    Limit("line_bytes", "COREFUD_SCORER_MAX_LINE_MB", 32, MB, "a line of at most {} MB"),
    Limit("unpacked_bytes", "COREFUD_SCORER_MAX_UNPACKED_MB", 4096, MB,
          "a gzip file or a zip unpacking to at most {} MB"),
    Limit("zip_members", "COREFUD_SCORER_MAX_ZIP_MEMBERS", 1000, 1, "a zip of at most {} members"),
    Limit("mentions_per_word", "COREFUD_SCORER_MAX_MENTIONS_PER_WORD", 100, 1, "at most {} mentions on one word"),
)
BY_FIELD = {limit.field: limit for limit in LIMITS}


class Limits(namedtuple("Limits", "line_bytes unpacked_bytes zip_members mentions_per_word")):
    """The bounds in force (:func:`limits`), in bytes and counts."""

    __slots__ = ()


def _value(limit: Limit) -> float:
    text = os.environ.get(limit.variable, "").strip()
    if not text:
        return limit.default
    try:
        value = float(text)
    except ValueError:
        value = 0
    if not value > 0 or (limit.unit == 1 and value != int(value)):
        raise ScorerError(f"{limit.variable}={text}: give a {'number' if limit.unit > 1 else 'whole number'} above 0")
    return value


def limits() -> Limits:
    """The limits in force (the environment's, else the defaults), in bytes
    and counts; read at each call, so that a test or a caller may set them."""
    return Limits(**{limit.field: int(_value(limit) * limit.unit) for limit in LIMITS})


def limit(field: str) -> int:
    """One limit in force, as :func:`limits` gives it, without reading the others."""
    entry = BY_FIELD[field]
    return int(_value(entry) * entry.unit)


def variable(field: str) -> str:
    """The environment variable of a limit, as a refusal names it."""
    return BY_FIELD[field].variable


def in_units() -> dict[str, float]:
    """Each limit in force by its variable's unit (``line_mb``...), as the API states them."""
    return {limit.variable[len("COREFUD_SCORER_MAX_"):].lower(): _number(_value(limit)) for limit in LIMITS}


def _number(value: float) -> float | int:
    return int(value) if value == int(value) else value


def statement() -> str:
    """The limits in force in one sentence, for ``--help``."""
    said = ", ".join(limit.stated.format(f"{_number(_value(limit)):,}") for limit in LIMITS)
    return (f"Limits on what is read: {said}; each is set by an environment variable "
            f"({', '.join(limit.variable for limit in LIMITS)}).")


def nesting_error(count: int, place: tuple[str, int | None]) -> ScorerError:
    """The refusal of a word in more mentions than the limit: valid, maybe,
    but no corpus nests so deep, and reading and scoring it would take time
    growing with the square of the depth."""
    most = limits().mentions_per_word
    return ScorerError(f"a word in {count:,} mentions, more than the limit of {most:,} mentions on one word "
                       f"({variable('mentions_per_word')})", place)
