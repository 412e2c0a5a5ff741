"""Errors the scorer reports to the user: one line, naming the file and line."""

from __future__ import annotations


class ScorerError(Exception):
    """Input the scorer cannot score; rendered as ``FILE:LINE: message``.

    ``where`` is a list of ``(path, line)`` places (``line`` may be None): one for
    a problem in one file, two for a key/response misalignment.
    """

    def __init__(self, message: str, *where: tuple[str, int | None]):
        super().__init__(message, *where)  # all in args, so that it pickles
        self.message = message
        self.where = list(where)

    def __reduce__(self):
        # Rebuilt with its places as they are now (they may have been renamed).
        return (self.__class__, (self.message, *self.where))

    def __str__(self) -> str:
        places = " vs ".join(
            path if line is None else f"{path}:{line}" for path, line in self.where
        )
        return f"{places}: {self.message}" if places else self.message


class OptionError(ScorerError, ValueError):
    """A scoring option that is unknown, contradicts another or that the
    files' format cannot honour (one line naming the option; the API's
    422). A ``ValueError`` too, as a bad argument is."""


def run_command(prog: str, main) -> int:
    """A command's ``main()`` with its output written out: a reader that went
    away (``| head``) ends it quietly with 1, any other failure to write (a
    full disk) is one line on stderr and 2, an interrupt one line and 130
    (:mod:`.interrupts`), never a traceback."""
    import os
    import sys

    from . import interrupts

    try:
        with interrupts.raising():
            code = main()
            sys.stdout.flush()
        return code
    except KeyboardInterrupt:
        return interrupts.report(prog)
    except BrokenPipeError:
        # Nothing more can reach the reader; the interpreter must not try again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except OSError as err:
        try:
            sys.stdout = open(os.devnull, "w")
            print(f"{prog}: error: cannot write the output: {err.strerror or err}", file=sys.stderr)
        except OSError:
            pass
        return 2
    except Exception as err:
        # An interrupt that Python wrapped on its way up (raised in a class's
        # __set_name__ while a module was imported: a RuntimeError caused by it).
        if _from_interrupt(err):
            return interrupts.report(prog)
        raise


def _from_interrupt(err: BaseException) -> bool:
    seen = set()
    while err is not None and id(err) not in seen:
        if isinstance(err, KeyboardInterrupt):
            return True
        seen.add(id(err))
        err = err.__cause__ or err.__context__
    return False


def plain_list(values, conjunction: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c``: values as a sentence names them."""
    values = [str(v) for v in values]
    if len(values) <= 1:
        return "".join(values) or "none"
    return f"{', '.join(values[:-1])} {conjunction} {values[-1]}"


def plain_setting(value) -> str:
    """An option's value in words: ``muc, bcub and ceafe``, ``on``, ``none``."""
    if isinstance(value, (list, tuple)):
        return plain_list(value)
    if isinstance(value, bool):
        return "on" if value else "off"
    return "none" if value is None else str(value)
