"""The form fields of the service, read off the command line's own parser.

A field is a long option of ``corefud-scorer KEY SYS ...`` with dashes turned
into underscores (``--keep-singletons`` is ``keep_singletons``). Only options
that change what is scored or reported are offered, and only those the
installed command line knows, so the service grows with the CLI by itself.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field

# Options a client may set. Anything that writes files, picks the output,
# the number of processes or the verbosity stays the server's business.
SAFE = ("format", "shared_task", "match", "exact_match", "keep_singletons", "zero_match_method",
        "metrics", "sync", "per_doc", "errors", "confidence", "paired_bs", "paired_ar", "seed",
        "no_form_check")
TRUE = {"1", "true", "on", "yes"}
FALSE = {"", "0", "false", "off", "no"}


class OptionError(ValueError):
    """A form field the CLI would not accept (an HTTP 422)."""


@dataclass
class Field:
    name: str          # the form field
    flag: str          # the CLI's long option
    kind: str          # "flag", "list", "value" or "optional" (a flag that may take a value)
    choices: list[str] | None = None
    help: str = ""
    default: object = None

    def to_dict(self) -> dict:
        return {"name": self.name, "flag": self.flag, "kind": self.kind, "choices": self.choices,
                "help": self.help, "default": self.default}


@dataclass
class Spec:
    """What the installed CLI accepts: the fields and how many responses."""
    fields: dict[str, Field] = field(default_factory=dict)
    max_responses: int | None = 1    # None: any number
    server_flags: list[str] = field(default_factory=list)  # added to every call
    known_flags: list[str] = field(default_factory=list)  # every long option the command line takes

    def to_dict(self) -> dict:
        return {"fields": [f.to_dict() for f in self.fields.values()],
                "max_responses": self.max_responses}


def _long_flag(action: argparse.Action) -> str | None:
    longs = [s for s in action.option_strings if s.startswith("--")]
    return longs[0] if longs else None


def _kind(action: argparse.Action) -> str:
    if action.nargs == 0:
        return "flag"
    if action.nargs in ("*", "+") or isinstance(action.nargs, int) and action.nargs > 1:
        return "list"
    if action.nargs == "?":
        return "optional"
    return "value"


def _help(action: argparse.Action) -> str:
    text = action.help or ""
    if "%(" in text:
        try:
            text = text % {"default": action.default, "prog": "corefud-scorer"}
        except (KeyError, ValueError, TypeError):
            pass
    return text


def read_spec(parser: argparse.ArgumentParser) -> Spec:
    """The fields of :data:`SAFE` that ``parser`` knows, and the number of
    response files its positional arguments take after the key."""
    spec = Spec()
    capacity = 0
    for action in parser._actions:  # argparse offers no public list of its actions
        if not action.option_strings:
            if action.nargs in ("*", "+", argparse.REMAINDER):
                capacity = None
            elif capacity is not None:
                capacity += action.nargs if isinstance(action.nargs, int) else (0 if action.nargs == "?" else 1)
            continue
        flag = _long_flag(action)
        if flag is None:
            continue
        spec.known_flags.append(flag)
        if action.dest == "jobs":
            # the server's pool runs calls side by side; each call takes one process
            spec.server_flags = [flag, "1"]
        name = flag[2:].replace("-", "_")
        if name not in SAFE:
            continue
        choices = [str(c) for c in action.choices] if action.choices else None
        spec.fields[name] = Field(name, flag, _kind(action), choices, _help(action),
                                  action.default if action.default is not argparse.SUPPRESS else None)
    spec.max_responses = None if capacity is None else max(capacity - 1, 1)
    return spec


def cli_spec() -> Spec:
    from ..cli.flags import build_parser

    return read_spec(build_parser())


def _values(raw: list[str]) -> list[str]:
    """Several values from repeated fields or one field split on commas and spaces."""
    out = []
    for value in raw:
        out.extend(v for v in value.replace(",", " ").split() if v)
    return out


def _is_number(value: str) -> bool:
    try:
        float(value)
    except ValueError:
        return False
    return True


def _truth(name: str, value: str) -> bool:
    lowered = value.strip().lower()
    if lowered in TRUE:
        return True
    if lowered in FALSE:
        return False
    raise OptionError(f"field {name!r}: expected true or false, got {value!r}")


def to_argv(spec: Spec, form: dict[str, list[str]]) -> list[str]:
    """The CLI flags for the option fields of a request, checked against the
    spec; argparse checks the values again when the CLI runs."""
    argv: list[str] = []
    for name, raw in form.items():
        if name not in spec.fields:
            known = ", ".join(sorted(spec.fields))
            raise OptionError(f"unknown field {name!r}: this scorer takes {known}")
        opt = spec.fields[name]
        if opt.kind == "list":
            values = _values(raw)
            if not values:
                continue
        else:
            if len(raw) > 1:
                raise OptionError(f"field {name!r} given {len(raw)} times")
            values = [raw[0].strip()]
        for value in values:
            # A value never becomes another option of the command line.
            if value.startswith("-") and not _is_number(value):
                raise OptionError(f"field {name!r}: a value may not start with '-': {value!r}")
        if opt.choices is not None and opt.kind != "flag":
            for value in values:
                if value not in opt.choices and not (opt.kind == "optional" and value.lower() in TRUE | FALSE):
                    raise OptionError(f"field {name!r}: {value!r} is not one of {', '.join(opt.choices)}")
        if opt.kind == "flag":
            if _truth(name, values[0]):
                argv.append(opt.flag)
        elif opt.kind == "optional":
            lowered = values[0].lower()
            if lowered in TRUE:
                argv.append(opt.flag)
            elif lowered not in FALSE:
                argv += [opt.flag, values[0]]
        elif opt.kind == "list":
            argv += [opt.flag, *values]
        elif values[0]:
            argv += [opt.flag, values[0]]
    return argv
