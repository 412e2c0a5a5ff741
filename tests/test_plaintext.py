"""The plaintext format of the CRAC 2025 LLM track: a response read against
its CoNLL-U key (words aligned as the track's ``clean`` aligns them,
brackets repaired by one rule each, mentions placed and headed on the key's
trees), and ``convert --to plaintext`` (``conllu2text -s -z``, ``-b -z``)."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from conftest import FIXTURES, conllu, run_cli
from corefud_scorer.formats.readers import read_against_key
from corefud_scorer.formats.readers.plaintext_align import align
from corefud_scorer.model import position

KEY = FIXTURES / "example" / "key.conllu"
# What convert --to plaintext writes for the example key (conllu2text -s -z writes the same):
# the zero 3.1 (DEPS 4:nsubj) moved after "ran", the zero 0.1 (2:nsubj) after "it".
EXAMPLE = [
    "Mary|[e1] walked her|[e1] old|[e2 dog|e2] in the|[e3 park|e3] . It|[e2] barked and ran ##|[e2] after "
    "a|[e4 cat|e4] . The|[e4 cat|e4] hid in the|[e3 park|e3] .",
    "Tom|[e1] wrote a|[e2 long letter|e2] . Sent it|[e2] ##|[e1] to Anna|[e3] .",
]


def documents(key, response):
    """The response's documents as scored: {doc id: {entity: [(words, head, zero)]}}."""
    keys, (responses,) = read_against_key(str(key), [str(response)], "corefud")
    out = {}
    for _, doc in zip(keys, responses):
        loaded = doc.load()
        out[loaded.doc_id] = {e.eid: [(m.words, m.head, m.is_zero) for m in e.mentions] for e in loaded.entities}
        out[loaded.doc_id, "warnings"] = loaded.warnings
    return out


def figures(*args):
    run = run_cli(*args, "--output", "json", "-m", "all")
    assert run.code == 0, run.err
    return {name: m.get("f1", m.get("value")) for name, m in run.json["metrics"].items()}, run


def warning_counts(err: str) -> Counter:
    """The counts of the repairs warning line, by name."""
    line = next(line for line in err.splitlines() if "repaired" in line)
    listed = line.split("repaired: ", 1)[1].rsplit(" (first", 1)[0]
    return Counter({name: int(n) for n, name in (item.split(" ", 1) for item in listed.split(", "))})


def test_convert_writes_conllu2text_and_its_blind_text(tmp_path):
    out, blind = tmp_path / "out.txt", tmp_path / "blind.txt"
    run = run_cli("convert", KEY, out)
    assert run.code == 0 and out.read_text().splitlines() == EXAMPLE
    assert "left out: 2 empty-node positions (moved after their enhanced parent)" in run.err
    assert run_cli("convert", KEY, blind, "--to", "plaintext", "--blind").code == 0
    assert blind.read_text().splitlines() == [re.sub(r"\|\S+", "", line) for line in EXAMPLE]


def test_blind_is_refused_for_other_formats(tmp_path):
    run = run_cli("convert", KEY, tmp_path / "out.jsonl", "--blind")
    assert run.code == 2 and "--blind" in run.err and len(run.err.splitlines()) == 1
    assert not (tmp_path / "out.jsonl").exists()


def test_the_example_reads_back_as_the_key(write):
    response = write("out.txt", "\n".join(EXAMPLE) + "\n")
    ours, run = figures(KEY, response)
    same, _ = figures(KEY, KEY)
    # MOR reads the two zeros' positions, which the format moves after their parents
    assert ours == {**same, "mor": 0.9} and not run.json["warnings"]


def test_nested_and_one_word_mentions_on_one_token(write):
    key = write("key.conllu", conllu({"d": [[(1, "Los", "(e1-x-1-"), (2, "jugadores", None), (3, "de", None),
                                             (4, "el", None), (5, "Espanyol", "(e2-x-1-)e1)"), (6, "aseguraron", None)]]}))
    response = write("out.txt", "Los|[e1 jugadores de el Espanyol|[e2],e1] aseguraron\n")
    entities = documents(key, response)["d"]
    words = [position(0, k) for k in range(1, 6)]
    assert sorted(entities.values()) == [[(tuple(words), words[0], False)], [((words[4],), words[4], False)]]


def test_zeros_align_with_the_key_empty_nodes_whatever_their_form(write):
    sentence = [(1, "Llegó", None), ("1.1", "él", "(e1-x-1-)", "1:nsubj"), (2, "Juan", "(e1-x-1-)")]
    key = write("key.conllu", conllu({"d": [sentence]}))
    for zero in ("##", "##él", "##él|junk"):
        tags = "" if "|" in zero else "|[e1]"
        response = write("out.txt", f"Llegó {zero}{tags} Juan|[e1]\n")
        entities = documents(key, response)["d"]
        if "junk" in zero:
            assert entities == {"e1": [((position(0, 2),), position(0, 2), False)]}
        else:
            assert entities == {"e1": [((position(0, 1.1),), position(0, 1.1), True),
                                       ((position(0, 2),), position(0, 2), False)]}


def test_the_separator_and_a_spaced_form_are_words(write):
    key = write("key.conllu", conllu({"d": [[(1, "a", None), (2, "|", "(e1-x-1-)"), (3, "10 000", "(e2-x-1-)"),
                                             (4, "b|c", None), (5, "|", None)]]}))
    response = write("out.txt", "a ||[e1] 10_000|[e2] b|c |\n")
    found = documents(key, response)
    assert found["d"] == {"e1": [((position(0, 2),), position(0, 2), False)],
                          "e2": [((position(0, 3),), position(0, 3), False)]}
    # "b|c" reads as the word "b" with a malformed tag, as the official tools read it
    assert found["d", "warnings"][0][2] == Counter({"response words replaced by the key's": 1,
                                                    "malformed tags dropped": 1})


def test_an_empty_document_is_all_inserted(write):
    key = write("key.conllu", conllu({"d1": [[(1, "One", "(e1-x-1-)"), (2, "two", None)]],
                                      "d2": [[(1, "Three", "(e2-x-1-)")]]}))
    response = write("out.txt", "\nThree|[e2]\n")
    found = documents(key, response)
    assert found["d1"] == {} and found["d2"] == {"e2": [((position(0, 1),), position(0, 1), False)]}
    assert found["d1", "warnings"][0][2] == Counter({"key words the response lacks inserted": 2})
    assert found["d2", "warnings"] == []


@pytest.mark.parametrize("text,message", [
    ("Three|[e2]\n", r"out\.txt vs .*key\.conllu:6: the response ends after 1 documents \(lines\), but the "
                     r"key goes on with document 'd2'"),
    ("a\nb\nc\n", r"out\.txt:3: a document more than the key's 2 \(line 3 is not blank\)"),
    ("a\tb\nc\n", r"out\.txt:1: a tab: not a plaintext file"),
    ("", r"out\.txt vs .*key\.conllu:1: the response ends after 0 documents"),
])
def test_a_response_the_key_cannot_read_is_one_error(write, text, message):
    key = write("key.conllu", conllu({"d1": [[(1, "One", None)]], "d2": [[(1, "Three", None)]]}))
    response = write("out.txt", text)
    for asked in (["--format", "plaintext"], []):
        run = run_cli(key, response, *asked)
        assert run.code == 2 and len(run.err.splitlines()) == 1, run.err
        # found by its content, or by its name when it has none; a tab makes it no plaintext file
        assert re.search(message, run.err) or (not asked and "\t" in text), run.err


def test_blank_lines_after_the_last_document_are_ignored(write):
    response = write("out.txt", "\n".join(EXAMPLE) + "\n\n\n")
    assert run_cli(KEY, response).code == 0


def test_a_plaintext_file_is_no_key(write):
    response = write("out.txt", "\n".join(EXAMPLE) + "\n")
    run = run_cli(response, KEY)
    assert run.code == 2 and "is a response, read against its key" in run.err and len(run.err.splitlines()) == 1


def test_planted_damage_is_repaired_and_counted(write):
    lines = list(EXAMPLE)
    # dropped "walked" and "in", inserted "uh", misspelt "barked" and "cat|e4]" (its closing tag
    # lost: "a|[e4" never closed), "e3]" of the first "park" dropped (never closed), "[e1]" of
    # "Tom" turned into an unopened "e1]", a tag with a second bar, a malformed tag
    for old, new in (("walked ", ""), (" in the|[e3 park|e3]", " the|[e3 park uh"), ("barked", "barkd"),
                     ("a|[e4 cat|e4]", "a|[e4 cta|e4]")):
        lines[0] = lines[0].replace(old, new, 1)
    for old, new in (("Tom|[e1]", "Tom|e1]"), ("Anna|[e3]", "Anna|[e3]|x"), ("it|[e2]", "it|[e2],e")):
        lines[1] = lines[1].replace(old, new, 1)
    response = write("out.txt", "\n".join(lines) + "\n")
    ours, run = figures(KEY, response)
    assert warning_counts(run.err) == Counter({
        "key words the response lacks inserted": 2, "response words not in the key deleted": 1,
        "response words replaced by the key's": 2, "tags lost with deleted or replaced words": 1,
        "malformed tags dropped": 1, "words with a second | (tags dropped)": 1,
        "closing tags with nothing open made one-word mentions": 1,
        "opening tags never closed made one-word mentions": 2})
    found = documents(KEY, response)
    # the unclosed "the|[e3" and "a|[e4" are one-word mentions
    assert ((position(0, 7),), position(0, 7), False) in found["walk"]["e3"]
    assert ((position(1, 6),), position(1, 6), False) in found["walk"]["e4"]
    assert found["letter"]["e1"] == [((position(0, 1),), position(0, 1), False),
                                     ((position(1, 2.1),), position(1, 2.1), True)]
    assert len(run.err.splitlines()) == 1


def _reference(response, key):
    """The alignment the official clean computes: a full table of the word
    edit distance, then its backtrace from the end preferring a match, a
    replacement, a deletion, an insertion."""
    m, n = len(response), len(key)
    table = [[i + j if not i or not j else 0 for j in range(n + 1)] for i in range(m + 1)]
    for i in range(1, m + 1):
        for j in range(1, n + 1):
            table[i][j] = (table[i - 1][j - 1] if response[i - 1] == key[j - 1]
                           else 1 + min(table[i - 1][j], table[i][j - 1], table[i - 1][j - 1]))
    i, j, matched, counts = m, n, [None] * n, Counter()
    while i and j:
        if response[i - 1] == key[j - 1]:
            i, j = i - 1, j - 1
            matched[j] = i
        elif table[i][j] == table[i - 1][j - 1] + 1:
            i, j, counts["replaced"] = i - 1, j - 1, counts["replaced"] + 1
        elif table[i][j] == table[i - 1][j] + 1:
            i, counts["deleted"] = i - 1, counts["deleted"] + 1
        else:
            j, counts["inserted"] = j - 1, counts["inserted"] + 1
    counts["inserted"] += j
    counts["deleted"] += i
    return matched, +counts


def test_the_alignment_breaks_ties_as_clean_does():
    rng = random.Random(3)
    for _ in range(3000):
        alphabet = [str(a) for a in range(rng.randint(1, 4))]
        key = [rng.choice(alphabet) for _ in range(rng.randint(0, 12))]
        response = list(key)
        for _ in range(rng.randint(0, 5)):
            op = rng.random()
            if op < 0.3 and response:
                del response[rng.randrange(len(response))]
            elif op < 0.6:
                response.insert(rng.randint(0, len(response)), rng.choice(alphabet + ["x"]))
            elif response:
                response[rng.randrange(len(response))] = rng.choice(alphabet + ["x"])
        found = align(response, key)
        assert (found.matched, +found.counts) == _reference(response, key), (response, key)


def _tree_key(rng: random.Random, sentences: int = 6) -> str:
    """A CoNLL-U key of random trees with enhanced parents, empty nodes
    (some with several parents, some under another empty node) and a few
    mentions, for comparing the tree steps with Udapi's."""
    lines = ["# newdoc id = t", "# global.Entity = eid-etype-head-other"]
    for s in range(sentences):
        n = rng.randint(2, 9)
        lines.append(f"# sent_id = t-{s + 1}")
        heads = [0] + [rng.randint(1, k - 1) for k in range(2, n + 1)]
        empties = {k: rng.randint(0, 2) for k in range(0, n + 1)}
        for k in range(0, n + 1):
            if k:
                deps = f"{heads[k - 1]}:dep"
                if rng.random() < 0.2:
                    deps = "|".join(sorted({deps, f"{rng.randint(0, n)}:x"}))
                lines.append(f"{k}\tw{k}\t_\t_\t_\t_\t{heads[k - 1]}\tdep\t{deps}\t_")
            for m in range(1, empties[k] + 1):
                parents = {f"{rng.randint(0, n)}:nsubj" for _ in range(rng.randint(1, 3))}
                if m > 1 and rng.random() < 0.3:
                    parents.add(f"{k}.1:det")
                deps = "|".join(sorted(parents, key=lambda p: (float(p.split(":")[0]), p)))
                lines.append(f"{k}.{m}\t#e\t_\t_\t_\t_\t_\t_\t{deps}\t_")
        lines.append("")
    return "\n".join(lines) + "\n"


def test_heads_and_single_parents_are_udapis():
    import io
    import logging

    from udapi.block.corefud.movehead import MoveHead
    from udapi.block.corefud.singleparent import SingleParent
    from udapi.block.read.conllu import Conllu
    from udapi.core.document import Document

    from corefud_scorer.formats.readers.corefud_sentence import sentence_blocks
    from corefud_scorer.formats.readers.plaintext_trees import find_head, sentence_tree, single_parent

    rng = random.Random(5)
    move = MoveHead(bugs="")
    checked = 0
    logging.disable(logging.WARNING)
    try:
        for _ in range(15):
            text = _tree_key(rng)
            document = Document()
            Conllu(filehandle=io.StringIO(text)).apply_on_document(document)
            blocks = [b for b in sentence_blocks(text.splitlines()[2:]) if b]
            for tree, block in zip((t for b in document for t in b), blocks):
                ours = sentence_tree(block)
                node = {w: w.ord for w in tree.descendants}
                node.update({e: ours.words + 1 + k for k, e in enumerate(tree.empty_nodes)})
                nodes = tree.descendants_and_empty
                for _ in range(20):
                    first = rng.randrange(len(nodes))
                    words = nodes[first:first + rng.randint(2, 6)]
                    head = rng.choice(words)
                    mention = type("Mention", (), {"words": words, "head": head})()
                    theirs = move.find_head(mention)[0] if len(words) > 1 else head
                    assert node[theirs] == find_head(ours, [node[w] for w in words], node[head])
                    checked += 1
                SingleParent().process_tree(tree)
                single_parent(ours)
                for empty in tree.empty_nodes:
                    expected = [(node[d["parent"]] if d["parent"] in node else 0, d["deprel"]) for d in empty.deps]
                    assert ours.deps[node[empty]] == expected
    finally:
        logging.disable(logging.NOTSET)
    assert checked > 1000


def _follows_parents() -> str:
    """The example key with each zero right after its enhanced parent (the
    format moves none of them)."""
    return KEY.read_text().replace("3.1\t_\t_\t_\t_\t_\t_\t_\t4:nsubj", "3.1\t_\t_\t_\t_\t_\t_\t_\t3:nsubj") \
        .replace("0.1\t_\t_\t_\t_\t_\t_\t_\t2:nsubj", "0.1\t_\t_\t_\t_\t_\t_\t_\t0:nsubj")


@pytest.mark.parametrize("flags", [[], ["-a", "exact"], ["-a", "partial"], ["-z", "linear"], ["-s"],
                                   ["-s", "-a", "exact"], ["-t", "crac25"]])
def test_every_option_reads_a_written_key_as_the_key(write, tmp_path, flags):
    key = write("key.conllu", _follows_parents())
    assert run_cli("convert", key, tmp_path / "out.txt").code == 0
    measures = [] if "-t" in flags else ["-m", "every"]
    ours = run_cli(key, tmp_path / "out.txt", "--output", "json", *measures, *flags)
    same = run_cli(key, key, "--output", "json", *measures, *flags)
    assert ours.code == same.code == 0, ours.err
    assert ours.json["metrics"] == same.json["metrics"]


def test_commands_read_a_plaintext_response(write, tmp_path):
    lines = list(EXAMPLE)
    lines[0] = lines[0].replace("walked", "walkd", 1).replace("the|[e3 park|e3]", "the|[e3 park", 1)
    response = write("out.txt", "\n".join(lines) + "\n")
    run = run_cli("validate", response, "--key", KEY)
    assert run.code == 0 and "repaired: 1 response words replaced by the key's, 1 opening tags never" in run.out
    run = run_cli("errors", KEY, response)
    assert run.code == 0, run.err
    keys, responses = tmp_path / "keys", tmp_path / "responses"
    keys.mkdir(), responses.mkdir()
    (keys / "xx_walk-corefud-dev.conllu").write_text(KEY.read_text())
    (responses / "xx_walk-corefud-dev.conllu").write_text(response.read_text())
    run = run_cli("bench", keys, responses, "--output", "json")
    assert run.code == 0, run.err
    assert run.json["datasets"][0]["metrics"] == figures(KEY, response)[1].json["metrics"]


def test_a_generated_key_reads_back_where_the_format_holds_it(tmp_path):
    import sys

    sys.path.insert(0, str(FIXTURES.parent / "bench"))
    import generate

    from corefud_scorer.formats.readers import read_documents
    from corefud_scorer.model import SENTENCE_STRIDE, ORD_SCALE

    key, response, out = tmp_path / "key.conllu", tmp_path / "response.conllu", tmp_path / "out.txt"
    generate.write_pair(str(key), str(response), 4, docs=3, tokens_per_doc=300, discontinuous=0.2, zeros=0.01)
    run = run_cli("convert", key, out)
    assert run.code == 0 and re.search(r"left out: .*\d+ discontinuous mentions", run.err)

    def partition(doc, sentences_with_empties):
        """Each simple mention (consecutive words, in a sentence without
        empty nodes) -> the simple mentions of its entity."""
        simple = {}
        for entity in doc.entities:
            words = [m.words for m in entity.mentions
                     if all(w % ORD_SCALE == 0 for w in m.words)
                     and m.words[0] // SENTENCE_STRIDE not in sentences_with_empties
                     and m.words[-1] - m.words[0] == (len(m.words) - 1) * ORD_SCALE]
            for w in words:
                simple[w] = frozenset(words)
        return simple

    keys, (responses,) = read_against_key(str(key), [str(out)], "corefud")
    compared = 0
    for key_doc, response_doc in zip(read_documents(str(key), "key", "corefud"), responses):
        with_empties = {n.sentence for n in key_doc.empty_nodes}
        expected, found = partition(key_doc.load(), with_empties), partition(response_doc.load(), with_empties)
        # a discontinuous mention reads back as the run holding its head, a simple mention of its entity
        assert {w: found.get(w, frozenset()) & expected.keys() for w in expected} == expected
        compared += len(expected)
    assert compared > 100


def test_the_page_scores_a_plaintext_upload(tmp_path):
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from corefud_scorer.web.app import create_app

    text = "\n".join(EXAMPLE).replace("walked", "walkd", 1) + "\n"
    with TestClient(create_app(max_upload_mb=1, tmp_dir=str(tmp_path), workers=1)) as client:
        answer = client.post("/api/score", files=[("key", ("key.conllu", KEY.read_bytes())),
                                                  ("responses", ("answer", text.encode()))])
    assert answer.status_code == 200, answer.text
    response = tmp_path / "answer.txt"
    response.write_text(text)
    assert answer.json()["metrics"] == figures(KEY, response)[1].json["metrics"]
    assert any("repaired: 1 response words replaced" in line for line in answer.json()["warnings"])
