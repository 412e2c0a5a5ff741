"""One request scored in a worker process: the library's scoring of the
uploaded files under the names the client gave them, and the JSON the
command line's ``--output json`` prints for the same files and options
(:mod:`corefud_scorer.render.json_report`), or the one-line refusal."""

from __future__ import annotations

import gc
import traceback
from dataclasses import dataclass, field

from ..errors import ScorerError
from ..formats.inputs import NamedFile
from ..jobs.job import Job, resolve_options, run
from ..jobs.options import OptionConflict
from ..jobs.resampling import DEFAULT_SEED, Resampling
from ..render.json_report import render_scores
from .options import in_fields
from .upload import Upload


@dataclass
class Answer:
    """An HTTP status, the JSON text of the scores or the error message, and
    the uploads an error concerns."""
    status: int
    text: str
    files: list[Upload] = field(default_factory=list)


def score_request(key: Upload, responses: list[Upload], asked: dict) -> Answer:
    """Score ``responses`` against ``key`` with the options ``asked`` (field
    name -> value); an option refused is 422, a file refused 400, a failure
    of the scorer 500."""
    try:
        return Answer(200, _scores(key, responses, asked))
    except OptionConflict as err:
        return Answer(422, in_fields(str(err)))
    except ScorerError as err:
        named = {place for place, _ in err.where}
        files = [u for u in [key, *responses] if u.name in named]
        # The places are file names, said as they are; the message in the service's terms.
        return Answer(400 if files else 422, str(ScorerError(in_fields(err.message), *err.where)), files)
    except ValueError as err:  # an option the library's types refuse
        return Answer(422, in_fields(str(err)))
    except Exception as err:  # a bug, not bad input
        traceback.print_exc()
        return Answer(500, f"internal error: {type(err).__name__}: {err}")
    finally:
        # Udapi's documents hold reference cycles; a worker serves many
        # calls, so it gives them back after each one.
        gc.collect()


def distinct_names(labels: list[str]) -> list[str]:
    """The uploads' file names, made distinct where two are alike (two
    folders' ``sys.conllu`` are ``sys.conllu`` and ``sys.conllu (2)``)."""
    names: list[str] = []
    for label in labels:
        name, copy = label, 1
        while name in names:
            copy += 1
            name = f"{label} ({copy})"
        names.append(name)
    return names


def _scores(key: Upload, responses: list[Upload], asked: dict) -> str:
    names = distinct_names([r.name for r in responses])
    options = resolve_options(asked, key.path).options
    resampling = Resampling(asked.get("confidence"), asked.get("paired_bs"), asked.get("paired_ar"),
                            asked.get("seed", DEFAULT_SEED))
    job = Job.pair(NamedFile(key.path, key.name), [NamedFile(r.path, r.name) for r in responses], options, names,
                   resampling=resampling, errors=bool(asked.get("errors")))
    job.check()
    outcome = run(job)
    results = [per_system[0] for per_system in outcome.results]
    return render_scores(names, results, outcome.options, resampling, bool(asked.get("per_doc")),
                         asked.get("shared_task"), outcome.errors, outcome.systems)
