"""The docstrings: each core metric states its formula and source and shows
an example, which runs here and prints what the docstring says (as every
module's example does); and every reference from one module's docstring to
another (``:mod:`..x```, ``:func:`.y.f```) names a module and a name that
exist, as the API reference renders them."""

from __future__ import annotations

import ast
import doctest
import importlib
import re
from pathlib import Path

import pytest

from corefud_scorer.measures import metrics

# Each core metric, and the paper (author, year) its docstring must cite.
SOURCES = {
    "muc": ("Vilain", "1995"),
    "b_cubed": ("Bagga", "1998"),
    "ceafe": ("Luo", "2005"),
    "ceafm": ("Luo", "2005"),
    "lea": ("Moosavi", "2016"),
    "blanc": ("Recasens", "2011"),
}


@pytest.mark.parametrize("name", SOURCES)
def test_a_core_metric_states_its_formula_source_and_example(name):
    doc = getattr(metrics, name).__doc__ or ""
    for section in ("Parameters", "Returns", "Notes", "References", "Examples"):
        assert f"\n    {section}\n    {'-' * len(section)}\n" in doc, (name, section)
    author, year = SOURCES[name]
    references = doc.split("References")[1].split("Examples")[0]
    assert author in references and year in references
    (test,) = [t for t in doctest.DocTestFinder().find(metrics) if t.name == f"{metrics.__name__}.{name}"]
    assert any(name + "(" in example.source for example in test.examples)


def _examples(module) -> doctest.DocTestRunner:
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    report: list[str] = []
    for test in doctest.DocTestFinder().find(module):
        runner.run(test, out=report.append)
    assert runner.failures == 0, "".join(report)
    return runner


def test_the_examples_print_what_the_docstrings_say():
    assert _examples(metrics).tries >= len(SOURCES) * 3


def test_every_module_with_examples_runs_them():
    # Any module's docstring example is a doctest too (the metrics' above).
    with_examples = sorted(name for name, path in MODULES.items() if ">>> " in path.read_text(encoding="utf-8"))
    assert f"{metrics.__name__}" in with_examples
    for name in with_examples:
        assert _examples(importlib.import_module(name)).tries, name


# --- references between modules ---

PACKAGE = Path(__file__).resolve().parent.parent / "corefud_scorer"
MODULES = {".".join(("corefud_scorer", *p.relative_to(PACKAGE).with_suffix("").parts)).removesuffix(".__init__"): p
           for p in PACKAGE.rglob("*.py")}
ROLE = re.compile(r":(mod|func|class|meth|attr):`~?([.\w]+)`")
OTHER_LIBRARIES = {"scipy", "numpy", "collections", "udapi", "multiprocessing"}


def _names(path: Path) -> dict[str, set[str]]:
    """A module's top-level names, each with its members if it is a class."""
    names: dict[str, set[str]] = {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names[node.name] = {n.name for n in ast.walk(node) if isinstance(n, ast.FunctionDef)}
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = [node.target] if isinstance(node, ast.AnnAssign) else node.targets
            names.update((t.id, set()) for t in targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.ImportFrom):
            names.update(((a.asname or a.name), set()) for a in node.names)
    return names


def unresolved(module: str, role: str, target: str, modules=MODULES) -> str | None:
    """Why a reference written in ``module`` names nothing, or None. A
    leading dot is relative to the module's package, as an import's is."""
    package = module if modules[module].name == "__init__.py" else module.rsplit(".", 1)[0]
    dots = len(target) - len(target.lstrip("."))
    parts = target.lstrip(".").split(".")
    if not dots and parts[0] == "corefud_scorer":
        base, parts = ["corefud_scorer"], parts[1:]
    elif dots:
        base = package.split(".")[:package.count(".") + 2 - dots]
    elif len(parts) > 1 and parts[0] not in OTHER_LIBRARIES and parts[0][:1].islower():
        # A bare dotted name: a module of this package, or of the top one.
        found = [unresolved(module, role, "." + target, modules),
                 unresolved(module, role, "corefud_scorer." + target, modules)]
        return None if None in found else found[0]
    else:
        return None  # a bare name or another library's: looked up by name
    if role != "mod" and (len(parts) == 1 or parts[0][:1].isupper()):
        return None  # ".name" and ".Class.method" are looked up by name
    if not parts:
        return None if ".".join(base) in modules else f"no module {'.'.join(base)}"
    for cut in range(len(parts), 0, -1):
        found = ".".join(base + parts[:cut])
        if found in modules:
            rest, names = parts[cut:], _names(modules[found])
            if rest and rest[0] not in names or len(rest) > 1 and rest[1] not in names[rest[0]]:
                return f"{found} has no {'.'.join(rest)}"
            return None
    return f"no module {'.'.join(base + parts)}"


def test_references_between_modules_name_what_exists():
    found = [f"{path.relative_to(PACKAGE.parent)}:{number}: :{role}:`{target}`: {why}"
             for module, path in sorted(MODULES.items())
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             for role, target in ROLE.findall(line)
             if (why := unresolved(module, role, target))]
    assert not found, "\n".join(found)


def test_the_reference_check_finds_a_moved_module_and_a_missing_name():
    here = "corefud_scorer.measures.registry"
    assert unresolved(here, "mod", ".plural") == "no module corefud_scorer.measures.plural"
    assert unresolved(here, "mod", "..alignment.match") is None
    assert unresolved(here, "mod", ".split_antecedents") is None
    assert unresolved(here, "func", "..measures.metrics.muc") is None
    assert unresolved(here, "func", ".metrics.no_such") == "corefud_scorer.measures.metrics has no no_such"
    assert unresolved(here, "func", "summary.primary_figure").startswith("no module corefud_scorer.measures.summary")
    assert unresolved(here, "func", ".resolve") is None and unresolved(here, "mod", "corefud_scorer") is None
