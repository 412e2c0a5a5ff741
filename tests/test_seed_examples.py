"""The worked examples of the seed papers, scored through the Python API.

Fixtures (``fixtures/seed/``) encode each paper "mention" as one single-word
token of a CorefUD 1.x file; key and response files have the same sentences
and words and differ only in the ``Entity=`` annotation of MISC.

* Pradhan et al. 2014, Section 4 "An Illustrative Example":
  key K = {a,b,c} {d,e,f,g}; response R = {a,b} {c,d} {f,g,h,i}.
  ``e`` is missing from the response; ``h`` and ``i`` are spurious (tokens
  present in both files, annotated only in the response).
* Bagga & Baldwin 1998, Figures 1, 2, 4 and 6 (12 mentions 1..9, A, B, C):
  key (Fig. 1)       = {1,2,3,4,5} {6,7} {8,9,A,B,C}
  response (Fig. 2)  = {1,2,3,4,5} {6,7,8,9,A,B,C}
  response (Fig. 4)  = {1,2,3,4,5,8,9,A,B,C} {6,7}
  (sentence 1 holds 1..7, sentence 2 holds 8..C, so entities cross sentences.)

The papers count every mention, so singletons are kept and matching is exact.
Every expected value is an exact fraction; where a paper prints a rounded
decimal the test asserts the fraction that the paper's own formula gives (see
the notes at each test). Values not printed in a paper (marked "not in the
paper") are derived by hand in the comments from the metric's definition.
All expected values were cross-checked against the official CorefUD scorer 1.2
(``corefud-scorer.py KEY RESPONSE -a exact -z linear -s``).
"""

from __future__ import annotations

from fractions import Fraction as Fr
from pathlib import Path

import pytest

from corefud_scorer import Options, score

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
SEED = FIXTURES / "seed"

PRADHAN_KEY = SEED / "pradhan2014.key.conllu"
PRADHAN_RESPONSE = SEED / "pradhan2014.response.conllu"
BAGGA_KEY = SEED / "bagga1998.key.conllu"
BAGGA_FIG2 = SEED / "bagga1998.fig2.response.conllu"
BAGGA_FIG4 = SEED / "bagga1998.fig4.response.conllu"

ALL_FIXTURES = [PRADHAN_KEY, PRADHAN_RESPONSE, BAGGA_KEY, BAGGA_FIG2, BAGGA_FIG4]

# Metrics that are defined (non-degenerate) on these fixtures; "zero" has no
# zero mentions to score and "mention" is not reported by scorer 1.2 for CorefUD.
DEFINED_METRICS = ["muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "mor"]


def _options() -> Options:
    return Options(match="exact", zero_match="linear", keep_singletons=True)


def _score(key: Path, response: Path):
    return score(str(key), str(response), _options())


def f1(p: Fr, r: Fr) -> Fr:
    return Fr(0) if p + r == 0 else 2 * p * r / (p + r)


def assert_exact(value: float, expected: Fr, what: str) -> None:
    """``value`` is the float ``expected`` (to 1e-12) and reads back as that fraction."""
    assert value == pytest.approx(float(expected), rel=1e-12, abs=1e-15), (
        f"{what}: {value!r} != {expected} = {float(expected)!r}"
    )
    assert Fr(value).limit_denominator(1000) == expected, (
        f"{what}: {value!r} ~ {Fr(value).limit_denominator(1000)} != {expected}"
    )


def assert_prf(result, metric: str, recall: Fr, precision: Fr, f: Fr | None = None) -> None:
    m = result.metrics[metric]
    assert_exact(m.recall, recall, f"{metric} recall")
    assert_exact(m.precision, precision, f"{metric} precision")
    assert_exact(m.f1, f1(precision, recall) if f is None else f, f"{metric} F1")


def assert_counts(result, metric: str, rn: Fr, rd: Fr, pn: Fr, pd: Fr) -> None:
    """The sufficient statistics, as scorer 1.2 accumulates them."""
    m = result.metrics[metric]
    for name, value, expected in [
        ("recall_num", m.recall_num, rn),
        ("recall_den", m.recall_den, rd),
        ("precision_num", m.precision_num, pn),
        ("precision_den", m.precision_den, pd),
    ]:
        assert float(value) == pytest.approx(float(expected), rel=1e-12, abs=1e-15), (
            f"{metric} {name}: {value!r} != {expected}"
        )


# ---------------------------------------------------------------------------
# Pradhan et al. 2014, Section 4
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def pradhan():
    return _score(PRADHAN_KEY, PRADHAN_RESPONSE)


def test_pradhan_muc(pradhan):
    # Section 4.1: R = [(3-2) + (4-3)] / [(3-1) + (4-1)] = 2/5 = 0.40
    #              P = [(2-1) + (2-2) + (4-3)] / [(2-1) + (2-1) + (4-1)] = 2/5 = 0.40
    # (the partition of {c,d} w.r.t. the key is {c}{d}: 2 parts; of {f,g,h,i}
    #  it is {f,g}{h}{i}: 3 parts, h and i counting as implicit singletons.)
    recall = Fr((3 - 2) + (4 - 3), (3 - 1) + (4 - 1))
    precision = Fr((2 - 1) + (2 - 2) + (4 - 3), (2 - 1) + (2 - 1) + (4 - 1))
    assert recall == Fr(2, 5) and precision == Fr(2, 5)
    assert_prf(pradhan, "muc", recall, precision, Fr(2, 5))  # paper: F1 0.40
    assert_counts(pradhan, "muc", 2, 5, 2, 5)


def test_pradhan_bcub(pradhan):
    # Section 4.2: R = 1/7 * (2^2/3 + 1^2/3 + 1^2/4 + 2^2/4) = 1/7 * 35/12 = 5/12
    #   paper prints "~0.42" (5/12 = 0.41666...).
    #              P = 1/8 * (2^2/2 + 1^2/2 + 1^2/2 + 2^2/4) = 1/8 * 4 = 1/2 = 0.50
    # F1 = 2 * 5/12 * 1/2 / (5/12 + 1/2) = 5/11 = 0.4545...; the paper prints
    # 0.46, which is the F1 of the *rounded* 0.42 and 0.50 (0.4565); the exact
    # value from the paper's own R and P is 5/11 (scorer 1.2 prints 45.45).
    r_num = Fr(2**2, 3) + Fr(1**2, 3) + Fr(1**2, 4) + Fr(2**2, 4)
    p_num = Fr(2**2, 2) + Fr(1**2, 2) + Fr(1**2, 2) + Fr(2**2, 4)
    assert r_num == Fr(35, 12) and p_num == 4
    assert_prf(pradhan, "bcub", r_num / 7, p_num / 8, Fr(5, 11))
    assert_counts(pradhan, "bcub", r_num, 7, p_num, 8)


def test_pradhan_ceafm(pradhan):
    # Section 4.3.1: alignment K1-R1, K2-R3 (R2 = {c,d} unaligned).
    #   R = (2+2)/(3+4) = 4/7 (~0.57);  P = (2+2)/(2+2+4) = 1/2 (0.50);
    #   F1 = 8/15 = 0.5333 (paper: 0.53).
    assert_prf(pradhan, "ceafm", Fr(4, 7), Fr(4, 8), Fr(8, 15))
    assert_counts(pradhan, "ceafm", 4, 7, 4, 8)


def test_pradhan_ceafe(pradhan):
    # Section 4.3.2: phi4(K1,R1) = 2*2/(3+2) = 4/5; phi4(K2,R3) = 2*2/(4+4) = 1/2.
    #   Sum 13/10.  R = 13/10 / 2 = 13/20 (0.65);  P = 13/10 / 3 = 13/30 (~0.43);
    #   F1 = 13/25 = 0.52 (paper: 0.52).
    # (The alignment is optimal: the alternatives K1-R1 + K2-R2 = 4/5 + 1/3 and
    #  K1-R2 + K2-R3 = 2/5 + 1/2 are both smaller.)
    phi_sum = Fr(2 * 2, 3 + 2) + Fr(2 * 2, 4 + 4)
    assert phi_sum == Fr(13, 10)
    assert_prf(pradhan, "ceafe", phi_sum / 2, phi_sum / 3, Fr(13, 25))
    assert_counts(pradhan, "ceafe", phi_sum, 2, phi_sum, 3)


def test_pradhan_blanc(pradhan):
    # Section 4.4, with the link sets exactly as the paper lists them.
    C_k = {"ab", "ac", "bc", "de", "df", "dg", "ef", "eg", "fg"}
    N_k = {"ad", "ae", "af", "ag", "bd", "be", "bf", "bg", "cd", "ce", "cf", "cg"}
    C_r = {"ab", "cd", "fg", "fh", "fi", "gh", "gi", "hi"}
    N_r = {"ac", "ad", "af", "ag", "ah", "ai", "bc", "bd", "bf", "bg", "bh", "bi",
           "cf", "cg", "ch", "ci", "df", "dg", "dh", "di"}
    assert (len(C_k), len(N_k), len(C_r), len(N_r)) == (9, 12, 8, 20)
    assert len(C_k & C_r) == 2 and len(N_k & N_r) == 8

    R_c = Fr(len(C_k & C_r), len(C_k))  # 2/9  (~0.22)
    P_c = Fr(len(C_k & C_r), len(C_r))  # 2/8  (0.25)
    R_n = Fr(len(N_k & N_r), len(N_k))  # 8/12 (~0.67)
    P_n = Fr(len(N_k & N_r), len(N_r))  # 8/20 (0.40)
    F_c = f1(P_c, R_c)  # 4/17 = 0.2353; the paper prints "F_c ~ 0.23" (truncated)
    F_n = f1(P_n, R_n)  # 1/2 (paper: 0.50)
    # Scorer 1.2 reports BLANC as the average of the two parts, separately for
    # R, P and F:  R = (2/9 + 2/3)/2 = 4/9,  P = (1/4 + 2/5)/2 = 13/40,
    # F = (F_c + F_n)/2 = (4/17 + 1/2)/2 = 25/68 = 0.3676.  The paper prints
    # "BLANC ~ 0.36" for (F_c + F_n)/2: truncated, the exact value is 25/68
    # (scorer 1.2 prints 36.76).  Note F is NOT the harmonic mean of R and P.
    recall, precision, f = (R_c + R_n) / 2, (P_c + P_n) / 2, (F_c + F_n) / 2
    assert (recall, precision, f) == (Fr(4, 9), Fr(13, 40), Fr(25, 68))
    assert_prf(pradhan, "blanc", recall, precision, f)


def test_pradhan_lea(pradhan):
    # Not in the paper; derived by hand from the LEA definition (Moosavi &
    # Strube 2016): recall = sum_k |k| * links(k ∩ R) / links(k) / sum_k |k|,
    # links(x) = |x|(|x|-1)/2, a singleton counting as one self-link (none here).
    # Recall, over the key entities:
    #   K1 = {a,b,c}: 3 links (ab, ac, bc); response links among them: ab (R1)
    #                 -> 3 * 1/3 = 1
    #   K2 = {d,e,f,g}: 6 links; response links among them: fg (R3); e is
    #                 missing and d is linked only to c -> 4 * 1/6 = 2/3
    #   R = (1 + 2/3) / (3 + 4) = 5/21 = 0.2381
    # Precision, over the response entities:
    #   R1 = {a,b}: 1 link, ab is a key link         -> 2 * 1/1 = 2
    #   R2 = {c,d}: 1 link, cd is not a key link     -> 2 * 0/1 = 0
    #   R3 = {f,g,h,i}: 6 links, only fg is a key link -> 4 * 1/6 = 2/3
    #   P = (2 + 0 + 2/3) / (2 + 2 + 4) = 1/3
    # F1 = 2 * 5/21 * 1/3 / (5/21 + 1/3) = 5/18 = 0.2778
    r_num = 3 * Fr(1, 3) + 4 * Fr(1, 6)
    p_num = 2 * Fr(1, 1) + 2 * Fr(0, 1) + 4 * Fr(1, 6)
    assert_prf(pradhan, "lea", r_num / 7, p_num / 8, Fr(5, 18))
    assert_counts(pradhan, "lea", r_num, 7, p_num, 8)


def test_pradhan_mor(pradhan):
    # Not in the paper. Mention overlap ratio: every mention is one word, so it
    # counts overlapping words of matched mentions: a,b,c,d,f,g match (6 words);
    # e is missed (key 7 words), h and i are spurious (response 8 words).
    #   R = 6/7, P = 6/8 = 3/4, F1 = 4/5.
    assert_prf(pradhan, "mor", Fr(6, 7), Fr(3, 4), Fr(4, 5))
    assert_counts(pradhan, "mor", 6, 7, 6, 8)


def test_pradhan_mention_detection(pradhan):
    # Not in the paper (Section 3 mentions the mention detection score only in
    # passing): 6 of 7 key mentions and 6 of 8 response mentions are matched.
    # Scorer 1.2 does not report this metric for CorefUD files (its "mention"
    # metric is excluded from "all" and fails when requested), so this value
    # is checked only against the definition.
    result = score(str(SEED / "pradhan2014.key.conllu"), str(SEED / "pradhan2014.response.conllu"),
                   Options(metrics=("mention",), match="exact", zero_match="linear",
                           keep_singletons=True))
    assert list(result.metrics) == ["mention"]
    assert_prf(result, "mention", Fr(6, 7), Fr(3, 4), Fr(4, 5))
    assert_counts(result, "mention", 6, 7, 6, 8)


def test_pradhan_zero(pradhan):
    # Not in the paper: there are no zero mentions, so all four statistics are
    # 0. Scorer 1.2 prints 0 for recall, precision and F1 (its 0/0 -> 0); we
    # report the score as not applicable instead, deliberately.
    m = pradhan.metrics["zero"]
    assert (m.recall, m.precision, m.f1) == (None, None, None)
    assert not m.applicable
    assert_counts(pradhan, "zero", 0, 0, 0, 0)


def test_pradhan_conll(pradhan):
    # Mean F1 of MUC, B3 and CEAF-e: (2/5 + 5/11 + 13/25)/3 = 126/275 = 0.45818
    # (scorer 1.2 prints "CoNLL score: 45.82").
    expected = (Fr(2, 5) + Fr(5, 11) + Fr(13, 25)) / 3
    assert expected == Fr(126, 275)
    assert pradhan.conll == pytest.approx(float(expected), rel=1e-12)


# ---------------------------------------------------------------------------
# Bagga & Baldwin 1998, Figures 1, 2, 4, 6
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def bagga_fig2():
    return _score(BAGGA_KEY, BAGGA_FIG2)


@pytest.fixture(scope="module")
def bagga_fig4():
    return _score(BAGGA_KEY, BAGGA_FIG4)


def test_bagga_fig2_muc(bagga_fig2):
    # Figure 6 / the MUC example: R = (4 + 1 + 4)/(4 + 1 + 4) = 9/9;
    # P = [(5-1) + (7-2)] / [(5-1) + (7-1)] = 9/10.
    assert_prf(bagga_fig2, "muc", Fr(9, 9), Fr(9, 10), Fr(18, 19))
    assert_counts(bagga_fig2, "muc", 9, 9, 9, 10)


def test_bagga_fig4_muc(bagga_fig4):
    # Figure 6: "both responses ... precision score of 90%".
    # P = [(10-2) + (2-1)] / [(10-1) + (2-1)] = 9/10; R = 9/9.
    assert_prf(bagga_fig4, "muc", Fr(9, 9), Fr(9, 10), Fr(18, 19))
    assert_counts(bagga_fig4, "muc", 9, 9, 9, 10)


def test_bagga_fig2_bcub(bagga_fig2):
    # Figure 6, equal weight 1/12 per mention:
    # P = 1/12 * [5 * 5/5 + 2 * 2/7 + 5 * 5/7] = 16/21 (76%); R = 100%.
    p_sum = 5 * Fr(5, 5) + 2 * Fr(2, 7) + 5 * Fr(5, 7)
    assert p_sum / 12 == Fr(16, 21)
    assert_prf(bagga_fig2, "bcub", Fr(1), Fr(16, 21), Fr(32, 37))
    assert_counts(bagga_fig2, "bcub", 12, 12, p_sum, 12)


def test_bagga_fig4_bcub(bagga_fig4):
    # Figure 6: P = 1/12 * [5 * 5/10 + 2 * 2/2 + 5 * 5/10] = 7/12 (58%); R = 100%.
    p_sum = 5 * Fr(5, 10) + 2 * Fr(2, 2) + 5 * Fr(5, 10)
    assert p_sum / 12 == Fr(7, 12)
    assert_prf(bagga_fig4, "bcub", Fr(1), Fr(7, 12), Fr(14, 19))
    assert_counts(bagga_fig4, "bcub", 12, 12, p_sum, 12)


def test_bagga_class_weighted_bcub_arithmetic():
    # The class-weighted B3 of the paper (39/49 and 3/4) is not a metric of
    # scorer 1.2; check only that the paper's arithmetic is consistent with the
    # partitions the fixtures encode (precision = mean over response classes of
    # the mean per-mention precision in that class).
    fig2 = (Fr(5, 5) + (2 * Fr(2, 7) + 5 * Fr(5, 7)) / 7) / 2
    fig4 = ((10 * Fr(5, 10)) / 10 + Fr(2, 2)) / 2
    assert (fig2, fig4) == (Fr(39, 49), Fr(3, 4))


# Not in the paper (it gives only MUC and B3); derived by hand, each checked
# against scorer 1.2.  K1 = {1..5}, K2 = {6,7}, K3 = {8,9,A,B,C}.
#
# Figure 2, R1 = {1..5}, R2 = {6,7,8,9,A,B,C}:
#   CEAF-m: best alignment K1-R1 (5) + K3-R2 (5) = 10 -> R = P = 10/12 = 5/6.
#   CEAF-e: phi4(K1,R1) = 1, phi4(K3,R2) = 10/12 = 5/6 (beats phi4(K2,R2) = 4/9)
#           sum 11/6 -> R = 11/6 / 3 = 11/18, P = 11/6 / 2 = 11/12, F1 = 11/15.
#   BLANC:  key links 10+1+10 = 21, response links 10+21 = 31, common 21;
#           non-links: key 66-21 = 45, response 66-31 = 35 (all of R1 x R2,
#           all key non-links) -> R_c = 1, P_c = 21/31, R_n = 35/45 = 7/9, P_n = 1
#           R = 8/9, P = 26/31, F = (21/26 + 7/8)/2 = 175/208.
#   LEA:    recall 1 (every key link is a response link);
#           precision: R1 5 * 10/10 = 5, R2 7 * (1 + 10)/21 = 11/3
#           -> (5 + 11/3)/12 = 13/18, F1 = 26/31.
# Figure 4, R1 = {1..5,8,9,A,B,C}, R2 = {6,7}:
#   CEAF-m: K2-R2 (2) + K1-R1 or K3-R1 (5) = 7 -> R = P = 7/12.
#   CEAF-e: phi4(K2,R2) = 1, phi4(K1,R1) = phi4(K3,R1) = 10/15 = 2/3; sum 5/3
#           -> R = 5/9, P = 5/6, F1 = 2/3.
#   BLANC:  response links 45+1 = 46, common 21; response non-links 66-46 = 20
#           (R1 x R2, all key non-links) -> R_c = 1, P_c = 21/46, R_n = 20/45
#           = 4/9, P_n = 1; R = 13/18, P = 67/92, F = (42/67 + 8/13)/2 = 541/871.
#   LEA:    recall 1; precision: R1 10 * (10 + 10)/45 = 40/9, R2 2 * 1/1 = 2
#           -> (40/9 + 2)/12 = 29/54, F1 = 58/83.
# MOR: every mention matches exactly -> 1 (both figures).


def test_bagga_fig2_other_metrics(bagga_fig2):
    assert_prf(bagga_fig2, "ceafm", Fr(5, 6), Fr(5, 6))
    assert_counts(bagga_fig2, "ceafm", 10, 12, 10, 12)
    assert_prf(bagga_fig2, "ceafe", Fr(11, 18), Fr(11, 12), Fr(11, 15))
    assert_counts(bagga_fig2, "ceafe", Fr(11, 6), 3, Fr(11, 6), 2)
    R_c, P_c, R_n, P_n = Fr(21, 21), Fr(21, 31), Fr(35, 45), Fr(35, 35)
    assert_prf(bagga_fig2, "blanc", (R_c + R_n) / 2, (P_c + P_n) / 2,
               (f1(P_c, R_c) + f1(P_n, R_n)) / 2)
    assert (f1(P_c, R_c) + f1(P_n, R_n)) / 2 == Fr(175, 208)
    assert_prf(bagga_fig2, "lea", Fr(1), Fr(13, 18), Fr(26, 31))
    assert_counts(bagga_fig2, "lea", 12, 12, 5 + Fr(11, 3), 12)
    assert_prf(bagga_fig2, "mor", Fr(1), Fr(1))
    # CoNLL = (18/19 + 32/37 + 11/15)/3 (scorer 1.2: 84.85)
    conll = (Fr(18, 19) + Fr(32, 37) + Fr(11, 15)) / 3
    assert bagga_fig2.conll == pytest.approx(float(conll), rel=1e-12)


def test_bagga_fig4_other_metrics(bagga_fig4):
    assert_prf(bagga_fig4, "ceafm", Fr(7, 12), Fr(7, 12))
    assert_counts(bagga_fig4, "ceafm", 7, 12, 7, 12)
    assert_prf(bagga_fig4, "ceafe", Fr(5, 9), Fr(5, 6), Fr(2, 3))
    assert_counts(bagga_fig4, "ceafe", Fr(5, 3), 3, Fr(5, 3), 2)
    R_c, P_c, R_n, P_n = Fr(21, 21), Fr(21, 46), Fr(20, 45), Fr(20, 20)
    assert_prf(bagga_fig4, "blanc", (R_c + R_n) / 2, (P_c + P_n) / 2,
               (f1(P_c, R_c) + f1(P_n, R_n)) / 2)
    assert (f1(P_c, R_c) + f1(P_n, R_n)) / 2 == Fr(541, 871)
    assert_prf(bagga_fig4, "lea", Fr(1), Fr(29, 54), Fr(58, 83))
    assert_counts(bagga_fig4, "lea", 12, 12, Fr(40, 9) + 2, 12)
    assert_prf(bagga_fig4, "mor", Fr(1), Fr(1))
    # CoNLL = (18/19 + 14/19 + 2/3)/3 = 134/171 (scorer 1.2: 78.36)
    conll = (Fr(18, 19) + Fr(14, 19) + Fr(2, 3)) / 3
    assert conll == Fr(134, 171)
    assert bagga_fig4.conll == pytest.approx(float(conll), rel=1e-12)


# ---------------------------------------------------------------------------
# Scoring a file against itself, and the fixtures themselves
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("path", ALL_FIXTURES, ids=lambda p: p.name)
def test_self_score_is_perfect(path):
    result = _score(path, path)
    for metric in DEFINED_METRICS:
        m = result.metrics[metric]
        assert (m.recall, m.precision, m.f1) == (
            pytest.approx(1.0, rel=1e-12),
            pytest.approx(1.0, rel=1e-12),
            pytest.approx(1.0, rel=1e-12),
        ), metric
    assert result.conll == pytest.approx(1.0, rel=1e-12)


def _rows(path: Path):
    """(comment or token columns without MISC) and MISC column, line by line."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        cols = line.split("\t")
        if len(cols) == 10:
            out.append((tuple(cols[:9]), cols[9]))
        else:
            out.append((line, None))
    return out


@pytest.mark.parametrize(
    "key, response",
    [(PRADHAN_KEY, PRADHAN_RESPONSE), (BAGGA_KEY, BAGGA_FIG2), (BAGGA_KEY, BAGGA_FIG4)],
    ids=["pradhan2014", "bagga1998-fig2", "bagga1998-fig4"],
)
def test_fixture_pairs_differ_only_in_misc(key, response):
    key_rows, response_rows = _rows(key), _rows(response)
    assert [r[0] for r in key_rows] == [r[0] for r in response_rows]
    assert key_rows[0][0].startswith("# newdoc id = ")
    assert key_rows[1][0] == "# global.Entity = eid-etype-head-other"
    for (cols, misc) in key_rows + response_rows:
        if misc is not None:
            assert misc == "_" or misc.startswith("Entity=(") and misc.endswith("--1)")
