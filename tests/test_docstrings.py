"""The core metrics' docstrings: each states its formula and source and
shows an example, which runs here and prints what the docstring says."""

from __future__ import annotations

import doctest

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


def test_the_examples_print_what_the_docstrings_say():
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    report: list[str] = []
    for test in doctest.DocTestFinder().find(metrics):
        runner.run(test, out=report.append)
    assert runner.tries >= len(SOURCES) * 3
    assert runner.failures == 0, "".join(report)
