"""The walk over documents: each pair of documents, of files (read with
their words, as the score reads them) or already in the model, matched as
the score matches them and analysed; and the options the analysis cannot
honour."""

from __future__ import annotations

from functools import partial

from ...model import Document
from .classify import analyse
from .costs import Rescorer, V8Rescorer, cost_counts
from .report import DocumentOutcome, ErrorReport, report_of


def refusal(options) -> str | None:
    """Why the analysis cannot honour the options (None if it can): it reads
    the mentions as written and every mention of the score, so that its
    baseline is the score."""
    if options.only_split_antecedent:
        return ("--only-split-antecedent scores the split antecedents alone, which no error category "
                "describes; analyse without it")
    if options.np_only or options.remove_nested:
        return "it reads the mentions as written, not with --np-only or --remove-nested-mentions"
    return None


def refused(options) -> None:
    """Options the analysis cannot honour, refused rather than answered with
    a baseline other than the score."""
    from ...errors import ScorerError

    why = refusal(options)
    if why is not None:
        raise ScorerError(f"error analysis: {why}")


def kept_entity_ids(doc: Document, identity, options) -> list[str]:
    """The ids of the entities the scorer keeps, in its order
    (:func:`...alignment.contingency.prepare` drops singletons unless kept, and reads the
    discourse-deixis entities instead with ``discourse_deixis``)."""
    out = []
    for entity in doc.discourse_deixis if options.discourse_deixis else doc.entities:
        distinct = {identity(m) for m in entity.mentions}
        if options.keep_singletons or len(distinct) > 1:
            out.append(entity.eid)
    return out


def v8_analysis_options(options):
    """What the model's analysis of a CoNLL-2012 pair follows: v8.01 matches
    exactly and reads none of the CorefUD/UA preparation or sync options
    (its score does not either)."""
    from dataclasses import replace

    return replace(options, match="exact", sync=None, keep_zeros=True, keep_split_antecedents=False,
                   discourse_deixis=False, only_split_antecedent=False)


def analyse_loaded(key_doc: Document, response_doc: Document, options, jobs: int = 1,
                   rescorer_of=None) -> DocumentOutcome:
    """Errors and costs of one pair of loaded documents, matched as the score
    matches; ``jobs`` > 1 rescores a large document's corrections in parallel.
    ``rescorer_of`` (Partition -> rescorer) replaces the model's rescoring."""
    from ...errors import ScorerError
    from ..pipeline import align_documents

    refused(options)
    p = align_documents(key_doc, response_doc, options)
    if p.has_plurals:
        raise ScorerError(f"error analysis: document {key_doc.doc_id!r} has split antecedents (-l), "
                          "which the error categories do not cover; analyse without -l")
    identity = p.identity
    errors = analyse(p.key.entities, p.response.entities, p.key.entity_of, p.response.entity_of,
                     p.alignment, identity, options.zero_match, key_doc.text, key_doc.doc_id,
                     kept_entity_ids(key_doc, identity, options),
                     kept_entity_ids(response_doc, identity, options))
    text_kind = "none" if key_doc.text is None else "trees" if key_doc.text.trees else "tokens"
    rescorer = rescorer_of(p) if rescorer_of is not None else Rescorer(p, options)
    return DocumentOutcome(key_doc.doc_id, errors.counts, errors.occurrences,
                           cost_counts(errors, rescorer, jobs), text_kind)


def _v8_rescorer(key_source, response_source, options):
    """The rescorer of a CoNLL-2012 pair, whatever the model's partition."""
    return lambda p: V8Rescorer(key_source, response_source, options)


def analyse_against_key(key_source, response_sources, settings, jobs: int = 1) -> list[list[DocumentOutcome]]:
    """Load (with their words) and analyse a checked key document and its
    responses' documents under each setting: the pipeline's work
    (:func:`..pipeline.work_keyed`) for the error analysis; per setting, one
    outcome per response."""
    from ... import memory
    from ..pipeline import reads_as_v8

    memory.between_documents()
    key_doc = key_source.load()
    response_docs = [source.load() for source in response_sources]
    out = []
    for options in settings:
        if reads_as_v8(options):
            out.append([analyse_loaded(key_doc, response_doc, v8_analysis_options(options), jobs,
                                       _v8_rescorer(key_source, source, options))
                        for source, response_doc in zip(response_sources, response_docs)])
        else:
            out.append([analyse_loaded(key_doc, response_doc, options, jobs) for response_doc in response_docs])
    return out


def analyse_files(key, response, options=None, jobs: int = 1) -> ErrorReport:
    """The errors of a response file against its key file (paths, ``"-"``
    or file-like objects), with the score's matching (``options``: match,
    zero_match, keep_singletons, metrics, format), read as the score reads
    them (:func:`..pipeline.opened`)."""
    from ...results import Options
    from ..pipeline import keyed_streams, opened, work_keyed

    with opened([(key, [response])], [options or Options()]) as (groups, (options,), _):
        refused(options)
        # Words and parts of speech are read from the key only: the check
        # makes the response's words the same.
        work = partial(analyse_against_key, jobs=jobs)
        outcomes = [per_setting[0][0] for _, per_setting in
                    work_keyed(keyed_streams(groups, [options], words=True), [options], work, jobs)]
    report = report_of(outcomes, options)
    report.format = options.format
    return report


def analyse_documents(key: list[Document], response: list[Document], options=None,
                      jobs: int = 1) -> ErrorReport:
    """The errors of documents already in the model (with their ``text`` for
    words and parts of speech), paired by position as :func:`~corefud_scorer.api.score_documents`
    pairs them (their number and ids must agree)."""
    from ...results import Options
    from ..options import for_format
    from ..in_memory import in_memory

    options = for_format(options or Options())
    return report_of([analyse_loaded(k.load(), r.load(), options, jobs)
                      for k, (r,) in in_memory(key, response).documents], options)
