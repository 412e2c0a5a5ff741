"""Score a CoNLL-2012 document pair with the reference scorer v8.01's numbers.

The reader (:mod:`~corefud_scorer.formats.readers.conll2012`) and the check are the shared ones;
for each checked pair, :func:`score_chains` replaces scorer 1.2's match
and partition by v8.01's reading (:mod:`.chains`: exact matching, its
handling of repeated spans). A document where no span repeats is then
scored through its contingency, as every format is; one where a span
repeats by v8.01's own metrics on its chains. Singletons are dropped unless
``keep_singletons`` (the reference scorer always keeps them: ``-s``). BLANC
is combined by scorer 1.2's rule (:func:`..measures.figures.blanc`).
"""

from __future__ import annotations

from dataclasses import dataclass

from . import chain_metrics, chains as v8
from ..formats import mention_filters
from ..measures.statistics import Counts
from ..measures.document import contingency_counts, document_result, of_contingency
from ..model import Mention
from ..results import Options


@dataclass
class Prepared:
    """One document pair in v8.01's terms, with what was noticed on the way."""

    chains: v8.Chains
    key: object       # the documents as read (ConllDocument), None for bare clusters
    response: object
    singletons: tuple[int, int]

    def mention_of(self) -> dict:
        """Token span -> model mention (the key's where both have it), for
        MOR, the one measure that needs the mentions' words; for bare
        clusters (no document read), each span's tokens are its words."""
        if self.key is None:
            return {span: Mention(tuple(range(span[0], span[1] + 1)), span[0]) for span in self.chains.ids}
        out: dict = {}
        for source in (self.response, self.key):
            document = source.load()
            for spans, entity in zip(source.entities, document.entities):
                out.update(zip(spans, entity.mentions))
        return out


def entity_spans(source, keep_singletons: bool):
    """Each entity as its mentions' token spans, singletons dropped unless kept."""
    entities, dropped = [], 0
    for spans in source.entities:
        if not keep_singletons and len(set(spans)) < 2:
            dropped += 1
            continue
        entities.append(spans)
    return entities, dropped


def _filtered(entities, key_source, options: Options):
    """The UA scorer's mention filters, NP-only first (:mod:`~corefud_scorer.formats.mention_filters`);
    both read the key's tokens, which the response's match."""
    if options.np_only:
        parses = key_source.parses
        entities = mention_filters.np_only(
            entities, lambda span: mention_filters.span_label(parses[span[0]:span[1] + 1]))
    if options.remove_nested:
        sentence = [s for s, length in enumerate(key_source.sentence_lengths) for _ in range(length)]
        entities = mention_filters.remove_nested(entities, sentence.__getitem__, options.keep_singletons)
    return entities


def prepare_chains(key_source, response_source, keep_singletons: bool, options: Options | None = None) -> Prepared:
    key, key_dropped = entity_spans(key_source, keep_singletons)
    response, response_dropped = entity_spans(response_source, keep_singletons)
    if options is not None and (options.np_only or options.remove_nested):
        key, response = _filtered(key, key_source, options), _filtered(response, key_source, options)
    return Prepared(v8.identify(key, response), key_source, response_source, (key_dropped, response_dropped))


def chains_counts(prepared: Prepared, metrics, sync: str | None = None) -> dict:
    """Each metric's statistics. Where a span repeats, v8.01's own reading
    (:mod:`.chains`) for the metrics it computes; everywhere else, and
    under a synchronisation, the chains' contingency through the path
    every format shares (:func:`..measures.document.contingency_counts`)."""

    names = list(dict.fromkeys(metrics))
    own = chain_metrics.REPEATED_SPAN_METRICS if prepared.chains.repeated and sync is None else {}
    shared = [n for n in names if of_contingency(n) and n not in own]
    out = contingency_counts(chain_metrics.occurrence_contingency(prepared.chains), shared, sync) if shared else {}
    for name in names:
        if name in out:
            continue
        if name in own:
            out[name] = own[name](prepared.chains)
        elif name in MENTION_READINGS:
            out[name] = MENTION_READINGS[name](prepared)
        else:
            raise ValueError(f"{name}: no reading on v8.01's chains")
    return {name: out[name] for name in names}


def has_reading(name: str) -> bool:
    """Whether :func:`chains_counts` reads the registry's measure ``name``
    off v8.01's chains (the layers beside the entities it cannot)."""
    return name in chain_metrics.REPEATED_SPAN_METRICS or of_contingency(name) or name in MENTION_READINGS


# The measures of the aligned mentions, read off v8.01's chains (the format
# has no partition): mention identification as v8.01 counts it, MOR over
# the chains' mentions, and the zero score, which has no zero to read.
MENTION_READINGS = {
    "mention": lambda prepared: chain_metrics.mention_identification(prepared.chains),
    "mor": lambda prepared: chain_metrics.mention_overlap(prepared.chains, prepared.mention_of()),
    "zero": lambda prepared: Counts(),
}


def _repeat_place(source, span) -> str:
    """Where a span stands the second time (the place v8.01 reports as repeated)."""
    lines = [line for spans, mention_lines in zip(source.entities, source.mention_lines)
             for s, line in zip(spans, mention_lines) if s == span]
    if len(lines) > 1:
        return f"{source.path}:{lines[1]}"
    return f"document {source.doc_id!r}"


def score_chains(key_source, response_source, options: Options):
    """Score one checked pair of CoNLL-2012 documents from their token spans:
    the fields of a :class:`~corefud_scorer.jobs.pipeline.Outcome` (result, entity
    ids that recur, notes, counts of what was left out); the documents are
    loaded into the model only for MOR."""
    prepared = prepare_chains(key_source, response_source, options.keep_singletons, options)
    c = prepared.chains
    notes = []
    for label, repeats, source in (("key", c.key_repeats, key_source),
                                   ("response", c.response_repeats, response_source)):
        if repeats:
            notes.append((label, "repeated mentions (a span given again), scored as scorer.pl v8.01 "
                          "scores them", _repeat_place(source, repeats[0].span), len(repeats)))
    sizes = (sum(len(k) for k in c.key), sum(len(r) for r in c.response), len(c.key), len(c.response))
    result = document_result(key_source.doc_id, lambda metrics, sync: chains_counts(prepared, metrics, sync),
                             lambda: chain_metrics.occurrence_contingency(c), options, sizes, key_source.tokens)
    dropped = {"key_singletons_dropped": prepared.singletons[0],
               "response_singletons_dropped": prepared.singletons[1]}
    return result, [], [], notes, dropped
