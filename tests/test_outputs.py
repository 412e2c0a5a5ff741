"""What users read and parse: quiet output, flags checked first, standard
input, interruption, the API's inputs and results, and the bugs that
depended on the host's logging or on -j."""

from __future__ import annotations

import hashlib
import io
import json
import logging
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest
from scipy.optimize import linear_sum_assignment

import corefud_scorer
from corefud_scorer.jobs.options import for_format
from corefud_scorer import Options, ScorerError, score, score_documents, score_text
from corefud_scorer.alignment.assignment import solve
from corefud_scorer.model import Document, Entity, Mention, position

from conftest import FIXTURES, ROOT, conllu, run_cli
from schema import validate_result

KEY = FIXTURES / "example" / "key.conllu"
RESPONSE = FIXTURES / "example" / "response.conllu"


def _cli(*args, stdin=None, **kwargs):
    return subprocess.run([sys.executable, "-m", "corefud_scorer", *map(str, args)], input=stdin,
                          capture_output=True, cwd=ROOT, **kwargs)


# --- quiet by default, counts instead of warnings ---

def test_a_clean_run_prints_nothing_on_stderr():
    run = run_cli(KEY, RESPONSE)  # singletons dropped by default: asked for, so not a warning
    assert run.code == 0 and run.err == ""
    assert run_cli("-t", "crac24", KEY, RESPONSE).err == ""


# --- flags checked before any file is read ---

def test_flag_errors_come_before_reading(tmp_path):
    missing = tmp_path / "missing.conllu"
    for flags, message in ((["-x", "-a", "partial"], "contradicts -a partial"),
                           (["-m"], "expected at least one argument"),
                           (["-j", "0"], "must be at least 1"),
                           (["-t", "crac24", "-a", "exact"], "sets match")):
        run = run_cli(missing, missing, *flags)
        assert run.code == 2 and run.out == "" and message in run.err, flags
        assert "no such file" not in run.err


def test_bench_names_the_missing_folder(tmp_path):
    run = run_cli("bench", FIXTURES / "bench" / "key", tmp_path / "nope")
    assert run.code == 2 and run.err.strip().endswith(f"{tmp_path / 'nope'}: no such folder")


# --- standard input and interruption ---

def test_response_from_standard_input():
    data = RESPONSE.read_bytes()
    done = _cli(KEY, "-", "--output", "json", stdin=data)
    assert done.returncode == 0, done.stderr
    result = validate_result(json.loads(done.stdout))
    assert result["settings"]["response_sha256"] == hashlib.sha256(data).hexdigest()
    assert result["settings"]["response_file"] == "<stdin>"
    by_path = run_cli(KEY, RESPONSE, "--output", "json").json
    assert result["metrics"] == by_path["metrics"]
    key_in = _cli("-", RESPONSE, stdin=KEY.read_bytes())
    assert key_in.stdout.decode() == run_cli(KEY, RESPONSE).out


def test_an_error_in_standard_input_names_it():
    bad = RESPONSE.read_text().replace("# sent_id = ", "# sent_id = x", 1).encode()
    done = _cli(KEY, "-", stdin=bad)
    assert done.returncode == 2 and done.stdout == b""
    assert done.stderr.decode().startswith("corefud-scorer: error: ") and "<stdin>:" in done.stderr.decode()
    assert "corefud-scorer-" not in done.stderr.decode()  # no temporary file name
    both = _cli("-", "-", stdin=b"")
    assert both.returncode == 2 and "only one of KEY and SYS" in both.stderr.decode()


# --- Ctrl-C: one line and 130 whenever it comes ---
#
# Each run says when the command's own code is running (a line on stdout
# from a harness around the real entry point, or the process's state in /proc),
# and the signal is sent then, at once and later: never after a fixed sleep
# that a loaded machine can outrun. What comes before the first line of the
# command's code (the interpreter's start) is the interpreter's business.

INTERRUPTED = {"corefud-scorer": b"corefud-scorer: interrupted\n", "conll-scorer": b"conll-scorer: interrupted\n"}
HARNESS = {
    # What the console scripts run, the interrupt set up first as they set it up.
    "corefud-scorer": "import corefud_scorer.__main__ as m; print('ready', flush=True); m.entry_point()",
    "conll-scorer": ("import corefud_scorer.interrupts as i; i.install('conll-scorer'); print('ready', flush=True); "
                     "from corefud_scorer.v801.dropin import entry_point; entry_point()"),
}


def _interrupted(process, prog, group=False):
    try:
        (os.killpg if group else os.kill)(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        if group:  # nothing of the run may outlive the test
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        process.kill()
    assert (process.returncode, out, err) == (130, b"", INTERRUPTED[prog])


def _harness(prog, args):
    return subprocess.Popen([sys.executable, "-c", HARNESS[prog], *map(str, args)], cwd=ROOT,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


@pytest.mark.parametrize("delay", [0.0, 0.03, 0.3])
@pytest.mark.parametrize("prog, args", [("corefud-scorer", [KEY, "-"]),
                                        ("conll-scorer", ["all", FIXTURES / "seed" / "pradhan2014.key.conll",
                                                          "/dev/stdin"])])
def test_ctrl_c_from_the_first_line_of_the_command_on(prog, args, delay):
    # At once: while the command imports what it needs (numpy, the readers);
    # later: parsing flags, reading, or waiting for standard input, which
    # never ends.
    process = _harness(prog, args)
    assert process.stdout.readline() == b"ready\n"
    time.sleep(delay)
    _interrupted(process, prog)


def _asleep(pid):
    """Whether the process sleeps waiting for something (``S`` in its stat):
    on the way to reading standard input nothing else makes it wait."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] == "S"
    except (OSError, IndexError):
        return False


def _wait(condition, what):
    deadline = time.monotonic() + 60
    while not condition():
        assert time.monotonic() < deadline, f"never {what}"
        time.sleep(0.005)


@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="reads /proc")
def test_ctrl_c_while_waiting_for_standard_input():
    process = subprocess.Popen([sys.executable, "-m", "corefud_scorer", str(KEY), "-"], cwd=ROOT,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    # Asleep: the command line is loaded and waits for the response on
    # standard input (numpy, imported where arrays are made, is not yet).
    _wait(lambda: _asleep(process.pid), "waited for standard input")
    _interrupted(process, "corefud-scorer")


@pytest.fixture(scope="module")
def long_pair(tmp_path_factory):
    """Enough documents to keep two workers busy for seconds."""
    if str(ROOT / "bench") not in sys.path:
        sys.path.insert(0, str(ROOT / "bench"))
    import generate

    folder = tmp_path_factory.mktemp("long")
    for name, text in zip(("key.conllu", "response.conllu"),
                          generate.generate_pair(5, docs=400, tokens_per_doc=150)):
        (folder / name).write_text(text, encoding="utf-8")
    return folder


@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="reads /proc")
@pytest.mark.parametrize("group", [True, False], ids=["terminal", "command-only"])
@pytest.mark.parametrize("delay", [0.0, 0.3])
def test_ctrl_c_stops_the_workers_without_a_word_from_them(long_pair, group, delay):
    tmp_path = long_pair
    # Its own process group, which a terminal's Ctrl-C reaches whole (a
    # plain kill reaches the command alone).
    process = subprocess.Popen([sys.executable, "-m", "corefud_scorer", tmp_path / "key.conllu",
                                tmp_path / "response.conllu", "-j", "2", "-q"], cwd=ROOT, start_new_session=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def workers():
        try:
            with open(f"/proc/{process.pid}/task/{process.pid}/children") as children:
                return len(children.read().split()) >= 2
        except OSError:
            return False
    # At once: as the pool forks its workers; later: while they score.
    _wait(lambda: workers() or process.poll() is not None, "started its workers")
    time.sleep(delay)
    assert process.poll() is None, process.communicate()
    _interrupted(process, "corefud-scorer", group=group)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("prog", ["corefud-scorer", "conll-scorer"])
def test_output_that_cannot_be_written_is_one_line_and_exit_2(prog, tmp_path):
    conll = tmp_path / "d.conll"
    conll.write_text("#begin document (d); part 000\nd 0 0 a (1)\nd 0 1 b (1)\n#end document\n")
    module, args = (("corefud_scorer.__main__", [KEY, RESPONSE]) if prog == "corefud-scorer"
                    else ("corefud_scorer.v801.dropin", ["all", conll, conll]))
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-c", f"from {module} import entry_point; entry_point()",
                               *map(str, args)], cwd=ROOT, stdout=full, stderr=subprocess.PIPE)
    assert done.returncode == 2
    assert done.stderr.decode().splitlines() == [f"{prog}: error: cannot write the output: No space left on device"]


def test_a_reader_that_goes_away_ends_the_command_quietly():
    from corefud_scorer.errors import run_command

    def closed():
        raise BrokenPipeError(32, "Broken pipe")
    saved = os.dup(sys.stdout.fileno())
    try:
        assert run_command("corefud-scorer", closed) == 1
    finally:
        os.dup2(saved, sys.stdout.fileno())
        os.close(saved)


# --- JSON and the API agree with the text ---

def test_repeated_metrics_keep_1_2s_text_and_are_counted_once_elsewhere():
    text = run_cli(KEY, RESPONSE, "-m", "muc", "muc", "bcub").out.splitlines()
    # 1.2 prints muc twice, and a CoNLL score from muc, muc and bcub
    assert text.count("muc") == 2 and text[-1].startswith("CoNLL score:")
    data = run_cli(KEY, RESPONSE, "-m", "muc", "muc", "bcub", "--output", "json").json
    assert list(data["metrics"]) == ["muc", "bcub"]  # no CoNLL score without CEAF-e
    assert score(KEY, RESPONSE, Options(metrics=("muc", "muc", "bcub"))).conll is None


def test_all_and_mention_together():
    data = run_cli(KEY, RESPONSE, "-m", "all", "mention", "--output", "json").json
    assert list(data["metrics"]) == ["muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "mor", "zero",
                                     "mention", "conll"]


def test_per_document_json_has_the_same_shape_and_adds_up():
    data = validate_result(run_cli(KEY, RESPONSE, "--per-doc", "--output", "json").json)
    rows = data["per_document"]
    assert len(rows) == data["documents"] == 2
    for field in ("recall_num", "recall_den", "precision_num", "precision_den"):
        assert sum(r["metrics"]["muc"]["counts"][field] for r in rows) == data["metrics"]["muc"]["counts"][field]
    blanc = data["metrics"]["blanc"]
    # BLANC recomputed from its counts: the mean of the parts that have links.
    parts = [c for c in blanc["counts"].values() if c["recall_den"] or c["precision_den"]]
    recall = sum(c["recall_num"] / c["recall_den"] for c in parts) / len(parts)
    assert blanc["recall"] == pytest.approx(recall, abs=1e-15)


def test_api_takes_text_streams_and_paths_alike():
    options = Options(metrics="muc", match="exact", keep_singletons=True)
    assert for_format(options).metrics == ("muc",)
    by_path = score(str(KEY), str(RESPONSE), options)
    by_text = score_text(KEY.read_text(), RESPONSE.read_text(), options)
    with open(KEY, "rb") as key, open(RESPONSE, "rb") as response:
        by_stream = score(key, response, options)
    assert by_path.metrics["muc"].counts == by_text.metrics["muc"].counts == by_stream.metrics["muc"].counts
    assert by_stream.settings["key_file"] == str(KEY)  # a file object's name
    with pytest.raises(ScorerError, match=r"^<key>:\d+ vs <response>:\d+: sent_id differs"):
        score_text(KEY.read_text(), RESPONSE.read_text().replace("# sent_id = ", "# sent_id = x", 1))


def test_api_presets_results_and_rows():
    options = Options.preset("crac24")
    assert (options.match, options.zero_match, options.keep_singletons) == ("head", "dependent", False)
    assert options.metric_list == ("muc", "bcub", "ceafe", "zero")
    assert Options.preset("crac22", keep_singletons=True).keep_singletons is True
    with pytest.raises(ValueError, match="unknown preset"):
        Options.preset("crac99")
    result = score(KEY, RESPONSE, options)
    as_dict = validate_result(corefud_scorer.to_json_object(result, per_document=True))
    assert as_dict["metrics"]["conll"]["f1"] == result.conll
    rows = corefud_scorer.document_rows(result)
    assert [r["document"] for r in rows] == [d.doc_id for d in result.documents]
    document = result.documents[0]
    muc = document.metrics["muc"]
    assert muc.recall == document.counts["muc"].recall_num / document.counts["muc"].recall_den
    assert rows[0]["muc_recall"] == muc.recall


def test_package_ships_its_type_marker():
    import corefud_scorer

    assert os.path.isfile(os.path.join(os.path.dirname(corefud_scorer.__file__), "py.typed"))


def test_manifest_paths_with_spaces_and_hashes(tmp_path):
    folder = tmp_path / "my data #1"
    folder.mkdir()
    (folder / "k y.conllu").write_bytes(KEY.read_bytes())
    (folder / "r#y.conllu").write_bytes(RESPONSE.read_bytes())
    manifest = tmp_path / "list.txt"
    manifest.write_text('# a comment\nex "my data #1/k y.conllu" "my data #1/r#y.conllu"  # trailing\n'
                        "tab\tmy data #1/k y.conllu\tmy data #1/r#y.conllu\n")
    run = run_cli("bench", manifest, "--output", "json")
    assert run.code == 0, run.err
    datasets = run.json["datasets"]
    assert [d["dataset"] for d in datasets] == ["ex", "tab"]
    assert datasets[0]["metrics"] == datasets[1]["metrics"]


# --- bugs ---

def test_validation_does_not_depend_on_the_hosts_logging(write):
    unclosed = write("unclosed.conllu", RESPONSE.read_text().replace("Entity=(r1-person-1)", "Entity=(r1-person-1", 1))
    root = logging.getLogger()
    level, handlers = root.level, root.handlers[:]
    root.setLevel(logging.ERROR)
    logging.disable(logging.WARNING)
    try:
        with pytest.raises(ScorerError, match="unclosed.conllu:.*not closed"):
            score(str(KEY), str(unclosed))
    finally:
        logging.disable(logging.NOTSET)
        root.setLevel(level)
    assert root.handlers == handlers


def test_the_first_error_in_file_order_is_reported_whatever_the_jobs(write):
    sentence = [(1, "x", "(e1-p-1)"), (2, "y", "(e1-p-1)")]
    docs = {f"d{k}": [sentence] for k in range(6)}
    key = write("k.conllu", conllu(docs))
    # Document d1: an unclosed mention (found when Udapi parses it, in a worker);
    # document d3: a sent_id mismatch (found while the files are read ahead).
    text = conllu(docs).replace("# sent_id = d3-1", "# sent_id = other")
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("# sent_id = d1-1"))
    lines[first + 1] = lines[first + 1].replace("Entity=(e1-p-1)", "Entity=(e1-p-1", 1)
    response = write("r.conllu", "\n".join(lines) + "\n")
    errors = {jobs: run_cli(key, response, "-j", jobs).err for jobs in ("1", "2")}
    assert errors["1"] == errors["2"]
    assert "not closed" in errors["1"] and "sent_id" not in errors["1"]


def test_empty_nodes_n1_and_n10_are_one_node_as_in_1_2_with_a_warning(write):
    lines = ["# newdoc id = d", "# global.Entity = eid-etype-head-other", "# sent_id = d-1",
             "1\ta\t_\t_\t_\t_\t0\troot\t0:root\t_"]
    for k in range(1, 11):
        entity = {1: "Entity=(e1--1)", 10: "Entity=(e2--1)"}.get(k, "_")
        lines.append(f"1.{k}\tz\t_\t_\t_\t_\t_\t_\t1:nsubj\t{entity}")
    lines += ["2\tb\t_\t_\t_\t_\t1\tdep\t1:dep\tEntity=(e1--1)", "3\tc\t_\t_\t_\t_\t1\tdep\t1:dep\tEntity=(e2--1)"]
    key = write("k.conllu", "\n".join(lines) + "\n\n")
    response = write("r.conllu", "\n".join(line.replace("Entity=(e2--1)", "_") if line.startswith("1.10")
                                          else line for line in lines) + "\n\n")
    run = run_cli(key, response, "-a", "exact", "-s", "-z", "linear", "-m", "muc", "bcub", "lea")
    # scorer 1.2's numbers on these files: 1.1 and 1.10 are one span in two entities
    assert [line for line in run.out.splitlines() if line.startswith("Recall")] == [
        "Recall: 50.00  Precision: 0.00  F1: 0.00",
        "Recall: 75.00  Precision: 66.67  F1: 70.59",
        "Recall: 50.00  Precision: 0.00  F1: 0.00"]
    assert "share the position of N.1" in run.err and "1.10 (line 14)" in run.err


def test_a_head_index_outside_a_one_word_mention_is_an_error(write):
    bad = write("head.conllu", RESPONSE.read_text().replace("Entity=(r1-person-1)", "Entity=(r1-person-3)", 1))
    run = run_cli(KEY, bad)
    assert run.code == 2 and run.out == ""
    line = next(n for n, text in enumerate(bad.read_text().splitlines(), 1) if "(r1-person-3)" in text)
    assert run.err.strip() == (f"corefud-scorer: error: {bad}:{line}: head index 3 of mention r1 "
                               "outside its one word")


def test_a_file_without_newdoc_is_one_document(write):
    text = "\n".join(line for line in KEY.read_text().splitlines() if not line.startswith("# newdoc"))
    key = write("k.conllu", text + "\n")
    result = score(str(key), str(key), Options(keep_singletons=True))
    assert len(result.documents) == 1 and result.documents[0].doc_id is None
    assert result.metrics["muc"].f1 == 1.0


def test_solver_refuses_weights_that_are_not_positive():
    with pytest.raises(ValueError, match=r"cell \(0, 1\) is 0"):
        solve(2, 2, {(0, 0): 1.0, (0, 1): 0.0})


@pytest.mark.parametrize("matrix, columns", [
    # Ties among optimal assignments, and scipy's choice among them (not the
    # lexicographically first): if a scipy release changes its tie rule,
    # scorer 1.2's numbers change with it and this fails loudly.
    ([[0, 0, 0, 1], [1, 1, 1, 0], [1, 0, 0, 1]], [3, 2, 0]),
    ([[1, 1, 1, 0], [0, 0, 1, 0], [0, 0, 1, 0]], [0, 2, 1]),
    ([[1, 1, 0, 0], [1, 0, 0, 0], [1, 1, 0, 0]], [1, 0, 2]),
    ([[0, 1, 0, 1], [1, 0, 1, 0], [1, 1, 0, 0]], [3, 0, 1]),
])
def test_scipys_tie_rule_is_pinned(matrix, columns):
    dense = np.array(matrix, dtype=float)
    assert linear_sum_assignment(-dense)[1].tolist() == columns
    weights = {(i, j): v for (i, j), v in np.ndenumerate(dense) if v > 0}
    assert [j for _, j in solve(*dense.shape, weights)] == columns


# --- the in-memory path is the file path ---

def test_documents_built_in_memory_score_as_the_file_does_with_two_jobs():
    from corefud_scorer.formats.readers.corefud import read_file

    options = Options(match="head", keep_singletons=True)
    key_docs, response_docs = read_file(str(KEY)), read_file(str(RESPONSE))
    rebuilt = [[Document(d.doc_id, [Entity(e.eid, [Mention(m.words, m.head, m.is_zero, m.head_deps)
                                                  for m in e.mentions]) for e in d.entities],
                         d.sentences, d.tokens) for d in docs] for docs in (key_docs, response_docs)]
    in_memory = score_documents(*rebuilt, options, jobs=2)
    from_files = score(str(KEY), str(RESPONSE), options, jobs=2)
    assert {n: m.counts for n, m in in_memory.metrics.items()} == \
           {n: m.counts for n, m in from_files.metrics.items()}
    assert in_memory.conll == from_files.conll
    # and one built from nothing but the model's constructors
    key = Document("d", [Entity("a", [Mention((position(0, 1),), position(0, 1)),
                                      Mention((position(0, 3),), position(0, 3))])], 1, 4)
    response = Document("d", [Entity("x", [Mention((position(0, 1),), position(0, 1)),
                                           Mention((position(0, 2),), position(0, 2))])], 1, 4)
    muc = score_documents([key, key], [response, response], Options(metrics="muc"), jobs=2).metrics["muc"]
    assert (muc.recall_num, muc.recall_den) == (0.0, 2.0)


def test_an_interrupt_python_wrapped_on_its_way_up_is_still_an_interrupt(capsys):
    # Ctrl-C inside a class's __set_name__ during an import reaches the
    # command as the cause of a RuntimeError.
    from corefud_scorer.errors import run_command

    def wrapped():
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as interrupt:
            raise RuntimeError("Error calling __set_name__ on 'Field' instance") from interrupt

    def failing():
        raise RuntimeError("not an interrupt")

    assert run_command("corefud-scorer", wrapped) == 130
    assert capsys.readouterr().err == "corefud-scorer: interrupted\n"
    with pytest.raises(RuntimeError, match="not an interrupt"):
        run_command("corefud-scorer", failing)


def test_a_stream_that_fails_while_spooled_leaves_no_temporary_file(tmp_path, monkeypatch):
    """A stream is copied to a temporary file before it is read; the copy is
    removed however the copying ends (here the stream fails half-way)."""
    import tempfile

    from corefud_scorer.formats.inputs import local_files

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))

    class Failing(io.BytesIO):
        def read(self, size=-1):
            if self.tell():
                raise OSError("the connection was reset")
            return super().read(4)

    with pytest.raises(OSError, match="reset"):
        with local_files(str(KEY), Failing(b"# newdoc id = x\n")):
            pass
    assert list(tmp_path.iterdir()) == []
    with local_files(io.BytesIO(b"text")) as files:
        assert [open(path, "rb").read() for _, path in files] == [b"text"]
    assert list(tmp_path.iterdir()) == []
