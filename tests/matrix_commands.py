"""What the matrix test needs to hold every command to single pairs: folders
of datasets in each format (release names and gzip among them), the
single-pair runs they are compared with (each run once), the command line's
flags as the web service's fields, and the figures of a JSON answer."""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from pathlib import Path

from corefud_scorer.jobs.options import FIELDS

from conftest import run_cli
import matrix_files

# Each case: the files' format and how a dataset's file is named (kind ->
# file name); a name ending in .gz is written compressed.
CASES = {
    "corefud": ("corefud", lambda kind: f"{kind}.conllu"),
    "ua": ("ua", lambda kind: f"{kind}.ua.conllu"),
    "conll": ("conll", lambda kind: f"{kind}.conll"),
    "jsonlines": ("jsonlines", lambda kind: f"{kind}.jsonl"),
    # The CODI-CRAC release's names, one dataset plain and one compressed.
    "ua-release": ("ua", lambda kind: {"rich": "AMI_dev.CONLLUA"}.get(kind, f"light_{kind}.CONLLUA.gz")),
    "corefud-gz": ("corefud", lambda kind: f"{kind}-corefud-dev.conllu.gz"),
}
KINDS = ("rich", "plain")
SIDES = ("key", "copy", "sys")


@dataclass
class Folders:
    """One case's key folder and its two systems' (a perfect copy, a
    realistic response), and each dataset's file name."""

    fmt: str
    key: Path
    systems: dict[str, Path]
    files: dict[str, str]  # dataset name -> file name


def write_folders(root: Path, case: str, seed: int = 7) -> Folders:
    fmt, name = CASES[case]
    folders = {side: root / side for side in SIDES}
    for path in folders.values():
        path.mkdir(parents=True)
    files = {}
    for kind in KINDS:
        written = matrix_files.write_pair(root, fmt, kind, seed=seed)
        target = name(kind)
        for side, path in zip(SIDES, written):
            data = Path(path).read_bytes()
            Path(path).unlink()
            if target.lower().endswith(".gz"):
                data = gzip.compress(data, mtime=0)
            (folders[side] / target).write_bytes(data)
        files[dataset_of(target)] = target
    return Folders(fmt, folders["key"], {"sys": folders["sys"], "copy": folders["copy"]}, files)


def dataset_of(file_name: str) -> str:
    """The dataset bench names a file by."""
    from corefud_scorer.jobs.bench import dataset_name

    return dataset_name(file_name)


# --- runs and their outcomes ---

@dataclass
class Outcome:
    """A run's exit code, its JSON (when it succeeded) and its error line
    (when it refused), or what is wrong with how it ended."""

    code: int
    data: dict | None = None
    refusal: str | None = None
    broken: str | None = None


def outcome_of(code, out: str, err: str) -> Outcome:
    """0 and one JSON object, or 2 and one error line (after argparse's
    usage lines), nothing on stdout; anything else is broken."""
    if code == 0:
        try:
            return Outcome(0, json.loads(out))
        except ValueError:
            return Outcome(code, broken=f"not JSON: {out[:200]!r}")
    lines = [line for line in err.splitlines() if line.strip()]
    errors = [line for line in lines if "error:" in line]
    if code == 2 and not out and "Traceback" not in err and len(errors) == 1 \
            and (len(lines) == 1 or lines[0].startswith("usage:")):
        return Outcome(2, refusal=errors[0])
    return Outcome(code, broken=f"exit {code}, stdout {out[:200]!r}, stderr {err[-500:]!r}")


def run(*args) -> Outcome:
    result = run_cli(*args, "-q", "-j", "1") if args and args[0] != "validate" else run_cli(*args)
    return outcome_of(result.code, result.out, result.err)


class Pairs:
    """Single-pair runs (``--output json``), each made once."""

    def __init__(self):
        self.done: dict = {}

    def __call__(self, key: Path, *responses_and_flags) -> Outcome:
        """``(key, response, ..., flags)``: the responses scored against the key."""
        *responses, flags = responses_and_flags
        wanted = (str(key), *map(str, responses), tuple(flags))
        if wanted not in self.done:
            self.done[wanted] = run(key, *responses, *flags, "--output", "json")
        return self.done[wanted]


# --- the web service's fields ---

def _spellings() -> dict:
    out = {}
    for field in FIELDS.values():
        for spelling in field.flag.split("/"):
            out[spelling] = field
    return out


SPELLINGS = _spellings()


def fields_of(flags: list[str]) -> dict:
    """The command line's flags as the service's fields, as its form reader
    gives them (field name -> value)."""
    asked: dict = {}
    at = 0
    while at < len(flags):
        field = SPELLINGS[flags[at]]
        at += 1
        if field.kind == "flag":
            asked[field.name] = True
        elif field.kind == "choices":
            values = []
            while at < len(flags) and not flags[at].startswith("-"):
                values.append(flags[at])
                at += 1
            asked[field.name] = values
        elif field.kind in ("count", "number"):
            asked[field.name] = int(flags[at])
            at += 1
        else:
            asked[field.name] = flags[at]
            at += 1
    return asked


# --- figures ---

def figures(node, prefix: str = "", skip=("interval", "recall_interval", "precision_interval")) -> dict:
    """Every number (and null) under a JSON node by its path; intervals,
    which resampling gives, left out."""
    out = {}
    if isinstance(node, dict):
        for key, value in node.items():
            if key not in skip:
                out.update(figures(value, f"{prefix}.{key}" if prefix else key, skip))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            out.update(figures(value, f"{prefix}[{index}]", skip))
    elif node is None or (isinstance(node, (int, float)) and not isinstance(node, bool)):
        out[prefix] = node
    return out


def mean(values: list) -> float | None:
    """The macro-average of defined values, added in order, as bench adds them."""
    defined = [v for v in values if v is not None]
    return sum(defined) / len(defined) if defined else None
