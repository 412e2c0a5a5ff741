"""Where the readers and the alignment check report what is wrong with an
input: raised at the first error (scoring stops there), or collected with
the reader going on to the next line, sentence or document (validation).

Each problem has a kind, from :data:`.problem_kinds.HINTS`, which says what
to do about it.
"""

from __future__ import annotations

from ..errors import ScorerError

TYPE_CHECKING = False  # True for type checkers; typing is not imported at run time
if TYPE_CHECKING:
    from .problem_kinds import Problem


class Problems:
    """The problems of one input. Raising (the default, :data:`STOP`): the
    first error is raised as the :class:`ScorerError` it is, and warnings
    are left to the scoring's own. Collecting: every problem is kept and
    the reporter goes on, so a caller recovers where it can."""

    def __init__(self, collect: bool = False, focus: str | None = None):
        self.collecting = collect
        # The file whose place is a problem's first place (the response's, in a key/response pair).
        self.focus = focus
        self.items: list[Problem] = []

    def error(self, kind: str, err: ScorerError) -> None:
        if not self.collecting:
            raise err from None
        self._collect(kind, err, warning=False)

    def warning(self, kind: str, err: ScorerError) -> None:
        if self.collecting:
            self._collect(kind, err, warning=True)

    def _collect(self, kind: str, err: ScorerError, warning: bool) -> None:
        # Imported here: only a collecting reporter makes problems.
        from .problem_kinds import ERROR, WARNING, Problem

        where = tuple(err.where)
        first = next((place for place in where if place[0] == self.focus), where[0] if where else (None, None))
        self.items.append(Problem(kind, err.message, first[0], first[1], WARNING if warning else ERROR, where))


# The scoring's reporter: the first error is raised.
STOP = Problems()
