"""Hostile inputs, made at the size asked in a moment and on little disk:
what bench/hostile.py measures and tests/test_hostile.py refuses.

Bombs are built from one compressed block repeated: a gzip file may hold
many members one after the other, so a megabyte compressed once gives a
gigabyte of text in a file of a megabyte.
"""

from __future__ import annotations

import gzip
import json
import zipfile

MB = 2 ** 20
# One CoNLL-2012 token line: valid, so that a reader goes on reading.
CONLL_TOKEN = b"doc 0 0 word NN * - - - - * -\n"
CONLL_BEGIN = b"#begin document (doc); part 000\n"
UA_COLUMNS = ("# global.columns = ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY BRIDGING "
              "DISCOURSE_DEIXIS REFERENCE")


def gzip_bomb(path: str, megabytes: int, line: bytes | None = None, first: bytes = b"") -> None:
    """A gzip file of ``first`` and then ``megabytes`` MB of ``line``
    repeated (zero bytes without a line end when None)."""
    block = bytes(MB) if line is None else line * (MB // len(line))
    member = gzip.compress(block, compresslevel=9, mtime=0)
    with open(path, "wb") as handle:
        if first:
            handle.write(gzip.compress(first, mtime=0))
        for _ in range(megabytes):
            handle.write(member)


def zip_bomb(path: str, members, megabytes: float, line: bytes | None = None) -> None:
    """A zip whose members (a name or several) are ``megabytes`` MB each of
    ``line`` repeated (zero bytes without a line end when None)."""
    block = bytes(MB) if line is None else line * (MB // len(line))
    whole, part = divmod(int(megabytes * MB), MB)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for member in [members] if isinstance(members, str) else members:
            with archive.open(member, "w", force_zip64=True) as handle:
                for _ in range(whole):
                    handle.write(block)
                handle.write(block[:part])


def many_members(path: str, count: int) -> None:
    """A zip of ``count`` empty CoNLL-U members."""
    with zipfile.ZipFile(path, "w") as archive:
        for k in range(count):
            archive.writestr(f"m{k}.conllu", "")


def slipping(path: str, names=("../../outside.conllu", "/tmp/corefud-scorer-absolute.conllu")) -> None:
    """A zip whose members would land outside the folder it is unpacked in."""
    with zipfile.ZipFile(path, "w") as archive:
        for name in names:
            archive.writestr(zipfile.ZipInfo(name), "# newdoc id = x\n")


def long_line(path: str, megabytes: int) -> None:
    """A file of zero bytes and no line end."""
    zeros = bytes(MB)
    with open(path, "wb") as handle:
        for _ in range(megabytes):
            handle.write(zeros)


def _token(k: int, misc: str = "_") -> str:
    head, relation = (0, "root") if k == 1 else (1, "dep")
    return f"{k}\tw{k}\tw\tX\t_\t_\t{head}\t{relation}\t_\t{misc}"


def nested(path: str, mentions: int, words: int = 3) -> None:
    """CorefUD: ``mentions`` mentions of as many entities over the words of
    one sentence, opened on its first word and closed on its last."""
    opening = "".join(f"(e{i}" for i in range(mentions))
    closing = "".join(f"e{i})" for i in reversed(range(mentions)))
    lines = ["# newdoc id = d", "# global.Entity = eid-etype-head-other", "# sent_id = s1"]
    lines += [_token(k, f"Entity={opening}" if k == 1 else f"Entity={closing}" if k == words else "_")
              for k in range(1, words + 1)]
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n\n")


def nested_in(fmt: str, path: str, mentions: int) -> None:
    """The same nesting (on three words) in another format: ``ua``,
    ``conll`` or ``jsonlines``."""
    if fmt == "conll":
        opening = "|".join(f"({i}" for i in range(mentions))
        closing = "|".join(f"{i})" for i in reversed(range(mentions)))
        text = (CONLL_BEGIN.decode() + f"doc 0 0 a X * - - - - * {opening}\ndoc 0 1 b X * - - - - * -\n"
                f"doc 0 2 c X * - - - - * {closing}\n\n#end document\n")
    elif fmt == "jsonlines":
        text = json.dumps({"doc_key": "doc_0", "sentences": [["a", "b", "c"]],
                           "clusters": [[[0, 2]] for _ in range(mentions)]}) + "\n"
    else:
        opening = "".join(f"(EntityID={i}|MarkableID=m{i}" for i in range(mentions))
        empty = "\t".join("_" * 8)
        text = (f"{UA_COLUMNS}\n# newdoc id = d\n# sent_id = 1\n1\ta\t{empty}\t{opening}\t_\t_\t_\n"
                f"2\tb\t{empty}\t_\t_\t_\t_\n3\tc\t{empty}\t{')' * mentions}\t_\t_\t_\n\n")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)


def small_key(path: str, doc: str = "d") -> None:
    """A valid CorefUD file of two sentences and one entity of two mentions."""
    lines = [f"# newdoc id = {doc}", "# global.Entity = eid-etype-head-other"]
    for s in (1, 2):
        lines += [f"# sent_id = {doc}-{s}", _token(1, "Entity=(e1-x-1)"), _token(2), ""]
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")
