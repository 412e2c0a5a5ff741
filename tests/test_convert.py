"""``convert``: round trips between every pair of formats on generated
annotations (tests/matrix_files.py: zero-only entities, spans in two
entities, split antecedents, discontinuous mentions, documents without
entities), plain and gzip. A conversion that names no loss must come back
scoring as the original on every figure of ``-m every`` (and the format's
layers) under each format's option sets; one that loses something names
each loss with the count worked out here from the generated annotation.
Then the conversions that lost data without a word (issue 33, items 6 and
7), each reproduced."""

from __future__ import annotations

import gzip
import itertools
import json
import re
import shutil
from collections import Counter

import pytest

import matrix_files as mf
from conftest import FIXTURES, LONG, run_cli
from test_conll_filters import KEY_VP, RESPONSE_VP, conll

FORMATS = tuple(mf.WRITERS)
# Option sets each format is scored under; every figure of each must agree.
FLAGS = {"corefud": (("-m", "every", "bridging", "empty-nodes"),
                     ("-s", "-l", "-m", "every", "bridging", "empty-nodes"),
                     ("-a", "exact", "-z", "linear", "-s", "-m", "every")),
         "ua": (("-m", "every"), ("-s", "-l", "-m", "every"), ("-d", "-m", "every"),
                ("--keep-zeros", "-a", "partial", "-s", "-m", "every")),
         "conll": (("-s", "-m", "every"), ("-m", "every", "--remove-nested-mentions")),
         "jsonlines": (("-s", "-m", "every"),)}
RE_LOSS = re.compile(r"(\d+) (.+?)(?=, \d+ |$)")


def figures(data, path: str = ""):
    """Every figure of a JSON report: recall, precision, F1 and values, parts included."""
    if isinstance(data, dict):
        for name, value in data.items():
            if name in ("recall", "precision", "f1", "value") and not isinstance(value, dict):
                yield f"{path}/{name}", value
            elif name not in ("counts", "settings", "warnings", "signature"):
                yield from figures(value, f"{path}/{name}")


def scores(key, response, flags) -> dict:
    run = run_cli(key, response, *flags, "--output", "json")
    assert run.code == 0, run.err
    return dict(figures(run.json["metrics"]))


def warned(err: str, target: str) -> Counter:
    """The losses one warning line names, by kind."""
    if not err:
        return Counter()
    prefix = f"corefud-scorer: warning: the {target} format cannot hold, left out: "
    assert err.startswith(prefix) and err.count("\n") == 1, err
    return Counter({kind: int(n) for n, kind in RE_LOSS.findall(err[len(prefix):].rstrip("\n"))})


# --- what each conversion must name, worked out from the generated annotation ---

def expected_losses(docs, source: str, target: str) -> Counter:
    lost = Counter()
    # What only CoNLL-U files hold, written to a format of spans.
    lossy = target in ("conll", "jsonlines") and source in ("corefud", "ua")
    for doc in docs:
        coref = doc.coref()
        words = sum(1 for s in doc.sentences for slot in s.slots if slot[0] == "w")
        empties = sum(1 for s in doc.sentences for slot in s.slots if slot[0] == "e")
        pairs = sum(len(plurals) for plurals in doc.element_of.values())
        if source == "ua" and target != "ua":
            lost["non-referring markables"] += sum(m.non_referring for m in doc.markables)
            lost["discourse-deixis entities"] += len({m.entity for m in doc.markables if m.deixis})
        if source == "corefud":
            lost["Entity attributes (etype, other)"] += len(coref)  # every mention has an etype
        if lossy:
            lost["bridging links"] += len(doc.bridging)
            lost["split-antecedent links"] += pairs
            lost["zero mentions (empty nodes)"] += sum(doc.is_zero(m) for m in coref)
            lost["discontinuous mentions"] += sum(len(m.parts) > 1 and not doc.is_zero(m) for m in coref)
            lost["mention heads (or minimum spans)"] += sum(
                len(m.parts) == 1 and not doc.is_zero(m) and m.head != m.parts[0][0] for m in coref)
            lost["empty nodes"] += empties
            lost["sentence ids"] += len(doc.sentences)
            lost["words' LEMMA, UPOS, FEATS, DEPS or MISC"] += words
        if target == "jsonlines" and source != "jsonlines":
            lost["part-of-speech tags"] += words
        if source == "ua" and target == "corefud":
            # CorefUD's SplitAnte names two entities or more.
            elements = Counter(p for plurals in doc.element_of.values() for p in plurals)
            lost["split-antecedent links"] += sum(n for n in elements.values() if n < 2)
    return Counter({kind: n for kind, n in lost.items() if n})


def _write(docs, fmt: str, path, packed: bool):
    mf.WRITERS[fmt](docs, path)
    if packed:
        with open(path, "rb") as plain, gzip.open(f"{path}.gz", "wb") as zipped:
            shutil.copyfileobj(plain, zipped)
        return f"{path}.gz"
    return str(path)


# Kinds whose files every format reads (a CoNLL-2012 or jsonlines document
# cannot be empty: the empty-doc kind is read from CoNLL-U files only).
PAIRS = [(kind, a, b) for kind in mf.KINDS for a in FORMATS for b in FORMATS
         if a != b and not (kind == "empty-doc" and a in ("conll", "jsonlines"))]
CASES = [(kind, a, b, packed) for kind, a, b in PAIRS for packed in ("", "source", "target")]
# The default run: every pair of formats on the hard kinds, a third of them
# from a gzip file and a third to one.
SAMPLE = [(kind, a, b, ("", "source", "target")[n % 3])
          for n, (kind, a, b) in enumerate(p for p in PAIRS if p[0] in ("rich", "shared", "zeros"))]


@pytest.mark.parametrize("kind,source,target,packed", CASES if LONG else SAMPLE)
def test_round_trip(tmp_path, kind, source, target, packed):
    docs = mf.annotation(kind, 11)
    original = _write(docs, source, tmp_path / f"key{mf.SUFFIX[source]}", packed == "source")
    copy = _write(docs, source, tmp_path / f"copy{mf.SUFFIX[source]}", False)
    middle = tmp_path / f"middle{mf.SUFFIX[target]}{'.gz' if packed == 'target' else ''}"
    run = run_cli("convert", original, middle)
    assert run.code == 0, run.err
    expected = expected_losses(docs, source, target)
    assert warned(run.err, target) == expected
    back = tmp_path / f"back{mf.SUFFIX[source]}"
    run = run_cli("convert", middle, back)
    assert run.code == 0, run.err
    if expected:
        return
    # Nothing lost: the copy's figures, option set by option set.
    for flags in FLAGS[source]:
        assert scores(original, back, flags) == scores(original, copy, flags), flags


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_file_converted_to_its_own_format_is_kept_whole(tmp_path, fmt):
    docs = mf.annotation("rich", 5)[:3]
    source = _write(docs, fmt, tmp_path / f"key{mf.SUFFIX[fmt]}", True)
    for name in (f"out{mf.SUFFIX[fmt]}", f"out{mf.SUFFIX[fmt]}.gz"):
        run = run_cli("convert", source, tmp_path / name)
        assert run.code == 0 and not run.err
        with gzip.open(source, "rb") as original, open(tmp_path / name, "rb") as out:
            written = out.read()
            assert (gzip.decompress(written) if name.endswith(".gz") else written) == original.read()


# --- issue 33: what convert lost without a word ---

UA_HEADER = "# global.columns = ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY BRIDGING\n"
# Two sentences with a multiword token, empty nodes with every column,
# comments of their own, and mentions over an empty node (e1: words 1-3
# and the empty node 2.1 between them; e2 a zero).
WITH_EMPTY_NODES = """# newdoc id = d
# global.Entity = eid-etype-head-other
# meta::source = test
# sent_id = d-1
# text = Cannot stop now
1-2\tCannot\t_\t_\t_\t_\t_\t_\t_\t_
1\tCan\tcan\tAUX\tMD\tVerbForm=Fin\t3\taux\t3:aux\tEntity=(e1-event-4
2\tnot\tnot\tPART\tRB\tPolarity=Neg\t3\tadvmod\t3:advmod\t_
2.1\twe\twe\tPRON\tPRP\tCase=Nom\t_\t_\t3:nsubj\tCopyOf=5
3\tstop\tstop\tVERB\tVB\tVerbForm=Inf\t0\troot\t0:root\tEntity=e1)
4\tnow\tnow\tADV\tRB\t_\t3\tadvmod\t3:advmod\tSpaceAfter=No

# newpar
# sent_id = d-2
# text = Really
1\tReally\treally\tADV\tRB\t_\t0\troot\t0:root\tEntity=(e3-manner-1)
1.1\tthey\tthey\tPRON\tPRP\tCase=Nom\t_\t_\t1:nsubj\tEntity=(e2-person-1)
1.2\tit\tit\tPRON\tPRP\tCase=Acc\t_\t_\t1:obj\t_

"""


def test_corefud_to_corefud_keeps_the_file(tmp_path):
    """Item 6: empty nodes' FORM, LEMMA and DEPS, multiword tokens and
    comments were dropped (-m empty-nodes 0 against the original)."""
    source, out = tmp_path / "key.conllu", tmp_path / "copy.conllu"
    source.write_text(WITH_EMPTY_NODES)
    run = run_cli("convert", source, out)
    assert run.code == 0 and not run.err
    assert out.read_text() == WITH_EMPTY_NODES
    assert set(scores(source, out, ("-m", "empty-nodes")).values()) == {1.0}


def test_corefud_to_ua_keeps_mentions_over_empty_nodes(tmp_path):
    """Item 6: a mention over an empty node lost it in UA, and a round
    trip moved MOR and MUC; now the UA file holds every line, the UA
    markable runs over the empty node, and the way back scores as the
    original on every figure."""
    source, middle, back = tmp_path / "key.conllu", tmp_path / "key.ua.conllu", tmp_path / "back.conllu"
    source.write_text(WITH_EMPTY_NODES)
    run = run_cli("convert", source, middle)
    assert run.code == 0 and run.err.endswith("left out: 3 Entity attributes (etype, other)\n")
    assert "1-2\tCannot" in middle.read_text() and "1.2\tit\tit\tPRON" in middle.read_text()
    assert run_cli("convert", middle, back).code == 0
    for flags in FLAGS["corefud"]:
        assert scores(source, back, flags) == scores(source, source, flags), flags
    assert back.read_text().count("1-2\tCannot") == 1


def test_corefud_to_ua_names_empty_nodes_a_markable_cannot_hold(tmp_path):
    """A mention beginning on an empty node, a zero of two: UA cannot hold
    them (a markable begins and ends on words, a zero is one node)."""
    text = WITH_EMPTY_NODES.replace("1.1\tthey\tthey\tPRON\tPRP\tCase=Nom\t_\t_\t1:nsubj\tEntity=(e2-person-1)\n"
                                    "1.2\tit\tit\tPRON\tPRP\tCase=Acc\t_\t_\t1:obj\t_",
                                    "1.1\tthey\tthey\tPRON\tPRP\tCase=Nom\t_\t_\t1:nsubj\tEntity=(e2-person-1\n"
                                    "1.2\tit\tit\tPRON\tPRP\tCase=Acc\t_\t_\t1:obj\tEntity=e2)")
    text = text.replace("2.1\twe\twe\tPRON\tPRP\tCase=Nom\t_\t_\t3:nsubj\tCopyOf=5\n3\tstop",
                        "2.1\twe\twe\tPRON\tPRP\tCase=Nom\t_\t_\t3:nsubj\tCopyOf=5|Entity=(e4-person-1\n3\tstop")
    text = text.replace("Entity=e1)", "Entity=e4)e1)")
    source = tmp_path / "key.conllu"
    source.write_text(text)
    run = run_cli("convert", source, tmp_path / "key.ua.conllu")
    assert run.code == 0
    assert warned(run.err, "ua")["mentions' empty nodes at their edges (a UA markable begins and ends on words; "
                                 "a zero is one node)"] == 2


def _ua_file(cells) -> str:
    """A UA document of one sentence of five words, A to E, with these IDENTITY cells."""
    lines = [UA_HEADER.rstrip(), "# newdoc id = d", "# sent_id = d-1"]
    lines += [f"{k}\t{form}\t_\t_\t_\t_\t{0 if k == 1 else 1}\t{'root' if k == 1 else 'dep'}\t_\t_\t{cell}\t_"
              for k, (form, cell) in enumerate(zip("ABCDE", cells), 1)]
    return "\n".join(lines) + "\n\n"


def _through_writer(source, target, fmt: str) -> Counter:
    """Write ``source`` with the ``fmt`` writer, whatever the source's format
    (``convert`` copies a file of the target's own format)."""
    from corefud_scorer.jobs.convert import text_documents
    from corefud_scorer.formats.writers import writer

    module, lost = writer(fmt), Counter()
    with open(target, "w", encoding="utf-8") as handle:
        module.write(text_documents(str(source), None, lost, module.HOLDS), handle, lost)
    return lost


def test_a_span_in_two_entities_keeps_its_order(tmp_path):
    """Item 7: UA -> UA changed BLANC with -s: the writer wrote the two
    markables of one span by their entities' names, and the reader reads
    a span in two entities by entity order."""
    key, response = tmp_path / "key.ua.conllu", tmp_path / "response.ua.conllu"
    key.write_text(_ua_file(["(EntityID=x|MarkableID=m1)", "(EntityID=y|MarkableID=m2)",
                             "(EntityID=x|MarkableID=m3)", "(EntityID=y|MarkableID=m4)", "_"]))
    # Entity z opens before entity b on "A": not the order of their names.
    response.write_text(_ua_file(["(EntityID=z|MarkableID=m1)(EntityID=b|MarkableID=m5)",
                                  "(EntityID=b|MarkableID=m2)", "(EntityID=z|MarkableID=m3)",
                                  "(EntityID=b|MarkableID=m4)", "_"]))
    flags = ("-s", "-m", "every")
    expected = scores(key, response, flags)
    converted = tmp_path / "converted.ua.conllu"
    assert run_cli("convert", response, converted).code == 0
    assert scores(key, converted, flags) == expected
    # The UA writer itself, and a round trip through CorefUD.
    written, middle, back = (tmp_path / name for name in ("written.ua.conllu", "middle.conllu", "back.ua.conllu"))
    assert not _through_writer(response, written, "ua")
    assert run_cli("convert", response, middle).code == 0 and run_cli("convert", middle, back).code == 0
    for path in (written, back):
        assert scores(key, path, flags) == expected
        assert scores(key, path, ("-s", "-m", "blanc")) == scores(key, response, ("-s", "-m", "blanc"))


def test_corefud_entities_keep_their_order_past_nine(tmp_path):
    """Udapi orders two entities whose first mentions share a span by their
    names: the names the writer gives keep the model's order past the
    ninth entity (``e09`` before ``e10``, not ``e10`` before ``e9``)."""
    def document(cells):
        lines = ["# newdoc id = d", "# global.Entity = eid-etype-head-other", "# sent_id = d-1", "# text = w"]
        lines += [f"{k}\tw{k}\t_\t_\t_\t_\t{0 if k == 1 else 1}\t{'root' if k == 1 else 'dep'}\t_\t{cell}"
                  for k, cell in enumerate(cells, 1)]
        return "\n".join(lines) + "\n\n"

    # Eight entities, then "a" and "b" (the ninth and tenth) both first on word 9.
    singles = [f"Entity=(x{n}-t-1)" for n in range(1, 9)]
    key, response = tmp_path / "key.conllu", tmp_path / "response.conllu"
    key.write_text(document(singles + ["Entity=(k-t-1)", "_", "Entity=(k-t-1)", "Entity=(m-t-1)"]))
    response.write_text(document(singles + ["Entity=(a-t-1)(b-t-1)", "_", "Entity=(a-t-1)", "Entity=(b-t-1)"]))
    middle, back = tmp_path / "middle.ua.conllu", tmp_path / "back.conllu"
    assert run_cli("convert", response, middle).code == 0 and run_cli("convert", middle, back).code == 0
    for flags in FLAGS["corefud"]:
        assert scores(key, back, flags) == scores(key, response, flags), flags


def test_ua_to_ua_keeps_discourse_deixis(tmp_path):
    """Item 6: UA -> UA left out every discourse-deixis entity (-d then
    scored 0); the UA writer now writes them in DISCOURSE_DEIXIS."""
    docs = mf.annotation("rich", 3)
    key, copy, response = (tmp_path / f"{name}.ua.conllu" for name in ("key", "copy", "response"))
    mf.write_ua(docs, key)
    mf.write_ua(docs, copy)
    mf.write_ua(mf.perturbed(docs, 4), response)
    converted, written = tmp_path / "converted.ua.conllu", tmp_path / "written.ua.conllu"
    run = run_cli("convert", key, converted)
    assert run.code == 0 and not run.err
    assert not _through_writer(key, written, "ua")
    for flags in FLAGS["ua"]:
        for path in (converted, written):
            assert scores(path, response, flags) == scores(key, response, flags), (flags, path)
            assert scores(key, path, flags) == scores(key, copy, flags), (flags, path)


def test_ua_to_corefud_warns_once_without_udapi_lines(tmp_path):
    """Item 6: UA -> CorefUD printed Udapi's own lines (``WARNING:root:
    SplitAnte of e44 ...``) for a plural of one element; now one warning
    line counts it."""
    import subprocess
    import sys

    lines = [UA_HEADER.rstrip(), "# newdoc id = d", "# sent_id = d-1",
             "1\tThey\t_\t_\t_\t_\t0\troot\t_\t_\t(EntityID=p|MarkableID=m1)\t_",
             "2\tshe\t_\t_\t_\t_\t1\tdep\t_\t_\t(EntityID=a|MarkableID=m2|ElementOf=p)\t_",
             "3\tit\t_\t_\t_\t_\t1\tdep\t_\t_\t(EntityID=c|MarkableID=m3|Min=3)\t_"]
    source = tmp_path / "key.ua.conllu"
    source.write_text("\n".join(lines) + "\n\n")
    done = subprocess.run([sys.executable, "-m", "corefud_scorer", "convert", str(source), str(tmp_path / "k.conllu")],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0
    assert done.stderr == ("corefud-scorer: warning: the corefud format cannot hold, left out: "
                           "2 mention heads (or minimum spans), 1 split-antecedent links\n")


def test_conll_output_keeps_the_part_of_speech_and_the_parse(tmp_path):
    """Item 6: CoNLL-2012 output wrote '-' for the part of speech and the
    parse, so that --np-only could not read a converted key."""
    key, response = tmp_path / "key.conll", tmp_path / "response.conll"
    key.write_text(conll(KEY_VP))
    response.write_text(conll(RESPONSE_VP, parse=False))
    packed = tmp_path / "key.conll.gz"
    assert run_cli("convert", key, packed).code == 0
    plain = tmp_path / "key-again.conll"
    assert run_cli("convert", packed, plain).code == 0
    flags = ("-m", "muc", "--np-only")
    assert scores(plain, response, flags) == scores(key, response, flags) == {
        "/muc/recall": 0.5, "/muc/precision": 1.0, "/muc/f1": 2 / 3}
    # From CoNLL-U, the part of speech is XPOS's (else UPOS's).
    out = tmp_path / "example.conll"
    assert run_cli("convert", FIXTURES / "seed" / "pradhan2014.key.conllu", out).code == 0
    source = [line.split("\t") for line in (FIXTURES / "seed" / "pradhan2014.key.conllu").read_text().splitlines()
              if line and not line.startswith("#")]
    tags = [line.split("\t")[4] for line in out.read_text().splitlines() if line and not line.startswith("#")]
    assert tags == [cells[4] if cells[4] != "_" else (cells[3] if cells[3] != "_" else "-") for cells in source]


def test_conll_document_names_come_back(tmp_path):
    """Item 6: CoNLL-2012 -> CorefUD/UA renamed documents NAME_0; a name
    and its part now come back from every format."""
    text = conll(KEY_VP[:1]).replace("(d); part 000", "(bc/cctv/00/cctv_0000); part 000")
    text += conll(KEY_VP[1:]).replace("(d); part 000", "(bc/cctv/00/cctv_0000); part 001")
    key = tmp_path / "key.conll"
    key.write_text(text)
    begins = [line for line in text.splitlines() if line.startswith("#begin")]
    for suffix, names in ((".conllu", ["bc/cctv/00/cctv_0000", "(bc/cctv/00/cctv_0000); part 001"]),
                          (".ua.conllu", ["bc/cctv/00/cctv_0000", "(bc/cctv/00/cctv_0000); part 001"]),
                          (".jsonl", ["bc/cctv/00/cctv_0000_0", "bc/cctv/00/cctv_0000_1"])):
        middle, back = tmp_path / f"middle{suffix}", tmp_path / f"back{suffix}.conll"
        assert run_cli("convert", key, middle).code == 0 and run_cli("convert", middle, back).code == 0
        written = middle.read_text()
        found = ([json.loads(line)["document_id"] for line in written.splitlines()] if suffix == ".jsonl" else
                 [line.split(" = ", 1)[1] for line in written.splitlines() if line.startswith("# newdoc")])
        assert found == names
        assert [line for line in back.read_text().splitlines() if line.startswith("#begin")] == begins
