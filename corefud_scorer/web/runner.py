"""Running the command line in a worker process, and reading what it said."""

from __future__ import annotations

import contextlib
import gc
import io
import json
import traceback
from dataclasses import dataclass

from .upload import Upload

PREFIX = "corefud-scorer: error: "


@dataclass
class CommandOutput:
    code: int
    stdout: str
    stderr: str


def run_cli(argv: list[str]) -> CommandOutput:
    """``corefud-scorer ARGV`` in this process, its output captured.

    argparse writes to ``sys.stdout``/``sys.stderr`` and exits by itself, so
    both are redirected and its exit is caught.
    """
    from ..cli.commands import run

    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = run(argv, out, err)
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 2
    except Exception:  # a bug, not bad input: the server answers 500
        code = 70
        err.write(traceback.format_exc())
    finally:
        # Udapi's documents hold reference cycles, and the command line may
        # freeze objects out of the collector's reach or leave the last
        # document's cycles to the process's exit; a worker serves many calls,
        # so it gives all of that back after each one.
        gc.unfreeze()
        gc.collect()
    return CommandOutput(code, out.getvalue(), err.getvalue())


def _escaped(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)[1:-1]


def rename(text: str, files: list[Upload], in_json: bool = False) -> str:
    """``text`` with each stored file's path replaced by the client's label
    (escaped for JSON when it is JSON text); longest paths first, so that
    ``response-1`` never eats the start of ``response-10``."""
    for upload in sorted(files, key=lambda f: len(f.path), reverse=True):
        if in_json:
            text = text.replace(_escaped(upload.path), _escaped(upload.name))
        else:
            text = text.replace(upload.path, upload.name)
    return text


def names_argv(responses: list[Upload], flags: list[str]) -> list[str]:
    """``--names`` with the client's labels of several responses (made
    distinct: two files of one name from two folders are ``sys.conllu`` and
    ``sys.conllu (2)``), so that the JSON and the page name each system as
    the client named its file; nothing for one response, or when the
    command line has no ``--names``."""
    if len(responses) < 2 or "--names" not in flags:
        return []
    from ..comparison import joined_names

    names: list[str] = []
    for upload in responses:
        name, copy = upload.name, 1
        while name in names:
            copy += 1
            name = f"{upload.name} ({copy})"
        names.append(name)
    return ["--names", joined_names(names)]


def error_line(stderr: str) -> str:
    """The CLI's one-line error, without its ``corefud-scorer: error:`` prefix."""
    lines = [line for line in stderr.splitlines() if line.strip()]
    for line in reversed(lines):
        if line.startswith(PREFIX):
            return line[len(PREFIX):]
    return lines[-1] if lines else "the scorer failed without a message"


def concerned(message: str, files: list[Upload]) -> list[Upload]:
    """The uploads a CLI error message names (before renaming), in file order."""
    named, rest = [], message
    for upload in sorted(files, key=lambda f: len(f.path), reverse=True):
        if upload.path in rest:
            named.append(upload)
            rest = rest.replace(upload.path, "")
    return sorted(named, key=lambda f: (f.field != "key", f.index))
