"""``conll-scorer``: a stand-in for the reference scorer ``scorer.pl`` v8.01.

    conll-scorer METRIC KEY RESPONSE [none|DOCNAME]

METRIC is ``muc``, ``bcub``, ``ceafm``, ``ceafe``, ``blanc`` or ``all``.
Without a name every document is scored and shown; with ``none`` only the
totals are printed; with a document's name (the text after ``#begin
document ``) only that document is scored. The output is ``scorer.pl``'s,
line for line, except the first line, which names this scorer's version.
Every mention is scored (singletons kept), documents are paired by name.
Unlike ``scorer.pl`` it never refuses repeated mentions (each is reported
as v8.01 reports it, and scored as v8.01 scores it) and it reports bad input
as one line on stderr with exit code 2, printing nothing on stdout.
"""

from __future__ import annotations

import os
import sys

PROG = "conll-scorer"
# As the command (not imported by a library caller), first of all: an
# interrupt from here on is one line and exit 130 (entry_point does it too,
# for a command under another name).
if __name__ == "__main__" or os.path.basename(sys.argv[0]) == PROG:
    from ..interrupts import install

    install(PROG)

from .. import __version__  # noqa: E402
from ..errors import ScorerError, run_command  # noqa: E402

# Imported when used: the command sets up its interrupt handling first
# (entry_point), and this module's import is all that comes before.
TYPE_CHECKING = False  # True for type checkers; typing is not imported at run time
if TYPE_CHECKING:
    from ..formats.readers.conll2012 import ConllDocument
    from .text import PairScore

USAGE = f"""usage: {PROG} METRIC KEY RESPONSE [none|DOCNAME]

  METRIC    muc, bcub, ceafm, ceafe, blanc, or all (each of them in turn)
  KEY       the key (gold) file, CoNLL-2011/2012 format
  RESPONSE  the response (system) file, same documents and tokens
  none      score every document, print only the totals
  DOCNAME   score only this document (the text after '#begin document ')

The numbers and the text of the reference scorer scorer.pl v8.01.
"""


def version_line() -> str:
    return f"version: {__version__} corefud_scorer\n"


def score_pair(name: str, key: ConllDocument, response: ConllDocument, metric: str = "all") -> PairScore:
    """One document pair's chains and the counts of ``metric`` (every one for ``all``)."""
    from . import chain_metrics, chains as v8
    from .text import PairScore

    c = v8.identify(key.entities, response.entities)
    counts = {m: score(c) for m, score in chain_metrics.METRICS.items() if metric in ("all", m)}
    return PairScore(name, key.entities, response.entities, c, counts, chain_metrics.mention_identification(c))


def _check(key: ConllDocument, response: ConllDocument) -> None:
    """The same sentences and number of words (positions must mean the same
    tokens); word forms are not compared, as scorer.pl does not compare them.
    The lengths alone are compared first: the shared check, which names the
    first difference, runs only where they differ."""
    if key.sentence_lengths != response.sentence_lengths:
        from ..formats.same_text import check_documents

        check_documents(key, response, check_forms=False)


def pairs_of(key_path: str, response_path: str, name: str | None, metric: str = "all") -> list[PairScore]:
    """The scored document pairs: every key document (paired by name), or the named one."""
    from ..formats.readers.conll2012 import read_documents

    keys = list(read_documents(key_path, "key"))
    responses = {doc.doc_id: doc for doc in read_documents(response_path, "response")}
    if name is not None and name != "none":
        keys = [doc for doc in keys if doc.doc_id == name]
        if not keys:
            raise ScorerError(f"no document named {name!r} (the text after '#begin document ')",
                              (key_path, None))
    else:
        key_names = {doc.doc_id for doc in keys}
        for doc in responses.values():
            if doc.doc_id not in key_names:
                raise ScorerError(f"document {doc.doc_id!r} is not in the key {key_path}",
                                  (doc.path, doc.first_line))
    out = []
    for key in keys:
        response = responses.get(key.doc_id)
        if response is None:
            raise ScorerError(f"document {key.doc_id!r} is not in the response {response_path}",
                              (key.path, key.first_line))
        _check(key, response)
        out.append(score_pair(key.doc_id, key, response, metric))
    return out


def main(argv: list[str] | None = None, stdout=None, stderr=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    if len(argv) < 3 or len(argv) > 4 or argv[0] in ("-h", "--help"):
        (stdout if argv[:1] in (["-h"], ["--help"]) else stderr).write(USAGE)
        return 0 if argv[:1] in (["-h"], ["--help"]) else 2
    from .chain_metrics import METRICS

    metric = argv[0].lower()
    if metric != "all" and metric not in METRICS:
        print(f"{PROG}: error: invalid metric {argv[0]!r} (one of {', '.join(METRICS)}, all)", file=stderr)
        return 2
    name = argv[3] if len(argv) == 4 else None
    try:
        pairs = pairs_of(argv[1], argv[2], name, metric)
    except ScorerError as err:
        print(f"{PROG}: error: {err}", file=stderr)
        return 2
    from .text import render

    stdout.write(render(metric, pairs, name, version_line()))
    return 0


def entry_point() -> None:
    from ..interrupts import install

    install(PROG)
    from .. import memory

    # Reading and scoring make no reference cycles: automatic collection
    # would only walk the documents again and again.
    memory.manage()
    code = run_command(PROG, main)
    # Leave without the interpreter's clean-up, which would free every
    # document's objects one by one: the output is written out.
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":
    entry_point()
