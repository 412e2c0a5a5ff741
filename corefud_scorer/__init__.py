"""corefud_scorer: coreference scores for CorefUD 1.x files.

The pipeline, one module a step: :mod:`.read` -> :mod:`.check` ->
:mod:`.match` -> :mod:`.partition` -> :mod:`.metrics` -> :mod:`.report`;
:mod:`.api` runs it and :mod:`.cli` is the command line.
"""

__version__ = "0.1.0"

from .api import MetricScore, Options, Result, score, score_documents, score_many  # noqa: E402
from .errors import ScorerError  # noqa: E402

__all__ = ["Options", "Result", "MetricScore", "score", "score_documents", "score_many", "ScorerError",
           "__version__"]
