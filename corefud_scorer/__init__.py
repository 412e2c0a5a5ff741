"""corefud_scorer: coreference scores for CorefUD 1.x files.

The pipeline, one module a step: :mod:`.readers` (read) -> :mod:`.check` ->
:mod:`.match` -> :mod:`.partition` -> :mod:`.metrics` (every measure named
in :mod:`.registry`) -> :mod:`.report`; :mod:`.scoring` runs the steps
document by document, :mod:`.core` is the one path from a scored pair to
each measure's statistics, :mod:`.api` is the library's entry points and
:mod:`.cli` the command line.
"""

__version__ = "0.2.0"

# The names below are loaded on first use, so that a command needing only
# part of the package (the ``conll-scorer`` stand-in, a UA run) does not pay
# for numpy and the whole library at start-up.
_EXPORTS = {
    "score": "api", "score_documents": "api", "score_many": "api", "score_text": "api",
    "ScorerError": "errors",
    "DocumentResult": "results", "MetricScore": "results", "Options": "results", "Result": "results",
    "to_json_object": "report", "document_rows": "report",
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
