"""The JSON of a scoring call: one response (its result, the signature, the
preset and the error analysis), or several compared with intervals and
tests. The command line's ``--output json`` and the HTTP API print this, so
that both give the same bytes for the same files and options."""

from __future__ import annotations

from ..formats.readers import formats
from ..jobs.options import for_format
from ..jobs.resampling import Resampling, signature_of
from .json_schema import render_json, to_json_object
from ..results import Options


def as_scored(options: Options, results) -> Options:
    """The options with the format the files were scored in (what ``all``
    and the defaults meant there), for what is printed about them: the text,
    the signature, the figures compared."""
    fmt = next((r.settings.get("format") for r in results if r.settings.get("format") in formats()), None)
    return for_format(options, fmt)


def systems_json(entries: list[dict], signature: str, systems) -> dict:
    """The JSON of one system (its entry and the signature) or of several
    (each entry by name, and the tests against the first)."""
    warnings = systems.warnings if systems is not None else []
    if len(entries) == 1:
        data = {**entries[0], "signature": signature}
        del data["name"]
        if warnings:
            data["warnings"] = [*data.get("warnings", []), *warnings]
        return data
    data = {"schema_version": entries[0]["schema_version"], "signature": signature, "systems": entries,
            "warnings": list(warnings)}
    if systems is not None and systems.tests is not None:
        from ..jobs.comparison import tests_json

        data["tests"] = tests_json(systems)
    return data


def scores_json(names: list[str], results: list, options: Options, resampling: Resampling,
                per_doc: bool = False, shared_task: str | None = None, errors=None, systems=None) -> dict:
    """The JSON of responses ``names`` scored against one key (``results``,
    one each): one response alone is its result; several, or intervals or
    tests asked for, are compared (the first is the baseline), unless
    ``systems`` is their comparison already. ``errors``: the one response's
    error analysis."""
    options = as_scored(options, results)
    signature = signature_of(options, results[0].settings.get("format"), resampling)
    if len(results) == 1 and not resampling.asked:
        data = {**to_json_object(results[0], per_document=per_doc), "signature": signature}
        if shared_task:
            data["settings"]["shared_task"] = shared_task
        if errors is not None:
            data["errors"] = errors.to_json()
        return data
    # Several systems, intervals or tests: the comparison's modules, imported only here.
    from ..jobs.comparison import add_intervals, compare, pair_figures

    if systems is None:
        systems = compare(names, [[r.documents] for r in results], [pair_figures(r) for r in results],
                          options.metric_list, resampling, signature)
    entries = []
    for index, (name, result) in enumerate(zip(names, results)):
        entry = to_json_object(result, per_document=per_doc)
        if shared_task:
            entry["settings"]["shared_task"] = shared_task
        if systems.intervals:
            add_intervals(entry["metrics"], systems.intervals[index])
        entries.append({"name": name, **entry})
    return systems_json(entries, signature, systems)


def render_scores(*args, **kwargs) -> str:
    """:func:`scores_json` as the text printed."""
    return render_json(scores_json(*args, **kwargs))
