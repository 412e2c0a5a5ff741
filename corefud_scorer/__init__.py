"""corefud_scorer: coreference scores for CorefUD 1.x files.

The pipeline, one module a step: :mod:`.readers` (read) -> :mod:`.check` ->
:mod:`.match` -> :mod:`.partition` -> :mod:`.metrics` -> :mod:`.report`;
:mod:`.scoring` runs the steps document by document, :mod:`.api` is the
library's entry points and :mod:`.cli` the command line.
"""

__version__ = "0.2.0"

from .api import score, score_documents, score_many, score_text  # noqa: E402
from .errors import ScorerError  # noqa: E402
from .results import DocumentResult, MetricScore, Options, Result  # noqa: E402

__all__ = ["Options", "Result", "MetricScore", "DocumentResult", "score", "score_documents",
           "score_many", "score_text", "ScorerError", "__version__"]
