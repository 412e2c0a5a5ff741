"""The form fields of the service: the scoring options of
:mod:`corefud_scorer.jobs.options` (the command line's, by their long names
with underscores), read from a request into the values the library takes,
and described for the page with what each format and measure allows."""

from __future__ import annotations

import re

from ..jobs.options import CHOICE, CHOICES, COUNT, FIELDS, FLAG, NUMBER, SECTIONS, refusals
from ..formats.profile import OPTIONAL_FEATURES
from ..formats.readers import profiles
from ..measures.registry import CONLL_SCORE, MEASURES
from ..results import GROUPS

TRUE = {"1", "true", "on", "yes"}
FALSE = {"", "0", "false", "off", "no"}
# Several values of a field of choices: repeated fields, or one field split
# on commas and spaces.
SEPARATORS = ","


class OptionError(ValueError):
    """A form field the service refuses (an HTTP 422)."""


def _values(raw: list[str]) -> list[str]:
    out = []
    for value in raw:
        out.extend(v for v in value.replace(SEPARATORS, " ").split() if v)
    return out


def _truth(name: str, value: str) -> bool:
    lowered = value.strip().lower()
    if lowered in TRUE:
        return True
    if lowered in FALSE:
        return False
    raise OptionError(f"field {name!r}: expected true or false, got {value!r}")


def _whole(name: str, value: str, least: int, most: int | None = None) -> int:
    try:
        number = int(value)
    except ValueError:
        raise OptionError(f"field {name!r}: not a whole number: {value!r}") from None
    if number < least:
        raise OptionError(f"field {name!r}: must be at least {least}: {number}")
    if most is not None and number > most:
        raise OptionError(f"field {name!r}: at most {most:,}, not {number:,}")
    return number


def read_form(form: dict[str, list[str]]) -> dict:
    """The option fields of a request as the library takes them (field name
    -> value, as the command line's flags give them)."""
    asked: dict = {}
    for name, raw in form.items():
        field = FIELDS.get(name)
        if field is None:
            raise OptionError(f"unknown field {name!r}: this scorer takes {', '.join(sorted(FIELDS))}")
        if field.kind == CHOICES:
            values = _values(raw)
            bad = [v for v in values if v not in field.choices]
            if bad:
                raise OptionError(f"field {name!r}: {bad[0]!r} is not one of {', '.join(field.choices)}")
            if values:
                asked[name] = values
            continue
        if len(raw) > 1:
            raise OptionError(f"field {name!r} given {len(raw)} times")
        value = raw[0].strip()
        if field.kind == FLAG:
            asked[name] = _truth(name, value)
        elif field.kind == COUNT:
            lowered = value.lower()
            if lowered in TRUE:
                asked[name] = field.default
            elif lowered not in FALSE:
                asked[name] = _whole(name, value, 1, field.most)
        elif field.kind == NUMBER:
            if value:
                asked[name] = _whole(name, value, 0)
        elif value:
            if value not in field.choices:
                raise OptionError(f"field {name!r}: {value!r} is not one of {', '.join(field.choices)}")
            asked[name] = value
    return asked


def _spellings() -> dict[str, object]:
    """Each way the command line spells a field's flag (``-a``, ``--match``,
    ``-a/--match``) -> the field."""
    out = {}
    for field in FIELDS.values():
        for spelling in (field.flag, *field.flag.split("/")):
            out[spelling] = field
    return out


SPELLINGS = _spellings()
# A flag standing alone (not inside a word or a longer flag), and the word after it.
_FLAG = re.compile(r"(?<![\w/-])(" + "|".join(re.escape(s) for s in sorted(SPELLINGS, key=len, reverse=True))
                   + r")(?![\w/-])( [\w-]+)?")


def _field_of(found: re.Match) -> str:
    field, value = SPELLINGS[found.group(1)], (found.group(2) or "")[1:]
    if value and (field.kind in (CHOICE, CHOICES) and value in field.choices
                  or field.kind in (COUNT, NUMBER) and (value.isdigit() or value == "N")):
        return f"{field.name}={value}"
    return field.name + (f" {value}" if value else "")


def in_fields(message: str) -> str:
    """A message of the library in the service's own terms: each
    command-line flag named by its field, with the value it is given
    (``-a head`` is ``match=head``, ``-s/--keep-singletons`` is
    ``keep_singletons``)."""
    return _FLAG.sub(_field_of, message).replace("the flags ask", "the fields ask")


def _in_fields(reasons: dict) -> dict:
    return {name: _in_fields(why) if isinstance(why, dict) else in_fields(why) for name, why in reasons.items()}


def describe() -> dict:
    """The fields, the page's sections, and what each format and measure
    allows (from the formats' profiles and the measure registry)."""
    return {
        "fields": [f.to_dict() for f in FIELDS.values()],
        "sections": SECTIONS,
        "max_responses": None,
        "groups": {name: list(members) for name, members in GROUPS.items()},
        "conll": CONLL_SCORE,
        "formats": {name: {"title": p.title, "defaults": p.defaults, "all_metrics": list(p.all_metrics),
                           "refused": _in_fields(refusals(name))} for name, p in profiles().items()},
        "measures": {name: {"further": m.further, "resampled": m.resampled, "one_number": m.one_number,
                            "reads": m.reads} for name, m in MEASURES.items()},
        "features": OPTIONAL_FEATURES,
    }
