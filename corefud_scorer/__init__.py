"""corefud_scorer: coreference scores for CorefUD 1.x files.

The pipeline, one subpackage a step: :mod:`~corefud_scorer.formats` (read and write each
format) -> :mod:`~corefud_scorer.alignment` (match mentions, build the contingency) ->
:mod:`~corefud_scorer.measures` (every measure, named in :mod:`~corefud_scorer.measures.registry`) ->
:mod:`~corefud_scorer.jobs` (the pipeline over files, bench, leaderboard, CodaLab,
significance, error analysis) -> :mod:`~corefud_scorer.render` (text, JSON, tables) ->
:mod:`~corefud_scorer.cli` and :mod:`~corefud_scorer.web`; :mod:`~corefud_scorer.v801` is ``scorer.pl`` v8.01's reading of
CoNLL-2012 files, and :mod:`~corefud_scorer.api` the library's entry points.
"""

__version__ = "0.2.0"

# The names below are loaded on first use, so that a command needing only
# part of the package (the ``conll-scorer`` stand-in, a UA run) does not pay
# for numpy and the whole library at start-up.
_EXPORTS = {
    "score": "api", "score_documents": "api", "score_many": "api", "score_text": "api",
    "ScorerError": "errors",
    "DocumentResult": "results", "MetricScore": "results", "Options": "results", "Result": "results",
    "to_json_object": "render.json_schema", "document_rows": "render.tables",
}

__all__ = ["Options", "Result", "MetricScore", "DocumentResult", "score", "score_documents",
           "score_many", "score_text", "ScorerError", "to_json_object", "document_rows", "__version__"]


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
