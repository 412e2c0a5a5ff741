"""Scores for training loops: the ``CorefEvaluator`` of the ``metrics.py``
that neural coreference systems keep, with the same calls, giving the
figures of the reference scorer ``scorer.pl`` v8.01 and every other
measure of the registry by name.

    evaluator = CorefEvaluator()
    for predicted, gold, mention_to_predicted, mention_to_gold in documents:
        evaluator.update(predicted, gold, mention_to_predicted, mention_to_gold)
    precision, recall, f1 = evaluator.get_prf()   # the mean of MUC, B-cubed and CEAF-e
    lea = evaluator.score("lea")                  # a MetricScore

A document's clusters (each a sequence of ``(start, end)`` token spans,
both ends inclusive) are read as ``corefud-scorer`` reads them from a
jsonlines file, and so as ``scorer.pl`` reads their CoNLL-2012 form:
mentions matched exactly and taken in the order their brackets give, an
empty cluster is no entity, singletons are kept, and a span standing in
two clusters is read as v8.01 reads it (:mod:`.v801.chains`). What v8.01
prints (MUC, B-cubed, CEAF-m, CEAF-e, BLANC by its own rule, the
identification of mentions) is its own arithmetic
(:mod:`.v801.chain_metrics`) and needs no numpy; every other measure is
read off the same chains as for a CoNLL-2012 file (:mod:`.v801.scoring`),
loaded when first asked for. The ``mention_to_*`` dicts give no figure:
they are checked against the clusters, and may be left out.
"""

from __future__ import annotations

import operator
from collections.abc import Callable

from .measures.figures import mean_f1
from .measures.scores import CONLL_PARTS

TYPE_CHECKING = False  # True for type checkers; typing is not imported at run time
if TYPE_CHECKING:
    from .v801.chains import Chains
    from .measures.scores import MetricScore

# The layers beside the entities are refused as a format of bare spans
# refuses them, in these words.
SUBJECT = ("clusters of spans", "have")
# What a dict gives for a mention it lacks.
_ABSENT = object()


class CorefEvaluator:
    """Figures of the documents given to :meth:`update`, summed over them
    in that order, as ``conll-scorer`` sums a file's documents (``scorer.pl``
    adds them in Perl's hash order, which can move a sum's last digit).

    ``evaluators`` are MUC's, B-cubed's and CEAF-e's (:class:`Evaluator`),
    the three the CoNLL score averages; :meth:`evaluator` gives any
    measure's and :meth:`score` its :class:`~corefud_scorer.measures.scores.MetricScore`.
    A measure's sum is taken when first asked for and brought up to date
    when asked again, so figures may be read between updates."""

    def __init__(self) -> None:
        self._documents: list[Chains] = []
        self._totals: dict[str, tuple[int, object]] = {}  # name -> (documents summed, their sum)
        self.evaluators = [Evaluator(self, name) for name in CONLL_PARTS]

    def update(self, predicted, gold, mention_to_predicted: dict | None = None,
               mention_to_gold: dict | None = None) -> None:
        """Add one document: its predicted and gold clusters, and
        optionally each side's dict from a mention to its cluster (checked:
        every mention of the clusters maps to a cluster holding it, and
        nothing else is mapped). A bad span or dict raises ValueError."""
        from .v801.chains import identify
        from .formats.readers.conll2012 import conll_order

        response = _clusters(predicted, mention_to_predicted, "predicted", "mention_to_predicted")
        key = _clusters(gold, mention_to_gold, "gold", "mention_to_gold")
        self._documents.append(identify(conll_order(key)[0], conll_order(response)[0]))

    @property
    def documents(self) -> int:
        return len(self._documents)

    @staticmethod
    def measures() -> tuple[str, ...]:
        """The names :meth:`score` takes, in the registry's order."""
        from .v801.scoring import has_reading
        from .measures.registry import MEASURES

        return tuple(name for name in MEASURES if has_reading(name))

    def evaluator(self, name: str) -> Evaluator:
        """One measure's :class:`Evaluator` (an unknown or refused name raises ValueError)."""
        _reading(name)
        return Evaluator(self, name)

    def score(self, name: str) -> MetricScore:
        """A measure's score over the documents so far: v8.01's for what it
        prints, the registry's for the others."""
        from .v801 import chain_metrics
        from .v801.chains import identify

        total = self._total(name)
        if name in chain_metrics.PRINTED:
            if total is None:  # no document: the sums of an empty one
                total = chain_metrics.PRINTED[name](identify([], []))
            return chain_metrics.score(name, total)
        from .measures.totals import metric_score

        return metric_score(name, total)

    def _total(self, name: str):
        reading = _reading(name)
        done, total = self._totals.get(name, (0, None))
        for chains in self._documents[done:]:
            counts = reading(chains)
            total = counts if total is None else total + counts
        self._totals[name] = (len(self._documents), total)
        return total

    # The calls of the copies: the mean of the three evaluators' figures,
    # added as the CoNLL score is (left to right, in their order).

    def get_f1(self) -> float:
        return mean_f1([e.get_f1() for e in self.evaluators])

    def get_recall(self) -> float:
        return mean_f1([e.get_recall() for e in self.evaluators])

    def get_precision(self) -> float:
        return mean_f1([e.get_precision() for e in self.evaluators])

    def get_prf(self) -> tuple[float, float, float]:
        return self.get_precision(), self.get_recall(), self.get_f1()


class Evaluator:
    """One measure's figures, with the calls of a copy's per-metric
    evaluator. A figure the measure does not have is None (an agreement
    coefficient has only its score's ``value``; the zero score has none
    where no zero is)."""

    def __init__(self, owner: CorefEvaluator, name: str) -> None:
        self.owner = owner
        self.name = name

    def score(self) -> MetricScore:
        return self.owner.score(self.name)

    def get_f1(self) -> float | None:
        return self.score().f1

    def get_recall(self) -> float | None:
        return self.score().recall

    def get_precision(self) -> float | None:
        return self.score().precision

    def get_prf(self) -> tuple:
        s = self.score()
        return s.precision, s.recall, s.f1

    def get_counts(self) -> tuple[float, float, float, float]:
        """(precision numerator, its denominator, recall numerator, its
        denominator), for a measure summed as one pair of fractions."""
        from .measures.statistics import Counts

        counts = self.score().counts
        if not isinstance(counts, Counts):
            raise TypeError(f"{self.name} is not one pair of fractions: read score().counts")
        return counts.precision_num, counts.precision_den, counts.recall_num, counts.recall_den


def _reading(name: str) -> Callable:
    """One document's statistics of measure ``name`` from its chains."""
    from .v801.chain_metrics import PRINTED

    own = PRINTED.get(name)
    if own is not None:
        return own
    from .v801.scoring import Prepared, chains_counts, has_reading
    from .measures.registry import MEASURES

    if name not in MEASURES:
        raise ValueError(f"unknown measure {name!r}; one of {', '.join(CorefEvaluator.measures())}")
    if not has_reading(name):
        from .formats.profile import spans_only_refusals

        reason = spans_only_refusals(*SUBJECT).get(name, "has no reading on clusters of spans")
        raise ValueError(f"{name}: {reason}")
    return lambda chains: chains_counts(Prepared(chains, None, None, (0, 0)), [name])[name]


def _span(mention, side: str, cluster: int) -> tuple[int, int]:
    try:
        start, end = map(operator.index, mention)
    except (TypeError, ValueError):
        raise ValueError(f"{side}[{cluster}]: {mention!r} is not a (start, end) pair of integers") from None
    if not 0 <= start <= end:
        raise ValueError(f"{side}[{cluster}]: {mention!r} ends before it starts or starts below 0")
    return start, end


def _holds(cluster, mention) -> bool:
    try:
        return mention in cluster
    except TypeError:  # not a cluster at all (a number, say)
        return False


def _clusters(clusters, mapping: dict | None, side: str, name: str) -> list:
    """The clusters with each span checked (a cluster of spans other than
    tuples of two ints made one), and ``mapping`` checked against them."""
    # Read twice (spans, then the mapping): an iterator is listed first.
    clusters = [c if isinstance(c, (list, tuple)) else list(c) for c in clusters]
    out = []
    for c, cluster in enumerate(clusters):
        for mention in cluster:
            # The usual span, checked without a call.
            if type(mention) is not tuple or len(mention) != 2:
                break
            start, end = mention
            if type(start) is not int or type(end) is not int or not 0 <= start <= end:
                break
        else:
            out.append(cluster)
            continue
        out.append([_span(mention, side, c) for mention in cluster])
    if mapping is not None:
        _check_mapping(clusters, out, mapping, side, name)
    return out


def _check_mapping(clusters, spans, mapping: dict, side: str, name: str) -> None:
    """Each mention mapped to a cluster that holds it, and nothing else mapped."""
    mentions = 0
    for c, (cluster, found) in enumerate(zip(clusters, spans)):
        for mention, span in zip(cluster, found):
            value = mapping.get(span, _ABSENT)
            if value is _ABSENT:
                raise ValueError(f"{name} lacks {mention!r} of {side}[{c}]")
            if value is not cluster and not _holds(value, mention):
                raise ValueError(f"{name} maps {mention!r} to {value!r}, which does not hold it")
        mentions += len(found)
    if len(mapping) != mentions:  # a span in two clusters is one key
        distinct = {span for found in spans for span in found}
        extra = next((m for m in mapping if m not in distinct), None)
        if extra is not None:
            raise ValueError(f"{name} maps {extra!r}, which no {side} cluster holds")
