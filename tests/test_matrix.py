"""The whole product against invariants that need no reference scorer.

Every format (CorefUD, UA, CoNLL-2012) and option set is run on a perfect
response (a byte copy of the key) and on a realistic one, on generated files
with zeros, entities of zeros only, discontinuous mentions, plurals, bridging,
non-referring markables, one-word documents, documents without entities and
empty documents (``matrix_files.py``). Whatever comes out must be either a
valid JSON score or one error line; every figure must be a fraction (a
coefficient in [-1, 1]); a perfect response must score 1 wherever there is
something to score; ``--errors``' baseline must be the score; a
``--confidence`` interval must hold its point value; the same annotation
must give the same figures in the three formats; a meaningless combination
must be refused before a file is read.

The default run takes a sample of the combinations in which every pair of
option values meets at least once. ``COREFUD_TESTS=long`` (``make test-long``)
runs the full cross product and the real GUM and CODI-CRAC files when they
are beside the project; the totals of runs and figures checked are printed
at the end.
"""

from __future__ import annotations

import gc
import itertools
import json
import math
import os
import random
import re
import sys
import traceback
from pathlib import Path

import pytest

from corefud_scorer.measures.registry import MEASURES
from corefud_scorer.results import CONLL_PARTS, EVERY_METRICS, Options, all_metrics, every_metric

from conftest import LONG, MATRIX_REFUSALS, MATRIX_TOTALS, ROOT, run_cli
import matrix_commands
import matrix_files

PEERS = ROOT.parent / "peers"
GUM = Path(os.environ.get("COREFUD_MATRIX_GUM", PEERS / "UD_English-GUM" / "en_gum-ud-dev.conllu"))
CODI = Path(os.environ.get("COREFUD_MATRIX_CODI", PEERS / "CODI-CRAC22-Corpus" / "AMI_dev_v2.2022.CONLLUA"))
EPS = 1e-9
FORMATS = ("corefud", "ua", "conll")
PRESET_METRICS = {"crac22": CONLL_PARTS, "crac23": CONLL_PARTS, "crac24": CONLL_PARTS + ("zero",),
                  "crac25": CONLL_PARTS + ("zero",), "crac26": CONLL_PARTS + ("zero",)}
# Resampling refuses them (the registry's ``resampled``).
COEFFICIENTS = {name for name, entry in MEASURES.items() if not entry.resampled}
# The metrics rebuilt by markable synchronisation (the mention-level ones are not).
CONTINGENCY = {name for name, entry in MEASURES.items() if entry.of_contingency}
# Measures whose statistics count mentions (or words): not all zero when the
# key has a mention.
MENTION_COUNTED = {"bcub", "ceafm", "mention", "mor", "bcub-entity", "bcub-sys", "ceaf-sys", "bcub-all",
                   "entropy", "alpha"}
ERROR_LINE = re.compile(r"^corefud-scorer: error: \S")
ARGPARSE_ERROR = re.compile(r"^corefud-scorer: error: ")


# --- what was checked, for the closing line ---

# Printed at the end by conftest, summed over the workers of a parallel run.
TOTALS = MATRIX_TOTALS
# The warnings that say a perfect response is not read as the identity: a span
# standing in two entities, or twice, is scored as the reference scorers score
# it (1.2's last-entity lookup, v8.01's ids), which the scorer keeps and says.
READ_AS_THE_REFERENCE_SCORERS = ("spans in more than one entity", "repeated mentions")
REFUSALS = MATRIX_REFUSALS


@pytest.fixture(scope="session", autouse=True)
def _frozen():
    # Udapi collects garbage after each read: without this, every read walks
    # the tens of thousands of collected test items of the long form.
    gc.freeze()
    yield
    gc.unfreeze()


# --- the option axes ---

MATCHES = {"corefud": ("exact", "partial", "head", "partial-craft"),
           "ua": ("exact", "partial", "head", "partial-craft"),
           "conll": ("exact", "partial-craft")}
PRESETS = ("crac22", "crac23", "crac24", "crac25", "crac26")
# UA files drop zeros unless --keep-zeros, so their zero methods go with it;
# CorefUD files always keep them; CoNLL-2012 files have none.
ZEROS = {"corefud": ((), ("-z", "linear"), ("-z", "dependent")),
         "ua": ((), ("--keep-zeros", "-z", "linear"), ("--keep-zeros", "-z", "dependent")),
         "conll": ((), ("--keep-zeros",))}
SPLITS = ((), ("-s",), ("-s", "-l"), ("-d",), ("--only-split-antecedent",))
SYNCS = (None, "intersection", "union", "key", "response", "all")
# The long form adds --per-doc to every run instead of running it alone.
EXTRAS = ((), ("--errors",), ("--confidence", "20")) + (() if LONG else (("--per-doc",),))
# -m every is every measure but the UA ones, which are asked for on their own.
METRIC_SETS = {"corefud": ("every", "bridging", "empty-nodes"),
               "ua": ("every", "all", "bridging", "non-referring", "zero", "empty-nodes"),
               "conll": ("every",)}


def axes(fmt: str) -> dict:
    return {"scheme": MATCHES[fmt], "zeros": ZEROS[fmt], "split": SPLITS, "sync": SYNCS,
            "extra": EXTRAS, "metrics": METRIC_SETS[fmt]}


def preset_axes(fmt: str) -> dict:
    """A preset fixes matching, singletons, zeros and metrics: what is left."""
    return {"scheme": PRESETS, "zeros": ((), ("--keep-zeros",)) if fmt == "ua" else ((),),
            "split": ((),), "sync": SYNCS, "extra": EXTRAS, "metrics": ("",)}


def _small(values: dict) -> dict:
    """The presets on the files other than ``rich``: the last one, alone and
    with --errors."""
    return {**values, "scheme": PRESETS[-1:], "sync": (None,), "extra": ((), ("--errors",))}


def pairwise(values: dict, seed: int) -> list[dict]:
    """Rows in which every pair of values of two axes appears at least once,
    built greedily (a few more rows than the least possible)."""
    names = list(values)
    uncovered = {(a, x, b, y) for a, b in itertools.combinations(names, 2)
                 for x in range(len(values[a])) for y in range(len(values[b]))}
    rng = random.Random(seed)
    rows = []
    while uncovered:
        a, x, b, y = min(uncovered)
        row = {a: x, b: y}
        for name in names:
            if name in row:
                continue
            best, gain = 0, -1
            for v in rng.sample(range(len(values[name])), len(values[name])):
                g = sum((p, row[p], name, v) in uncovered or (name, v, p, row[p]) in uncovered
                        for p in row)
                if g > gain:
                    best, gain = v, g
            row[name] = best
        for p, q in itertools.combinations(names, 2):
            uncovered.discard((p, row[p], q, row[q]))
        rows.append({name: values[name][row[name]] for name in names})
    return rows


def product(values: dict) -> list[dict]:
    names = list(values)
    return [dict(zip(names, combination)) for combination in itertools.product(*values.values())]


def flags_of(fmt: str, row: dict) -> list[str]:
    """The command line of a row. A preset fixes matching, singletons, zeros
    and metrics, so a preset row keeps only what does not contradict it."""
    preset = row["scheme"] in PRESETS
    flags: list[str] = []
    if preset:
        flags += ["-t", row["scheme"]]
        if "--keep-zeros" in row["zeros"]:
            flags.append("--keep-zeros")
    else:
        flags += ["-a", row["scheme"], *row["zeros"], *row["split"]]
        metrics = row["metrics"]
        if row["extra"] and row["extra"][0] == "--confidence" and metrics == "every":
            # Intervals are for recall and precision: every measure that has them.
            flags += ["-m", *[m for m in EVERY_METRICS if m not in COEFFICIENTS]]
        else:
            flags += ["-m", metrics]
    if row["sync"]:
        flags += ["--sync", row["sync"]]
    flags += list(row["extra"])
    if LONG and "--per-doc" not in flags:
        flags.append("--per-doc")
    return flags


def _flag_id(flags) -> str:
    return "+".join(f.lstrip("-") for f in " ".join(flags).replace("-z ", "z-").split(" "))


def row_id(fmt: str, row: dict) -> str:
    parts = [row["scheme"]]
    if row["scheme"] not in PRESETS:
        parts += [_flag_id(row["zeros"]) or "z-default", _flag_id(row["split"]) or "no-singletons",
                  "m-" + row["metrics"]]
    elif "--keep-zeros" in row["zeros"]:
        parts.append("keep-zeros")
    parts.append("sync-" + (row["sync"] or "none"))
    if row["extra"]:
        parts.append(row["extra"][0].lstrip("-"))
    return "-".join(parts)


# --- the files ---

@pytest.fixture(scope="session")
def files(tmp_path_factory):
    """(format, kind) -> (key, perfect response, realistic response), made
    on first use."""
    root = tmp_path_factory.mktemp("matrix")
    made: dict = {}

    def get(fmt: str, kind: str):
        if (fmt, kind) not in made:
            folder = root / f"{fmt}-{kind}"
            folder.mkdir()
            if kind == "bench":
                made[fmt, kind] = _bench_pair(folder, fmt)
            else:
                made[fmt, kind] = matrix_files.write_pair(folder, fmt, kind, seed=7)
        return made[fmt, kind]
    return get


def _bench_pair(folder: Path, fmt: str):
    """A pair made by the project's benchmark generators, whose responses
    err as systems err (zeros moved, heads changed, ...)."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        key, copy, response = (str(folder / f"bench.{n}{matrix_files.SUFFIX[fmt]}")
                               for n in ("key", "copy", "response"))
        if fmt == "corefud":
            import generate
            generate.write_pair(key, response, 3, docs=2, tokens_per_doc=150, split_ante=0.05,
                                bridge=0.05, discontinuous=0.2, zeros=0.06)
        elif fmt == "ua":
            import ua
            ua.write_pair(key, response, 300, 2, 3)
        else:
            import conll
            conll.write_pair(key, response, 2, 150, 3)
    finally:
        sys.path.remove(str(ROOT / "bench"))
    Path(copy).write_bytes(Path(key).read_bytes())
    return key, copy, response


# --- checking one run ---

def _number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _counts_values(counts) -> list[float]:
    if isinstance(counts, dict):
        return [v for c in counts.values() for v in _counts_values(c)]
    return [counts] if _number(counts) else []


class Check:
    """The problems found in one run's output, and how many figures were
    looked at."""

    def __init__(self, label: str, perfect: bool, split_antecedents: bool):
        self.label, self.perfect, self.split = label, perfect, split_antecedents
        self.problems: list[str] = []
        self.figures = 0

    def fail(self, where: str, message: str) -> None:
        self.problems.append(f"{where}: {message}")

    def fraction(self, where: str, value, low: float = 0.0) -> bool:
        """A figure in [low, 1] (None allowed here, judged by the caller)."""
        self.figures += 1
        if value is None:
            return True
        if not _number(value) or math.isnan(value) or math.isinf(value):
            self.fail(where, f"{value!r} is not a number")
            return False
        if not (low - EPS <= value <= 1 + EPS):
            self.fail(where, f"{value!r} outside [{low:g}, 1]")
            return False
        return True

    def score(self, where: str, name: str, figure: dict) -> None:
        """A recall/precision/F1 figure: fractions, null only when nothing was
        counted, 1 on a perfect response where something was counted."""
        counted = any(v != 0 for v in _counts_values(figure.get("counts", {})))
        for field in ("recall", "precision", "f1"):
            value = figure.get(field)
            self.fraction(f"{where}.{field}", value)
            if value is None and counted and not (name == "mor" and self.split):
                self.fail(f"{where}.{field}", "null although its statistics are not all zero "
                          f"({figure.get('counts')})")
            if self.perfect and counted and value is not None and abs(value - 1) > EPS:
                self.fail(f"{where}.{field}", f"{value!r} on a perfect response (counts {figure.get('counts')})")
            if self.perfect and counted and value is None and not (name == "mor" and self.split):
                self.fail(f"{where}.{field}", "null on a perfect response")
        for part, sub in (figure.get("parts") or {}).items():
            if isinstance(sub, dict):
                self.score(f"{where}.parts.{part}", name, sub)
        for field, point in (("interval", "f1"), ("recall_interval", "recall"),
                             ("precision_interval", "precision")):
            interval = figure.get(field)
            if interval is None:
                continue
            low, high = interval
            self.fraction(f"{where}.{field}[0]", low)
            self.fraction(f"{where}.{field}[1]", high)
            value = figure.get(point)
            if value is not None and low is not None and high is not None and \
                    not (low - EPS <= value <= high + EPS):
                self.fail(f"{where}.{field}", f"[{low!r}, {high!r}] does not hold {point} {value!r}")

    def coefficient(self, where: str, figure: dict) -> None:
        value = figure.get("value")
        self.fraction(f"{where}.value", value, low=-1.0)
        counted = any(v != 0 for v in _counts_values(figure.get("counts", {})))
        if self.perfect and counted and value is not None and abs(value - 1) > EPS:
            self.fail(f"{where}.value", f"{value!r} on a perfect response (counts {figure.get('counts')})")

    def metrics(self, where: str, block: dict) -> None:
        for name, figure in block.items():
            at = f"{where}.{name}"
            if not isinstance(figure, dict):
                self.fail(at, f"not an object: {figure!r}")
            elif name == "conll":
                self.conll(at, figure, block)
            elif "value" in figure:
                self.coefficient(at, figure)
            else:
                self.score(at, name, figure)
            if isinstance(figure, dict) and "variation_of_information" in figure:
                vi = figure["variation_of_information"]
                self.figures += 1
                if vi is not None and (not _number(vi) or math.isnan(vi) or vi < -EPS):
                    self.fail(f"{at}.variation_of_information", f"{vi!r}")

    def conll(self, where: str, figure: dict, block: dict) -> None:
        self.fraction(f"{where}.f1", figure.get("f1"))
        parts = figure.get("parts") or {}
        for part, value in parts.items():
            self.fraction(f"{where}.parts.{part}", value)
            if part in block and block[part].get("f1") is not None and value is not None \
                    and abs(block[part]["f1"] - value) > EPS:
                self.fail(f"{where}.parts.{part}", f"{value!r} but {part} F1 is {block[part]['f1']!r}")
        values = [v for v in parts.values() if v is not None]
        if figure.get("f1") is not None and len(values) == 3 and abs(sum(values) / 3 - figure["f1"]) > EPS:
            self.fail(f"{where}.f1", f"{figure['f1']!r} is not the mean of {values}")
        if self.perfect and figure.get("f1") is not None and all(
                any(v != 0 for v in _counts_values(block.get(p, {}).get("counts", {}))) for p in CONLL_PARTS) \
                and abs(figure["f1"] - 1) > EPS:
            self.fail(f"{where}.f1", f"{figure['f1']!r} on a perfect response")

    def walk(self, where: str, node) -> None:
        """Every block of metrics, wherever it stands (top level, each
        synchronisation, each document)."""
        if isinstance(node, dict):
            for key, value in node.items():
                at = f"{where}.{key}" if where else key
                if key in ("settings", "errors"):
                    continue
                if key == "metrics" and isinstance(value, dict):
                    self.metrics(at, value)
                elif key == "mention_identification" and isinstance(value, dict):
                    for field in ("recall", "precision", "f1"):
                        self.fraction(f"{at}.{field}", value.get(field))
                else:
                    self.walk(at, value)
        elif isinstance(node, list):
            for i, item in enumerate(node):
                label = item.get("document", i) if isinstance(item, dict) else i
                self.walk(f"{where}[{label}]", item)


def expected_metrics(fmt: str, flags: list[str]) -> set[str]:
    if "-t" in flags:
        names = set(PRESET_METRICS[flags[flags.index("-t") + 1]])
    elif "-m" in flags:
        i = flags.index("-m") + 1
        names = set()
        while i < len(flags) and not flags[i].startswith("-"):
            name = flags[i]
            names |= set(every_metric(fmt) if name == "every" else
                         all_metrics(fmt) if name == "all" else (name,))
            i += 1
    else:
        names = set(Options(format=fmt).metric_list)  # the format's default
    if set(CONLL_PARTS) <= names:
        names.add("conll")
    return names


def check_run(label: str, fmt: str, flags: list[str], args: list, perfect: bool):
    """Run the command line in-process and check everything it printed;
    the check and the JSON (None unless the run succeeded)."""
    split = any(f in flags for f in ("-l", "-d", "--only-split-antecedent"))
    check = Check(label, perfect, split)
    TOTALS["runs"] += 1
    try:
        run = run_cli(*args, *flags, "--output", "json", "-q", "-j", "1")
    except BaseException as error:  # noqa: BLE001 - a crash is what is looked for
        if isinstance(error, KeyboardInterrupt):
            raise
        frame = traceback.extract_tb(error.__traceback__)[-1]
        where = f"{Path(frame.filename).parent.name}/{Path(frame.filename).name}:{frame.lineno} in {frame.name}"
        check.fail("run", f"raised {type(error).__name__}: {error} (at {where})")
        return check, None
    if run.code == 2:
        lines = [line for line in run.err.splitlines() if line.strip()]
        errors = [line for line in lines if "error:" in line]
        usage = lines and lines[0].startswith("usage:")
        if "Traceback" in run.err:
            check.fail("stderr", "traceback with exit 2")
        elif len(errors) != 1 or not ERROR_LINE.match(errors[0]):
            check.fail("stderr", f"exit 2 without exactly one error line: {run.err!r}")
        elif not usage and len(lines) != 1:
            check.fail("stderr", f"exit 2 with more than the error line: {run.err!r}")
        elif run.out:
            check.fail("stdout", f"exit 2 with output on stdout: {run.out[:200]!r}")
        TOTALS["refused"] += 1
        if errors:
            REFUSALS[re.sub(r"\S*/\S*", "FILE", errors[0])[:150]] += 1
        return check, None
    if run.code != 0:
        check.fail("exit", f"code {run.code!r}, stderr {run.err[-500:]!r}")
        return check, None
    if "Traceback" in run.err:
        check.fail("stderr", f"traceback: {run.err[-500:]!r}")
    try:
        data = json.loads(run.out)
    except ValueError as error:
        check.fail("stdout", f"not JSON ({error}): {run.out[:200]!r}")
        return check, None
    if perfect and any(said in warning for warning in data.get("warnings", ())
                       for said in READ_AS_THE_REFERENCE_SCORERS):
        check.perfect = False
        TOTALS["explained"] += 1
    check.walk("", data)
    wanted = expected_metrics(fmt, flags)
    if perfect and data.get("key_mentions") and not any(f in flags for f in ("-d", "--only-split-antecedent")):
        # A figure left at 0 for want of statistics is as wrong as a bad one.
        for name in MENTION_COUNTED & set(data.get("metrics", {})):
            if name == "mor" and split:
                continue
            if not any(v != 0 for v in _counts_values(data["metrics"][name].get("counts", {}))):
                check.fail(f"metrics.{name}", f"nothing counted although the key has {data['key_mentions']} "
                           f"mentions: {data['metrics'][name]}")
    missing = wanted - set(data.get("metrics", {}))
    if missing:
        check.fail("metrics", f"asked for but absent: {sorted(missing)}")
    sync = flags[flags.index("--sync") + 1] if "--sync" in flags else None
    if sync and data.get("settings", {}).get("sync") != sync:
        check.fail("settings.sync", f"{data.get('settings', {}).get('sync')!r}, asked for {sync!r}")
    if sync == "all":
        sets = data.get("synchronisation") or {}
        for name in ("intersection", "union", "key", "response"):
            got = set((sets.get(name) or {}).get("metrics", {}))
            lacking = (wanted & CONTINGENCY) - got
            if lacking:
                check.fail(f"synchronisation.{name}", f"lacks {sorted(lacking)}")
        if "mention_identification" not in data:
            check.fail("mention_identification", "absent with --sync all")
    if "--confidence" in flags:
        for name, figure in data.get("metrics", {}).items():
            if name != "conll" and figure.get("f1") is not None and "interval" not in figure:
                check.fail(f"metrics.{name}", "no interval with --confidence")
    if "--errors" in flags:
        check_errors(check, data)
    return check, data


def check_errors(check: Check, data: dict) -> None:
    errors = data.get("errors")
    if not isinstance(errors, dict):
        check.fail("errors", "absent with --errors")
        return
    baseline = errors.get("cost", {}).get("baseline", {})
    metrics = data.get("metrics", {})
    for name, value in baseline.items():
        check.fraction(f"errors.cost.baseline.{name}", value)
        figure = metrics.get(name)
        if figure is None:
            if value is not None:
                check.fail(f"errors.cost.baseline.{name}", f"{value!r} for a metric the score does not have")
            continue
        point = figure.get("f1", figure.get("value"))
        if "value" in figure and value is None:
            continue  # a coefficient has no F1
        if (value is None) != (point is None) or (value is not None and abs(value - point) > EPS):
            check.fail(f"errors.cost.baseline.{name}", f"{value!r} but the score's F1 is {point!r}")
    for name in metrics:
        if name not in baseline:
            check.fail("errors.cost.baseline", f"no {name}")
    for stage in ("alone", "cumulative"):
        for category, scores in (errors.get("cost", {}).get(stage) or {}).items():
            for name, value in scores.items():
                check.fraction(f"errors.cost.{stage}.{category}.{name}", value)
    if check.perfect:
        found = {k: v for k, v in errors.get("counts", {}).items() if v}
        if found:
            check.fail("errors.counts", f"errors found in a perfect response: {found}")
        for row in errors.get("per_document") or []:
            found = {k: v for k, v in row.get("counts", {}).items() if v}
            if found:
                check.fail(f"errors.per_document[{row.get('document')}]", f"errors in a perfect response: {found}")


def assert_clean(check: Check) -> None:
    TOTALS["figures"] += check.figures
    assert not check.problems, f"{check.label}:\n  " + "\n  ".join(check.problems[:40]) + (
        f"\n  ... {len(check.problems) - 40} more" if len(check.problems) > 40 else "")


# --- the matrix ---

def _cases():
    """(id, format, kind, flags) for each run; both responses of each."""
    cases = []
    for fmt in FORMATS:
        sets = [axes(fmt)] + ([preset_axes(fmt)] if fmt != "conll" else [])
        if LONG:
            rich = [row for values in sets for row in product(values)]
            small = [row for values in sets for row in pairwise(values, seed=2)]
        else:
            rich = [row for values in sets for row in pairwise(values, seed=1)]
            small = [row for values in sets for row in
                     pairwise(values if values["scheme"] != PRESETS else _small(values), seed=3)]
        for kind in matrix_files.KINDS + ("bench",):
            for row in (rich if kind == "rich" else small):
                cases.append((f"{fmt}-{kind}-{row_id(fmt, row)}", fmt, kind, flags_of(fmt, row)))
    return cases


CASES = _cases()


@pytest.mark.parametrize("response", ["perfect", "realistic"])
@pytest.mark.parametrize("fmt,kind,flags", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_matrix(files, fmt, kind, flags, response):
    key, copy, system = files(fmt, kind)
    perfect = response == "perfect"
    check, _ = check_run(f"{fmt} {kind} {response}: corefud-scorer KEY SYS {' '.join(flags)}",
                         fmt, flags, [key, copy if perfect else system], perfect)
    assert_clean(check)


@pytest.mark.parametrize("fmt", FORMATS)
def test_generated_files_are_scored(files, fmt):
    """The matrix is only worth something if its files are read: the plain
    call succeeds on every kind but the empty document (which a format may
    refuse) and counts mentions."""
    for kind in matrix_files.KINDS + ("bench",):
        key, copy, system = files(fmt, kind)
        for response in (copy, system):
            zeros = ["--keep-zeros"] if fmt == "ua" else []
            run = run_cli(key, response, "-s", "-a", "exact", *zeros, "--output", "json", "-q", "-j", "1")
            if kind == "empty-doc" and run.code == 2:
                continue
            assert run.code == 0, (fmt, kind, run.err)
            data = run.json
            assert data["documents"] >= 1
            if kind not in ("no-entity",) and not (fmt == "conll" and kind == "zeros"):
                assert data["key_mentions"] > 0, (fmt, kind)


# --- the same annotation in three formats ---

def _figures(block: dict, prefix: str = "") -> dict:
    out = {}
    for name, figure in block.items():
        if not isinstance(figure, dict):
            continue
        for field in ("recall", "precision", "f1", "value"):
            if field in figure:
                out[f"{prefix}{name}.{field}"] = figure[field]
        for part, sub in (figure.get("parts") or {}).items():
            if isinstance(sub, dict):
                out.update(_figures({f"{name}.{part}": sub}, prefix))
            else:
                out[f"{prefix}{name}.parts.{part}"] = sub
    return out


@pytest.mark.parametrize("sync", SYNCS, ids=[f"sync-{s or 'none'}" for s in SYNCS])
@pytest.mark.parametrize("response", ["perfect", "realistic"])
def test_same_annotation_same_figures(tmp_path, response, sync):
    """One annotation (contiguous word mentions, singletons kept, each span in
    one entity) written as CorefUD, UA, CoNLL-2012 and jsonlines gives the
    same figure for every measure they all compute."""
    seeds = range(1, 7) if LONG else range(1, 3)
    problems = []
    for seed in seeds:
        outputs = {}
        for fmt in (*FORMATS, "jsonlines"):
            key, copy, system = matrix_files.write_pair(tmp_path, fmt, "plain", seed=seed)
            flags = ["-a", "exact", "-s", "-m", "every", "--per-doc"] + (["--sync", sync] if sync else [])
            check, data = check_run(f"{fmt} plain seed {seed} {response}", fmt, flags,
                                    [key, copy if response == "perfect" else system], response == "perfect")
            TOTALS["figures"] += check.figures
            # The other invariants are reported too, after the comparison.
            problems += [f"seed {seed}, {fmt}: {p}" for p in check.problems]
            if data is None:
                problems.append(f"seed {seed}, {fmt}: no score to compare")
                continue
            figures = _figures(data["metrics"])
            for name, sets in (data.get("synchronisation") or {}).items():
                figures.update(_figures(sets["metrics"], f"sync-{name}:"))
            for i, row in enumerate(data.get("per_document") or []):
                figures.update(_figures(row["metrics"], f"doc{i}:"))
            outputs[fmt] = figures
        if len(outputs) < 2:
            continue
        common = set.intersection(*(set(f) for f in outputs.values()))
        assert any(name.startswith("muc.") for name in common)
        for name in sorted(common):
            values = [outputs[fmt][name] for fmt in outputs]
            if any(v is None for v in values) and not all(v is None for v in values) or \
                    all(v is not None for v in values) and max(values) - min(values) > EPS:
                problems.insert(0, f"seed {seed}, {name}: "
                                + ", ".join(f"{fmt} {outputs[fmt][name]!r}" for fmt in outputs))
    assert not problems, f"{response}:\n  " + "\n  ".join(problems[:60]) + (
        f"\n  ... {len(problems) - 60} more" if len(problems) > 60 else "")


# --- meaningless combinations, refused before any file is read ---

REFUSED = [
    ("conll-head", ["--format", "conll", "-a", "head"], "head"),
    ("conll-partial", ["--format", "conll", "-a", "partial"], "partial"),
    ("conll-preset", ["--format", "conll", "-t", "crac24"], "CoNLL"),
    ("alpha-confidence", ["-m", "alpha", "--confidence", "20"], "alpha"),
    ("kappa-confidence", ["-m", "muc", "kappa", "--confidence", "20"], "kappa"),
    ("conll-partial-craft", ["--format", "conll", "-a", "partial-craft"], "partial-craft"),
    ("conll-split-antecedents", ["--format", "conll", "-s", "-l"], "split antecedents"),
    ("conll-bridging", ["--format", "conll", "-m", "bridging"], "bridging"),
    ("conll-empty-nodes", ["--format", "conll", "-m", "empty-nodes"], "empty nodes"),
    ("corefud-discourse-deixis", ["--format", "corefud", "-d"], "discourse-deixis"),
    ("ua-np-only", ["--format", "ua", "--np-only"], "np-only"),
    ("sync-split-antecedents", ["-s", "-l", "--sync", "union"], "split antecedents"),
    ("every-confidence", ["-m", "every", "--confidence", "20"], "alpha"),
    ("sync-all-confidence", ["--sync", "all", "--confidence", "20"], "sync"),
    ("errors-confidence", ["--errors", "--confidence", "20"], "errors"),
    ("split-without-singletons", ["-l"], "-s"),
    ("preset-contradicted", ["-t", "crac24", "-a", "exact"], "crac24"),
    ("paired-one-system", ["--paired-bs", "20"], "paired"),
]


@pytest.mark.parametrize("flags,word", [r[1:] for r in REFUSED], ids=[r[0] for r in REFUSED])
def test_meaningless_combination_refused(tmp_path, flags, word):
    missing_key, missing_sys = tmp_path / "absent-key.conllu", tmp_path / "absent-sys.conllu"
    run = run_cli(missing_key, missing_sys, *flags, "--output", "json")
    TOTALS["runs"] += 1
    lines = [line for line in run.err.splitlines() if line.strip()]
    errors = [line for line in lines if "error:" in line]
    assert run.code == 2, (run.code, run.err)
    assert "Traceback" not in run.err
    assert len(errors) == 1, run.err
    assert ARGPARSE_ERROR.match(errors[0]), run.err
    assert "absent-" not in errors[0], f"a file was looked at before the refusal: {errors[0]}"
    assert word.lower() in errors[0].lower(), errors[0]
    assert run.out == ""


@pytest.mark.parametrize("match", ["head", "partial"])
def test_head_matching_refused_on_detected_conll(files, match):
    """Detected from the files, not only when told: the format has no heads."""
    key, copy, _ = files("conll", "plain")
    run = run_cli(key, copy, "-a", match, "--output", "json")
    TOTALS["runs"] += 1
    errors = [line for line in run.err.splitlines() if "error:" in line]
    assert run.code == 2 and len(errors) == 1 and "head" in errors[0], run.err
    assert run.out == ""


# --- real annotation (long form) ---

OPENING = re.compile(r"\(EntityID=([^|)]+)\|MarkableID=([^|)]+)[^()]*\)?")


def _ua_response(text: str, seed: int) -> str:
    """A UA response made at the text level: some one-token markables dropped
    and some markables moved to another entity, each only where its entity
    keeps another markable (neither a plural named by an ElementOf, a
    bridging anchor nor a discontinuous markable is touched, so the file
    stays valid)."""
    rng = random.Random(seed)
    lines = text.split("\n")
    columns = next(line.split("=", 1)[1].split() for line in lines if line.startswith("# global.columns"))
    column = columns.index("IDENTITY")
    cells = [line.split() if line and not line.startswith("#") else None for line in lines]
    protected = set(re.findall(r"MentionAnchor=([^|)]+)", text))
    plurals = {x for group in re.findall(r"ElementOf=([^|)]+)", text) for x in group.split(",")}
    openings: dict = {}
    members: dict = {}
    for row in cells:
        if row and len(row) > column:
            for entity, mid in OPENING.findall(row[column]):
                openings[mid] = openings.get(mid, 0) + 1
                members.setdefault(entity, set()).add(mid)
    entities = sorted(e for e in members if not e.endswith("-Pseudo") and e not in plurals)

    def change(found):
        whole, entity, mid = found.group(0), found.group(1), found.group(2)
        if mid in protected or openings[mid] > 1 or entity in plurals or entity.endswith("-Pseudo") \
                or len(members[entity]) < 2:
            return whole
        r = rng.random()
        if r < 0.15 and whole.endswith(")"):
            members[entity].discard(mid)
            return ""
        if r < 0.35:
            target = rng.choice(entities)
            members[entity].discard(mid)
            members[target].add(mid)
            return whole.replace(f"EntityID={entity}|", f"EntityID={target}|", 1)
        return whole

    for i, row in enumerate(cells):
        if row and len(row) > column and row[column] != "_":
            changed = OPENING.sub(change, row[column])
            if changed != row[column]:
                row[column] = changed or "_"
                lines[i] = "\t".join(row)
    return "\n".join(lines)


@pytest.fixture(scope="session")
def real_files(tmp_path_factory):
    root = tmp_path_factory.mktemp("real")
    made: dict = {}

    def get(name: str):
        if name in made:
            return made[name]
        if name == "gum":
            if not GUM.is_file() or not os.access(GUM, os.R_OK):
                pytest.skip(f"{GUM} absent")
            sys.path.insert(0, str(ROOT / "tools"))
            try:
                import perturb
                response = root / "gum.response.conllu"
                assert perturb.main([str(GUM), str(response), "--seed", "1", "-q",
                                     "--rate", "gap=0.05", "--rate", "dup=0.02"]) == 0
            finally:
                sys.path.remove(str(ROOT / "tools"))
            made[name] = (str(GUM), str(GUM), str(response))
        else:
            if not CODI.is_file() or not os.access(CODI, os.R_OK):
                pytest.skip(f"{CODI} absent")
            response = root / "codi.response.conllu"
            response.write_text(_ua_response(CODI.read_text(encoding="utf-8"), 1), encoding="utf-8")
            made[name] = (str(CODI), str(CODI), str(response))
        return made[name]
    return get


# Real files take seconds a run: one row per option that changes what is
# read or how it is scored, rather than the whole product.
REAL_ROWS = (
    {"scheme": "head", "zeros": (), "split": (), "sync": None, "extra": (), "metrics": "every"},
    {"scheme": "exact", "zeros": (), "split": ("-s", "-l"), "sync": "all", "extra": (), "metrics": "every"},
    {"scheme": "partial", "zeros": (), "split": ("-s",), "sync": "intersection", "extra": ("--errors",),
     "metrics": "every"},
    {"scheme": "partial-craft", "zeros": (), "split": ("--only-split-antecedent",), "sync": "union",
     "extra": (), "metrics": "every"},
    {"scheme": "head", "zeros": (), "split": ("-s",), "sync": None, "extra": ("--confidence", "20"),
     "metrics": "every"},
    {"scheme": "exact", "zeros": (), "split": ("-s", "-l"), "sync": None, "extra": ("--errors",),
     "metrics": "every"},
    {"scheme": "exact", "zeros": (), "split": ("-s",), "sync": None, "extra": (), "metrics": "bridging"},
    {"scheme": "crac24", "zeros": (), "split": (), "sync": None, "extra": (), "metrics": ""},
)


def _real_cases():
    if not LONG:
        return []
    cases = []
    for name, fmt, extra_rows in (
            ("gum", "corefud", [{"zeros": ("-z", "linear")}]),
            ("codi", "ua", [{"zeros": ("--keep-zeros", "-z", "dependent")}, {"metrics": "all"},
                            {"metrics": "non-referring"}, {"metrics": "zero", "split": ("-d",)}])):
        rows = list(REAL_ROWS) + [{**REAL_ROWS[0], **extra} for extra in extra_rows]
        for row in rows:
            cases.append((f"{name}-{row_id(fmt, row)}", name, fmt, flags_of(fmt, row)))
    return cases


REAL = _real_cases()


@pytest.mark.skipif(not LONG, reason="the long form only (make test-long)")
@pytest.mark.parametrize("response", ["perfect", "realistic"])
@pytest.mark.parametrize("name,fmt,flags", [c[1:] for c in REAL] or [("gum", "corefud", [])],
                         ids=[c[0] for c in REAL] or ["none"])
def test_matrix_real(real_files, name, fmt, flags, response):
    key, copy, system = real_files(name)
    perfect = response == "perfect"
    # As the command does (memory.manage): automatic collection walks the
    # whole of a large document again and again while it is read.
    gc.disable()
    try:
        check, _ = check_run(f"{name} {response}: corefud-scorer KEY SYS {' '.join(flags)}", fmt, flags,
                             [key, copy if perfect else system], perfect)
    finally:
        gc.enable()
        gc.collect()
    assert_clean(check)


# --- every command against single pairs ---
#
# bench (one system or two), bench --leaderboard, validate, the error
# analysis (``errors``) and the web service's scoring function, each on
# folders of every format (release names and gzip files among them), under
# the option sets it takes: either its figures equal those of the single
# pairs of the same files, to the bit, or it refuses in one line, as the
# pair does.

COMMAND_CASES = tuple(matrix_commands.CASES)
PAIRS = matrix_commands.Pairs()
# What bench refuses on its own: --sync all prints one pair's four score sets.
BENCH_ONLY_REFUSALS = ("--sync all prints one pair of files' four score sets",)
# The leaderboard's own columns: partial-craft has none.
LEADERBOARD_ONLY_REFUSALS = ("--leaderboard: its columns are head, partial and exact matching",
                             "so no column of the results table")


@pytest.fixture(scope="session")
def case_folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("commands")
    made: dict = {}

    def get(case: str) -> matrix_commands.Folders:
        if case not in made:
            made[case] = matrix_commands.write_folders(root / case, case)
        return made[case]
    return get


def _axes_format(fmt: str) -> str:
    """The matrix's axes of a format: jsonlines files hold what CoNLL-2012 files hold."""
    return "conll" if fmt == "jsonlines" else fmt


def _command_axes(command: str, fmt: str) -> list[dict]:
    """The option axes a command takes, with the presets' own."""
    fmt = _axes_format(fmt)
    extras = {"bench": ((), ("--confidence", "20"), ("--per-doc",)), "errors": ((),),
              "web": ((), ("--errors",), ("--confidence", "20"), ("--per-doc",))}[command]
    sets = [{**axes(fmt), "extra": extras}] + ([{**preset_axes(fmt), "extra": extras}] if fmt != "conll" else [])
    if command != "errors":
        sets = [{**values, "systems": (1, 2)} for values in sets]
    return sets


def _leaderboard_rows(fmt: str) -> list[dict]:
    fmt = _axes_format(fmt)
    schemes = MATCHES[fmt] + (PRESETS if fmt != "conll" else ())
    return [{"scheme": s, "zeros": z, "metrics": m} for s in schemes for z in ZEROS[fmt]
            for m in ((), ("-m", "mention"), ("-m", "lea", "zero"), ("-m", "every"))]


def _command_cases():
    """(id, command, case, row) for each run: every all-pairs row under
    COREFUD_TESTS=long, a few per command and case in the sample."""
    cases = []
    for c, case in enumerate(COMMAND_CASES):
        fmt = matrix_commands.CASES[case][0]
        for command in ("bench", "errors", "web"):
            rows = [row for values in _command_axes(command, fmt) for row in pairwise(values, seed=5 + c)]
            if not LONG:
                rows = rows[c % 3::len(rows) // 3 + 1]
            # The format's defaults: no -a, -m or preset.
            rows = [{"scheme": None, "systems": 1 + c % 2}] + rows
            cases += [(f"{command}-{case}-{i}", command, case, row) for i, row in enumerate(rows)]
        rows = _leaderboard_rows(fmt)
        if not LONG:
            rows = rows[c::len(rows) // 2 + 1]
        rows = [{"scheme": None, "zeros": (), "metrics": ()}] + rows
        cases += [(f"leaderboard-{case}-{i}", "leaderboard", case, row) for i, row in enumerate(rows)]
        for i, row in enumerate(VALIDATE_ROWS if LONG else VALIDATE_ROWS[c % 2::3]):
            cases.append((f"validate-{case}-{i}", "validate", case, row))
    return cases


VALIDATE_ROWS = [{"flags": flags, "system": system} for system in ("sys", "copy")
                 for flags in ((), ("--no-form-check",), ("--form-check",), ("--format", "ua"))]
COMMAND_RUNS = _command_cases()


def _flags(fmt: str, row: dict) -> list[str]:
    """A row's flags: flags_of's, without the --per-doc the long form adds to pairs."""
    if row["scheme"] is None:
        return []
    flags = flags_of(_axes_format(fmt), row)
    if LONG and "--per-doc" not in row["extra"]:
        flags.remove("--per-doc")
    return flags


class Agreement:
    """A command's run held to single pairs: its problems and the figures compared."""

    def __init__(self, label: str):
        self.label, self.problems, self.figures = label, [], 0

    def same(self, where: str, got: dict, expected: dict) -> None:
        self.figures += len(expected)
        if got != expected:
            wrong = sorted(k for k in set(got) | set(expected) if got.get(k, "absent") != expected.get(k, "absent"))
            self.problems.append(f"{where}: {len(wrong)} figures differ, e.g. "
                                 + "; ".join(f"{k}: {got.get(k, 'absent')!r} != {expected.get(k, 'absent')!r}"
                                             for k in wrong[:4]))

    def outcomes(self, where: str, got, expected, own: tuple = ()) -> bool:
        """Both succeeded (True), or both refused in one line, or the command
        refused by a rule of its own (``own``)."""
        for name, o in (("command", got), ("pair", expected)):
            if o.broken:
                self.problems.append(f"{where}: the {name} ended badly: {o.broken}")
                return False
        if got.refusal and (expected.refusal or any(rule in got.refusal for rule in own)):
            TOTALS["command_refused"] += 1
            REFUSALS[re.sub(r"\S*/\S*", "FILE", got.refusal)[:150]] += 1
            return False
        if got.refusal or expected.refusal:
            self.problems.append(f"{where}: the command {'refused: ' + got.refusal if got.refusal else 'scored'} "
                                 f"but the pair {'refused: ' + expected.refusal if expected.refusal else 'scored'}")
            return False
        return True

    def scored(self, where: str, outcome) -> bool:
        """A single pair the command's figures are compared with scored."""
        if outcome.code != 0:
            self.problems.append(f"{where}: the pair did not score: {outcome.refusal or outcome.broken}")
        return outcome.code == 0

    def done(self) -> None:
        TOTALS["command_runs"] += 1
        TOTALS["command_figures"] += self.figures
        assert not self.problems, f"{self.label}:\n  " + "\n  ".join(self.problems[:20])


def _metrics(data: dict) -> dict:
    return matrix_commands.figures(data["metrics"])


def check_bench(agreement, folders, flags, systems):
    names = ["sys", "copy"][:systems]
    got = matrix_commands.run("bench", folders.key, *[folders.systems[n] for n in names],
                              "--names", ",".join(names), *flags, "--output", "json")
    pairs = {d: PAIRS(folders.key / f, *[folders.systems[n] / f for n in names], flags)
             for d, f in folders.files.items()}
    for dataset, pair in pairs.items():
        if not agreement.outcomes(dataset, got, pair, BENCH_ONLY_REFUSALS):
            return
    entries = got.data["systems"] if systems > 1 else [got.data]
    for s, (name, entry) in enumerate(zip(names, entries)):
        singles = {d: (pair.data["systems"][s] if systems > 1 or "systems" in pair.data else pair.data)
                   for d, pair in pairs.items()}
        for dataset in entry["datasets"]:
            agreement.same(f"{name} {dataset['dataset']}", _metrics(dataset), _metrics(singles[dataset["dataset"]]))
        for row in entry.get("per_document") or []:
            single = next(r for r in singles[row["dataset"]]["per_document"] if r["document"] == row["document"])
            agreement.same(f"{name} {row['dataset']} {row['document']}", _metrics(row), _metrics(single))
        expected = {}
        for metric, figure in entry["macro"]["metrics"].items():
            scores = [singles[d]["metrics"][metric] for d in folders.files]
            if metric == "conll":
                expected[f"{metric}.f1"] = matrix_commands.mean([x["f1"] for x in scores])
                continue
            used = [x for x in scores if x.get("recall") is not None or x.get("value") is not None]
            for field in ("recall", "precision", "f1", "value"):
                if field in figure:
                    expected[f"{metric}.{field}"] = matrix_commands.mean([x[field] for x in used]) if used else None
        macro = {f"{m}.{k}": v for m, figure in entry["macro"]["metrics"].items() for k, v in figure.items()
                 if k in ("recall", "precision", "f1", "value")}
        agreement.same(f"{name} macro-average", macro, expected)


def check_error_analysis(agreement, folders, flags):
    for dataset, file in folders.files.items():
        for name, folder in folders.systems.items():
            got = matrix_commands.run("errors", folders.key / file, folder / file, *flags, "--output", "json")
            pair = PAIRS(folders.key / file, folder / file, [*flags, "--errors"])
            if agreement.outcomes(f"{name} {dataset}", got, pair):
                agreement.same(f"{name} {dataset} errors", matrix_commands.figures(got.data["errors"]),
                               matrix_commands.figures(pair.data["errors"]))


def check_web(agreement, folders, flags, systems):
    from corefud_scorer.cli.names import short_names
    from corefud_scorer.web.runner import score_request
    from corefud_scorer.web.upload import Upload

    for dataset, file in folders.files.items():
        paths = [folders.systems[n] / file for n in ("sys", "copy")[:systems]]
        names = short_names([str(p) for p in paths])
        answer = score_request(Upload("key", 0, str(folders.key / file), file),
                               [Upload("responses", i, str(p), n) for i, (p, n) in enumerate(zip(paths, names))],
                               matrix_commands.fields_of(flags))
        got = (matrix_commands.Outcome(0, json.loads(answer.text)) if answer.status == 200 else
               matrix_commands.Outcome(2, refusal=f"error: {answer.text}") if "\n" not in answer.text else
               matrix_commands.Outcome(answer.status, broken=answer.text))
        pair = PAIRS(folders.key / file, *paths, flags)
        if agreement.outcomes(dataset, got, pair):
            strip = lambda data: {k: v for k, v in matrix_commands.figures(data).items()  # noqa: E731
                                  if "settings" not in k and "warnings" not in k}
            agreement.same(dataset, strip(got.data), strip(pair.data))


def check_leaderboard(agreement, folders, row):
    preset = row["scheme"] in PRESETS
    base = (["-t", row["scheme"]] if preset else ["-a", row["scheme"]] if row["scheme"] else []) + list(row["zeros"])
    got = matrix_commands.run("bench", folders.key, folders.systems["sys"], folders.systems["copy"],
                              "--names", "sys,copy", "--leaderboard", "--paired-bs", "20", *base, *row["metrics"],
                              "--output", "json")
    probe = PAIRS(folders.key / next(iter(folders.files.values())), folders.systems["sys"]
                  / next(iter(folders.files.values())), base)
    if not agreement.outcomes("options", got, probe, LEADERBOARD_ONLY_REFUSALS):
        return
    board = got.data
    settings = probe.data["settings"]
    # Ranked as a single pair of the files is scored: its matching, its zero score.
    if board["primary"] != settings["match"]:
        agreement.problems.append(f"ranked by {board['primary']} matching, but a pair is scored by {settings['match']}")
    if board["zero"] is not None and "zero" not in settings["metrics"] + list(row["metrics"]):
        agreement.problems.append(f"a zero column, but a pair is scored by {settings['metrics']}")
    zero = ["-z", settings["zero_match_method"]] + (["--keep-zeros"] if "--keep-zeros" in row["zeros"] else [])
    extra = [m for m in row["metrics"][1:]]

    def pair(match, system, file, singletons=False):
        flags = ["-a", match, *zero, "-m", *CONLL_PARTS, *(("zero",) if board["zero"] is not None else ()),
                 *extra, *(["-s"] if singletons else [])]
        return PAIRS(folders.key / file, folders.systems[system] / file, flags)

    primary, extra_columns = board["primary"], board_extra(board)
    for entry in board["leaderboard"]:
        system = entry["system"]
        for column in [k for k in entry if k not in ("system", "rank", "cluster", *extra_columns)]:
            match, singletons = (primary, True) if column == "with_singletons" else (column, False)
            runs = [pair(match, system, f, singletons) for f in folders.files.values()]
            if all(agreement.scored(f"{system} {column}", r) for r in runs):
                agreement.same(f"{system} {column}", {column: entry[column]},
                               {column: matrix_commands.mean([r.data["metrics"]["conll"]["f1"] for r in runs])})
    for dataset in board["datasets"]:
        file = folders.files[dataset["dataset"]]
        for entry in dataset["systems"]:
            single = pair(primary, entry["system"], file)
            if not agreement.scored(dataset["dataset"], single):
                continue
            got_figures = {k: v for k, v in entry.items() if k != "system"}
            expected = {primary: single.data["metrics"]["conll"]["f1"],
                        **({"zero": single.data["metrics"]["zero"]["f1"]} if "zero" in entry else {}),
                        **{m: single.data["metrics"][m]["f1"] for m in extra_columns}}
            agreement.same(f"{entry['system']} {dataset['dataset']}", got_figures, expected)


def board_extra(board: dict) -> list[str]:
    first = board["leaderboard"][0]
    return [k for k in first if k not in ("system", "rank", "cluster", "head", "partial", "exact", "with_singletons")]


def check_validate(agreement, folders, row):
    for dataset, file in folders.files.items():
        response = folders.systems[row["system"]] / file
        got = matrix_commands.run("validate", response, "--key", folders.key / file, *row["flags"])
        pair = PAIRS(folders.key / file, response, list(row["flags"]))
        agreement.figures += 1
        # validate's verdict is the pair's: scored (exit 0), or not (exit 2).
        if (got.code == 0) != (pair.code == 0) or got.code not in (0, 2):
            agreement.problems.append(f"{dataset}: validate exits {got.code} but the pair {pair.code} "
                                      f"({pair.refusal or ''})")


@pytest.mark.parametrize("command,case,row", [c[1:] for c in COMMAND_RUNS], ids=[c[0] for c in COMMAND_RUNS])
def test_every_command_agrees_with_single_pairs(case_folders, command, case, row):
    folders = case_folders(case)
    agreement = Agreement(f"{command} on {case}: {row}")
    if command == "leaderboard":
        check_leaderboard(agreement, folders, row)
    elif command == "validate":
        check_validate(agreement, folders, row)
    else:
        flags = _flags(folders.fmt, row)
        if command == "bench":
            check_bench(agreement, folders, flags, row["systems"])
        elif command == "errors":
            check_error_analysis(agreement, folders, flags)
        else:
            check_web(agreement, folders, flags, row["systems"])
    agreement.done()
