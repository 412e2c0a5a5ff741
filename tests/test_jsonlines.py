"""jsonlines files (e2e-coref/coref-hoi tokens, word pieces, wl-coref
words): the same annotation as CoNLL-2012 and as each jsonlines style
gives the same numbers, those of ``scorer.pl`` v8.01 on the CoNLL-2012
form (run side by side where Perl and the reference scorer are at hand);
pairing with CoNLL-2012 keys; bad files; ``convert`` and its round trips.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess

import pytest

from corefud_scorer.api import score
from corefud_scorer.errors import ScorerError
from corefud_scorer.formats.readers import detect_format
from corefud_scorer.formats.readers.conll2012 import conll_order, coreference_column, read_file as read_conll
from corefud_scorer.results import Options

from conftest import ROOT, run_cli
from test_conll2012 import REFERENCE

METRICS = ("muc", "bcub", "ceafe", "ceafm", "blanc", "lea")
needs_perl = pytest.mark.skipif(REFERENCE is None or shutil.which("perl") is None,
                                reason="perl or the reference scorer's work tree is missing")


# --- one annotation in every form (written here, independently of the writers) ---

def generate(rng: random.Random, docs: int = 3):
    """Documents as (name, part, sentences of forms, clusters of inclusive
    document offsets): spans in two entities, singletons, a one-word document."""
    out = []
    for d in range(docs):
        if d == docs - 1:
            sentences = [["alone"]]
        else:
            sentences = [[rng.choice(("the", "dog", "it", "report", "city")) for _ in range(rng.randint(2, 7))]
                         for _ in range(rng.randint(2, 4))]
        n = sum(map(len, sentences))
        spans = set()
        while len(spans) < min(n, rng.randint(1, 8)):
            a = rng.randrange(n)
            spans.add((a, min(n - 1, a + rng.choice((0, 0, 1, 2)))))
        spans = sorted(spans)
        rng.shuffle(spans)
        clusters = [[] for _ in range(rng.randint(1, 4))]
        for span in spans:
            clusters[rng.randrange(len(clusters))].append(span)
        if len(spans) > 1:  # a span in two entities
            clusters.append([spans[0], spans[1]] if rng.random() < 0.5 else [spans[0]])
        out.append((f"doc/{d}", d % 2, sentences, [c for c in clusters if c]))
    return out


def _crossing_free(clusters):
    """CoNLL-2012 brackets close a mention by its entity id: no two mentions
    of one entity may cross."""
    for spans in clusters:
        for (a, b) in spans:
            for (c, e) in spans:
                if a < c <= b < e:
                    return False
    return True


def as_conll(docs) -> str:
    lines = []
    for name, part, sentences, clusters in docs:
        n = sum(map(len, sentences))
        opens, closes, singles = ([[] for _ in range(n)] for _ in range(3))
        for e, spans in enumerate(clusters):
            for a, b in spans:
                if a == b:
                    singles[a].append(f"({e})")
                else:
                    opens[a].append((-b, f"({e}"))
                    closes[b].append((-a, f"{e})"))
        lines.append(f"#begin document ({name}); part {part:03d}")
        t = 0
        for sentence in sentences:
            for i, form in enumerate(sentence):
                cell = singles[t] + [c for _, c in sorted(opens[t])] + [c for _, c in sorted(closes[t])]
                lines.append(f"{name} {part} {i} {form} NN * - - - - * {'|'.join(cell) or '-'}")
                t += 1
            lines.append("")
        lines.append("#end document")
    return "\n".join(lines) + "\n"


def as_tokens(docs) -> str:
    return "".join(json.dumps({"doc_key": f"{name}_{part}", "sentences": sentences,
                               "clusters": [[list(s) for s in c] for c in clusters], "speakers": []}) + "\n"
                   for name, part, sentences, clusters in docs)


def as_words(docs) -> str:
    return "".join(json.dumps({"document_id": f"{name}_{part}", "cased_words": [w for s in sentences for w in s],
                               "sent_id": [i for i, s in enumerate(sentences) for _ in s],
                               "span_clusters": [[[a, b + 1] for a, b in c] for c in clusters]}) + "\n"
                   for name, part, sentences, clusters in docs)


def as_pieces(docs) -> str:
    """Each sentence between [CLS] and [SEP], words of more than three letters in two pieces."""
    out = []
    for name, part, sentences, clusters in docs:
        pieces, word_map, sentence_map, first, last = [], [], [], [], []
        w = 0
        for s, sentence in enumerate(sentences):
            piece_sentence = ["[CLS]"]
            word_map.append(w)
            for form in sentence:
                split = [form[:3], "##" + form[3:]] if len(form) > 3 else [form]
                first.append(len(word_map))
                for piece in split:
                    piece_sentence.append(piece)
                    word_map.append(w)
                last.append(len(word_map) - 1)
                w += 1
            piece_sentence.append("[SEP]")
            word_map.append(w - 1)
            sentence_map.extend([s] * len(piece_sentence))
            pieces.append(piece_sentence)
        out.append(json.dumps({"doc_key": f"{name}_{part}", "sentences": pieces, "subtoken_map": word_map,
                               "sentence_map": sentence_map,
                               "clusters": [[[first[a], last[b]] for a, b in c] for c in clusters]}) + "\n")
    return "".join(out)


FORMS = {"conll": as_conll, "tokens": as_tokens, "words": as_words, "pieces": as_pieces}
SUFFIX = {"conll": ".conll", "tokens": ".jsonl", "words": ".jsonl", "pieces": ".jsonl"}


def _numbers(result):
    return {name: tuple(None if v is None else round(v, 12) for v in (m.recall, m.precision, m.f1))
            for name, m in result.metrics.items()}


def _pair(rng):
    """A key and a response made from it: spans kept, moved to another
    entity, dropped, or new."""
    key = generate(rng)
    response = []
    for name, part, sentences, clusters in key:
        n = sum(map(len, sentences))
        moved = [[] for _ in clusters]
        for e, spans in enumerate(clusters):
            for span in spans:
                roll = rng.random()
                if roll < 0.6:
                    moved[e].append(span)
                elif roll < 0.85:
                    moved[rng.randrange(len(clusters))].append(span)
        a = rng.randrange(n)
        moved[rng.randrange(len(moved))].append((a, min(n - 1, a + 1)))
        response.append((name, part, sentences, [c for c in moved if c]))
    return key, response


def _files(tmp_path, docs, label):
    paths = {}
    for style, render in FORMS.items():
        path = tmp_path / f"{label}-{style}{SUFFIX[style]}"
        path.write_text(render(docs))
        paths[style] = path
    return paths


@pytest.mark.parametrize("seed", range(4))
def test_every_form_scores_as_the_conll_form(tmp_path, seed):
    """Every measure the CoNLL-2012 form has (LEA, MOR, the further
    measures), singletons kept or not, for each pair of forms."""
    singletons = seed % 2 == 1
    rng = random.Random(seed)
    key, response = _pair(rng)
    while not all(_crossing_free(d[3]) for d in key + response):
        key, response = _pair(rng)
    keys, responses = _files(tmp_path, key, "key"), _files(tmp_path, response, "response")
    options = Options(keep_singletons=singletons, metrics=("every",))
    expected = _numbers(score(keys["conll"], responses["conll"], options))
    assert {"lea", "mor", "mention"} <= set(expected)
    assert any(k[3] != r[3] for k, r in zip(key, response))  # not a trivial pair
    for key_style in FORMS:
        for response_style in FORMS:
            got = score(keys[key_style], responses[response_style], options)
            assert _numbers(got) == expected, (key_style, response_style)


def _perl(metric, key, response):
    out = subprocess.run(["perl", str(REFERENCE / "scorer.pl"), metric, str(key), str(response)],
                         capture_output=True, text=True, check=True).stdout
    found = re.findall(r"Coreference: Recall: \(([\d.]+) / ([\d.]+)\).*Precision: \(([\d.]+) / ([\d.]+)\)", out)
    if metric == "blanc":
        found = re.findall(r"BLANC: Recall: \(([\d.]+) / ([\d.]+)\).*Precision: \(([\d.]+) / ([\d.]+)\)", out)
    rn, rd, pn, pd = map(float, found[-1])
    return (rn / rd if rd else 0.0), (pn / pd if pd else 0.0)


@needs_perl
@pytest.mark.parametrize("seed", range(2))
def test_jsonlines_equal_scorer_pl_on_the_conll_form(tmp_path, seed):
    rng = random.Random(100 + seed)
    key, response = _pair(rng)
    while not all(_crossing_free(d[3]) for d in key + response):
        key, response = _pair(rng)
    keys, responses = _files(tmp_path, key, "key"), _files(tmp_path, response, "response")
    got = score(keys["conll"], responses["pieces"], Options(keep_singletons=True, metrics=METRICS))
    for metric in ("muc", "bcub", "ceafm", "ceafe", "blanc"):
        recall, precision = _perl(metric, keys["conll"], responses["conll"])
        assert got.metrics[metric].recall == pytest.approx(recall, abs=1e-9), metric
        assert got.metrics[metric].precision == pytest.approx(precision, abs=1e-9), metric


# scorer.pl v8.01 on these files (kept from a run side by side).
KEY = ("#begin document (doc/a); part 000\n"
       "doc/a 0 0 John NNP (0)\ndoc/a 0 1 saw VBD -\ndoc/a 0 2 his PRP$ (1|(0)\ndoc/a 0 3 dog NN 1)\n\n"
       "doc/a 0 0 It PRP (1)\ndoc/a 0 1 barked VBD -\n\n#end document\n")
RESPONSE = ('{"doc_key": "doc/a_0", "sentences": [["John", "saw", "his", "dog"], ["It", "barked"]], '
            '"clusters": [[[0, 0], [2, 3], [4, 4]], [[2, 2]]]}\n')


def test_a_jsonlines_response_pairs_with_a_conll_key(write):
    key, response = write("key.conll", KEY), write("response.jsonl", RESPONSE)
    assert (detect_format(key), detect_format(response)) == ("conll", "jsonlines")
    result = score(key, response, Options(keep_singletons=True))
    # scorer.pl on the CoNLL-2012 form: MUC R (1 / 2) P (1 / 2); B-cubed R (3 / 4) P (2.66666666666667 / 4)
    assert (result.metrics["muc"].recall, result.metrics["muc"].precision) == (0.5, 0.5)
    assert result.metrics["bcub"].recall == pytest.approx(3 / 4)
    assert result.metrics["bcub"].precision == pytest.approx(2.66666666666667 / 4)
    # Names pair by NAME and part; another part is another document.
    other = write("other.jsonl", RESPONSE.replace("doc/a_0", "doc/a_1"))
    with pytest.raises(ScorerError, match="document starts differ"):
        score(key, other)


def test_a_response_without_sentences_is_compared_per_document(write):
    key = write("key.conll", KEY)
    flat = write("flat.jsonl", json.dumps({"document_id": "doc/a_0", "cased_words": "John saw his dog It barked".split(),
                                           "span_clusters": [[[0, 1], [2, 4], [4, 5]], [[2, 3]]]}) + "\n")
    ref = write("ref.jsonl", RESPONSE)
    assert _numbers(score(key, flat)) == _numbers(score(key, ref))
    short = write("short.jsonl", json.dumps({"document_id": "doc/a_0", "cased_words": ["John"],
                                             "span_clusters": []}) + "\n")
    with pytest.raises(ScorerError, match="sentence 1 has 4 words in the key, 1 in the response"):
        score(key, short)


@pytest.mark.parametrize("line, message", [
    ('{"doc_key": "d", "sentences": [["a", "b"]], "clusters": [[[0, 1]]]', "not a JSON object"),
    ('{"doc_key": "d", "sentences": [["a", "b"]], "clusters": [[[0, 2]]]}',
     r"'clusters' cluster 1, mention 1: \[0, 2\] is past the document \(2 tokens\)"),
    ('{"doc_key": "d", "sentences": [["a", "b"]], "clusters": [[[1, 0]]]}', "ends before it starts"),
    ('{"document_id": "d", "cased_words": ["a", "b"], "span_clusters": [[[1, 1]]]}', "ends before it starts"),
    ('{"doc_key": "d", "sentences": [["a", "b"]]}', "fields found: doc_key, sentences"),
    ('{"doc_key": "d", "sentences": [["a", 3]], "clusters": []}', "not a list of strings"),
    ('{"doc_key": "d", "sentences": [["a"]], "subtoken_map": [0, 0], "sentence_map": [0], "clusters": []}',
     "'subtoken_map' has 2 entries for 1 pieces"),
    ('[1, 2]', "not an object"),
])
def test_bad_lines_are_one_error_naming_file_and_line(write, line, message):
    good = '{"doc_key": "c", "sentences": [["a"]], "clusters": []}'
    path = write("bad.jsonl", good + "\n\n" + line + "\n")
    run = run_cli(str(path), str(path))
    assert run.code == 2
    assert run.err.count("\n") == 1 and not run.out
    assert re.search(rf"error: {re.escape(str(path))}:3: .*{message}", run.err), run.err


def test_options_the_format_cannot_honour_are_refused(write):
    path = write("r.jsonl", RESPONSE)
    run = run_cli("-a", "head", str(path), str(path))
    assert run.code == 2 and "jsonlines" in run.err
    run = run_cli("--np-only", str(path), str(path))
    assert run.code == 2 and "parse bits" in run.err


# --- convert ---

def test_conll_to_jsonlines_to_conll_scores_identically(tmp_path):
    rng = random.Random(7)
    key, response = _pair(rng)
    while not all(_crossing_free(d[3]) for d in key + response):
        key, response = _pair(rng)
    keys, responses = _files(tmp_path, key, "key"), _files(tmp_path, response, "response")
    middle, back = tmp_path / "key.jsonl", tmp_path / "key-back.conll"
    assert run_cli("convert", str(keys["conll"]), str(middle)).code == 0
    assert detect_format(middle) == "jsonlines"
    run = run_cli("convert", str(middle), str(back))
    assert run.code == 0 and not run.err
    options = Options(keep_singletons=True)
    expected = _numbers(score(keys["conll"], responses["conll"], options))
    assert _numbers(score(middle, responses["conll"], options)) == expected
    assert _numbers(score(back, responses["tokens"], options)) == expected
    # The same mentions in the same order as the original.
    from corefud_scorer.formats.readers.conll2012 import read_file

    assert [d.entities for d in read_file(str(back))] == [d.entities for d in read_file(str(keys["conll"]))]


def test_convert_names_what_the_target_cannot_hold(tmp_path):
    source = ROOT / "fixtures" / "example" / "key.conllu"
    out = tmp_path / "key.conll"
    run = run_cli("convert", str(source), str(out))
    assert run.code == 0
    assert run.err.count("\n") == 1 and "warning: the conll format cannot hold, left out: " in run.err
    assert ", 2 zero mentions (empty nodes), " in run.err and ", 2 empty nodes, " in run.err
    # Every mention but the zeros is written.
    from corefud_scorer.formats.readers import read_documents

    def mentions(path, fmt):
        return [sorted((m.words[0], m.words[-1]) for e in doc.load().entities for m in e.mentions
                       if not m.is_zero) for doc in read_documents(str(path), "key", fmt)]

    assert mentions(out, "conll") == mentions(source, "corefud")


def test_convert_refuses_what_it_cannot_do_before_writing(tmp_path):
    out = tmp_path / "out.md"  # an ending no format has (.txt is the plaintext format's)
    run = run_cli("convert", str(ROOT / "fixtures" / "example" / "key.conllu"), str(out))
    assert run.code == 2 and "give --to" in run.err and not out.exists()
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"doc_key": "d", "sentences": [["a"]], "clusters": [[[0, 3]]]}\n')
    target = tmp_path / "bad.conll"
    run = run_cli("convert", str(bad), str(target))
    assert run.code == 2 and f"{bad}:1:" in run.err and not target.exists()
    assert not list(tmp_path.glob(".convert-*"))


@pytest.mark.parametrize("name", ["example/key", "anaphora/station.key"])
def test_corefud_to_ua_to_corefud_scores_identically(tmp_path, name):
    source = ROOT / "fixtures" / f"{name}.conllu"
    response = ROOT / "fixtures" / f"{name.replace('key', 'response')}.conllu"
    middle, back = tmp_path / "key.ua.conllu", tmp_path / "key.conllu"
    assert run_cli("convert", str(source), str(middle)).code == 0
    assert detect_format(middle) == "ua"
    run = run_cli("convert", str(middle), str(back))
    assert run.code == 0
    assert detect_format(back) == "corefud"
    for options in (Options(), Options(keep_singletons=True, keep_split_antecedents=True,
                                       metrics=("muc", "bcub", "ceafe", "lea", "zero", "bridging")),
                    Options(zero_match="linear", match="exact")):
        assert _numbers(score(back, response, options)) == _numbers(score(source, response, options)), options


def test_convert_warns_once_naming_each_loss(tmp_path):
    station = ROOT / "fixtures" / "anaphora" / "station.key.conllu"
    run = run_cli("convert", str(station), str(tmp_path / "s.jsonl"))
    assert run.code == 0 and run.err.count("\n") == 1
    assert "the jsonlines format cannot hold, left out: 1 bridging links, 2 split-antecedent links, " in run.err
    run = run_cli("convert", str(ROOT / "fixtures" / "anaphora" / "station.key.ua.conllu"), str(tmp_path / "s.conllu"))
    # UA markables without Min: CorefUD gives each mention a head.
    assert run.code == 0 and run.err.endswith(
        "the corefud format cannot hold, left out: 1 non-referring markables, 6 mention heads (or minimum spans)\n")
    run = run_cli("convert", str(station), str(tmp_path / "s.ua.conllu"))
    assert run.code == 0 and run.err.endswith("the ua format cannot hold, left out: 6 Entity attributes (etype, other)\n")


def test_any_malformed_value_is_a_scorer_error(tmp_path):
    """Each field of each shape replaced by values of other types: the
    reader gives documents or one ScorerError, nothing else."""
    from corefud_scorer.formats.readers.jsonlines import read_documents

    shapes = [json.loads(line) for text in (as_tokens(generate(random.Random(3), 1)),
                                            as_words(generate(random.Random(4), 1)),
                                            as_pieces(generate(random.Random(5), 1)))
              for line in text.splitlines()]
    values = [None, True, 3, -1, 2.5, "x", [], [None], [[]], [[1]], [[[0]]], [[[-1, 0]]], [[[0, 99]]],
              [["a", 1]], {"a": 1}, [[[0, 0.5]]], [[[True, 0]]]]
    rng = random.Random(0)
    path = tmp_path / "f.jsonl"
    errors = 0
    for _ in range(300):
        obj = dict(rng.choice(shapes))
        for name in rng.sample(sorted(obj), rng.randint(1, 2)):
            if rng.random() < 0.2:
                del obj[name]
            else:
                obj[name] = rng.choice(values)
        path.write_text(json.dumps(obj) + "\n")
        try:
            for doc in read_documents(str(path)):
                doc.load()
        except ScorerError as err:
            assert err.where == [(str(path), 1)], err
            errors += 1
    assert errors > 200


@pytest.mark.parametrize("seed", range(3))
def test_clusters_come_in_the_order_their_conll_column_gives(tmp_path, seed):
    """conll_order (how a jsonlines document orders its clusters and
    mentions) is the order the CoNLL-2012 reader reads the same clusters in,
    written as their coreference column: nested, repeated and one-token
    spans, entities without mentions (no two mentions of one entity cross:
    the column could not say which closes)."""
    rng = random.Random(seed)
    for trial in range(60):
        tokens = rng.randint(1, 14)
        clusters = []
        for _ in range(rng.randint(0, 7)):
            starts = [rng.randrange(tokens) for _ in range(rng.randint(0, 4))]
            spans = [(a, min(tokens - 1, a + rng.choice((0, 0, 1, 2, 6)))) for a in starts]
            clusters.append(spans if _crossing_free([spans]) else spans[:1])
        column = coreference_column(tokens, [(str(e), spans) for e, spans in enumerate(clusters)])
        path = tmp_path / f"t{trial}.conll"
        path.write_text("#begin document (d); part 000\n"
                        + "".join(f"d\t0\t{t}\tw{t}\tNN\t{column[t]}\n" for t in range(tokens))
                        + "\n#end document\n")
        (doc,) = read_conll(str(path))
        ordered, order = conll_order(clusters)
        assert [int(e) for e in doc.entity_ids] == order
        assert doc.entities == ordered, clusters
