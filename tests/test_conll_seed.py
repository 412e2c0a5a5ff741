"""Pradhan et al. (2014), section 4, as a CoNLL-2012 file: the paper's numbers.

``fixtures/seed/pradhan2014.{key,response}.conll`` hold the example of
``pradhan2014.*.conllu`` (key {a,b,c} {d,e,f,g}; response {a,b} {c,d}
{f,g,h,i}), one mention a token. The expected fractions are those of
``test_seed_examples.py``, where each is derived from the paper.
"""

from __future__ import annotations

import io
from fractions import Fraction as Fr

import pytest

from corefud_scorer import Options, score
from corefud_scorer.v801.dropin import main as dropin_main

from conftest import FIXTURES
from test_seed_examples import assert_counts, assert_exact, assert_prf

KEY = FIXTURES / "seed" / "pradhan2014.key.conll"
RESPONSE = FIXTURES / "seed" / "pradhan2014.response.conll"

# metric -> (recall, precision, F1 or None for the harmonic mean), as in test_seed_examples.
EXPECTED = {
    "muc": (Fr(2, 5), Fr(2, 5), None),
    "bcub": (Fr(35, 12) / 7, Fr(4, 8), None),
    "ceafm": (Fr(4, 7), Fr(1, 2), None),
    "ceafe": (Fr(13, 20), Fr(13, 30), None),
    "blanc": (Fr(4, 9), Fr(13, 40), Fr(25, 68)),  # (F_c + F_n) / 2, not the harmonic mean
    "lea": (Fr(5, 21), Fr(1, 3), None),
    "mention": (Fr(6, 7), Fr(3, 4), None),
}
COUNTS = {"muc": (2, 5, 2, 5), "bcub": (Fr(35, 12), 7, 4, 8), "ceafm": (4, 7, 4, 8),
          "ceafe": (Fr(13, 10), 2, Fr(13, 10), 3), "lea": (Fr(5, 3), 7, Fr(8, 3), 8),
          "mention": (6, 7, 6, 8)}


@pytest.fixture(scope="module")
def result():
    return score(str(KEY), str(RESPONSE), Options(metrics=tuple(EXPECTED), match="exact",
                                                  keep_singletons=True, format="conll"))


@pytest.mark.parametrize("metric", sorted(EXPECTED))
def test_paper_numbers_as_fractions(result, metric):
    recall, precision, f = EXPECTED[metric]
    assert_prf(result, metric, recall, precision, f)
    if metric in COUNTS:
        assert_counts(result, metric, *COUNTS[metric])


def test_conll_score(result):
    assert_exact(result.conll, (Fr(2, 5) + Fr(5, 11) + Fr(13, 25)) / 3, "conll")


def test_dropin_prints_the_paper_numbers():
    out = io.StringIO()
    assert dropin_main(["all", str(KEY), str(RESPONSE), "none"], out, io.StringIO()) == 0
    text = out.getvalue()
    # Percentages truncated to two decimals, as scorer.pl prints them.
    for line in ("Coreference: Recall: (2 / 5) 40%\tPrecision: (2 / 5) 40%\tF1: 40%",
                 "Coreference: Recall: (2.91666666666667 / 7) 41.66%\tPrecision: (4 / 8) 50%\tF1: 45.45%",
                 "Coreference: Recall: (4 / 7) 57.14%\tPrecision: (4 / 8) 50%\tF1: 53.33%",
                 "Coreference: Recall: (1.3 / 2) 65%\tPrecision: (1.3 / 3) 43.33%\tF1: 51.99%",
                 "Coreference links: Recall: (2 / 9) 22.22%\tPrecision: (2 / 8) 25%\tF1: 23.52%",
                 "Non-coreference links: Recall: (8 / 12) 66.66%\tPrecision: (8 / 20) 40%\tF1: 50%",
                 "BLANC: Recall: (0.444444444444444 / 1) 44.44%\tPrecision: (0.325 / 1) 32.5%\tF1: 36.76%",
                 "Identification of Mentions: Recall: (6 / 7) 85.71%\tPrecision: (6 / 8) 75%\tF1: 79.99%"):
        assert line + "\n" in text
