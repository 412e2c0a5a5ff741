"""files.text_batches gives a file's lines as splitting its whole text at
each line break gives them, numbered from 1, whatever the blocks it reads
them in: a line end of CR LF, a byte-order mark, lines that are not UTF-8
(collected with their line numbers, or the first raised), a last line with
or without a line break, an empty file."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from corefud_scorer.errors import ScorerError
from corefud_scorer.formats.problems import Problems
from corefud_scorer.formats.readers import files

PIECES = [b"a", b"\xc3\xa9", b"\t", b" ", b"\r", b"\n", b"\r\n", b"(x)", b"\xff", b"\xe2\x82", b"\xef\xbb\xbf"]


def expected(content: bytes) -> tuple[list[tuple[int, str]], list[int]]:
    """The lines and the numbers of the lines that are not UTF-8, line by line."""
    lines, bad = [], []
    for number, data in enumerate(content.split(b"\n"), 1):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            bad.append(number)
            text = data.decode("utf-8", errors="replace")
        if number == 1 and text.startswith("\ufeff"):
            text = text[1:]
        lines.append((number, text.rstrip("\r")))
    return lines, bad


def given_lines(path, problems=None) -> list[tuple[int, str]]:
    return [(first + i, text) for first, texts in files.text_batches(str(path), "UA", problems)
            for i, text in enumerate(texts)]


@settings(max_examples=120, deadline=None)
@given(content=st.lists(st.sampled_from(PIECES), max_size=60).map(b"".join),
       block=st.integers(min_value=1, max_value=9))
def test_lines_whatever_the_blocks(tmp_path_factory, content, block):
    path = tmp_path_factory.mktemp("batches") / "file.ua"
    path.write_bytes(content)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(files.BoundedText._chunk, "__defaults__", (block,))  # bytes read at a time
        check(path, content)


def check(path, content: bytes) -> None:
    lines, bad = expected(content)
    problems = Problems(collect=True)
    assert given_lines(path, problems) == lines
    assert [p.line for p in problems.items] == bad
    if bad:
        with pytest.raises(ScorerError) as raised:
            given_lines(path)
        assert raised.value.where[0][1] == bad[0]
    else:
        assert given_lines(path) == lines
