#!/usr/bin/env python3
"""Differential test: our scorer against the official CorefUD scorer 1.2.

For N generated key/response pairs (bench/generate.py, deterministic from --seed)
and every combination of ``-a exact|partial|head``, ``-z linear|dependent`` and
with/without ``-s``, this runs

* ours:     ``python -m corefud_scorer KEY SYS FLAGS --output json`` and the same
            without ``--output json`` (its default text output), in the project root;
* official: a small driver script, written to a temporary directory at run time,
            that imports the official command-line module from --reference DIR and
            calls its ``main()`` with the same arguments (cwd=DIR), capturing its
            stdout (the text the official command line prints) and, by wrapping the
            official ``evaluator.evaluate_documents``, the unrounded recall /
            precision / F1 of every metric.  All scoring is done by the official code.

It compares (a) the largest absolute difference per metric between our JSON and
the official unrounded values (CoNLL = mean of the MUC, B3 and CEAFe F1), and
(b) whether our text output is byte-identical to the official stdout.  Where the
official scorer crashes (e.g. ZeroDivisionError with ``-z dependent`` on empty
nodes whose DEPS is ``_``) the run is listed as "reference crashed" with our
result, and not counted as a difference.  A metric that is ``null`` in our JSON
counts as equal only where the official values are all zero.

Processes: by default each of the --jobs workers keeps one process per scorer
alive (ours runs ``corefud_scorer`` as ``__main__`` through runpy, exactly like
``python -m``; the official driver serves requests), which makes a pair take ~2 s
instead of ~16 s.  For the first --cli-check pairs both command lines are also run
for real, one process per run (official: ``python DIR/corefud-scorer.py KEY SYS
FLAGS`` with cwd=DIR), and their stdout must equal the in-process stdout.
``--subprocess`` starts a new process for every single run instead.

Exit status: 0 = no difference; 1 = some value differs by more than --tolerance
(default 1e-9), some text differs, or our scorer failed; 2 = set-up problem.

    python tools/differential.py --pairs 200 --seed 1 [--reference /work/ref]
        [--keep DIR] [--jobs 2] [--match head] [--zero dependent] [--singletons yes]
        [--zeros-without-deps 0.3] [--reused-ids 0.3] [--subprocess] [--json-report FILE]
"""

import argparse
import base64
import concurrent.futures
import difflib
import json
import math
import os
import random
import select
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PROJECT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(PROJECT, "bench"))

import generate  # noqa: E402  (bench/generate.py)

METRICS = ("muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "mor", "zero")
ROWS = METRICS + ("conll",)
MATCHES = ("exact", "partial", "head")
ZEROS = ("linear", "dependent")

# --------------------------------------------------------------------------
# the reference driver (written to a temporary directory at run time)
# --------------------------------------------------------------------------

DRIVER = r'''
"""Runs the official CorefUD scorer in-process for several flag sets.

    python reference_driver.py REFERENCE_DIR KEY SYS SETTINGS_JSON OUTPUT_JSON
    python reference_driver.py REFERENCE_DIR --serve      (JSON lines on stdin/stdout)

For each flag list it calls the official command line's main() with
sys.argv = [corefud-scorer.py, KEY, SYS, *flags], captures what it prints on
stdout, records the (recall, precision, f1) returned by every call of the
official evaluator.evaluate_documents, and the metric names the official
argument processing selected.
"""
import contextlib, importlib, io, json, logging, os, sys, traceback

ref_dir = os.path.abspath(sys.argv[1])
serve = sys.argv[2] == "--serve"
if serve:
    # keep the protocol channel apart from anything printed on fd 1
    proto = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
sys.path.insert(0, ref_dir)
os.chdir(ref_dir)

cli = importlib.import_module("corefud-scorer")
ua = cli.uascorer
evaluator = ua.evaluator

recorded = []
selected = {}
_orig_eval_docs = evaluator.evaluate_documents
_orig_evaluate = ua.evaluate


def _recording_eval_docs(*args, **kwargs):
    res = _orig_eval_docs(*args, **kwargs)
    recorded.append([float(x) for x in res])
    return res


def _recording_evaluate(args):
    selected["names"] = [name for name, _ in args["metrics"]]
    return _orig_evaluate(args)


evaluator.evaluate_documents = _recording_eval_docs
ua.evaluate = _recording_evaluate

log_buf = io.StringIO()
handler = logging.StreamHandler(log_buf)
handler.setLevel(logging.WARNING)
logging.getLogger().addHandler(handler)


def score(key_file, sys_file, settings):
    results = []
    for flags in settings:
        recorded.clear()
        selected.clear()
        log_buf.seek(0)
        log_buf.truncate()
        out = io.StringIO()
        res = {"flags": flags, "ok": True, "error": None, "traceback": None}
        sys.argv = ["corefud-scorer.py", key_file, sys_file] + list(flags)
        try:
            with contextlib.redirect_stdout(out):
                cli.main()
        except BaseException as exc:  # the official errors derive from BaseException
            res["ok"] = False
            res["error"] = "%s: %s" % (type(exc).__name__, exc)
            res["traceback"] = traceback.format_exc()[-3000:]
        res["stdout"] = out.getvalue()
        names = selected.get("names", [])
        res["values"] = {n: v for n, v in zip(names, recorded)}
        res["complete"] = len(recorded) == len(names) and bool(names)
        res["warnings"] = log_buf.getvalue()
        results.append(res)
    return results


if serve:
    while True:
        line = sys.stdin.readline()
        if not line:
            break
        req = json.loads(line)
        proto.write(json.dumps(score(req["key"], req["sys"], req["settings"])) + "\n")
        proto.flush()
else:
    key_file, sys_file, settings_json, out_json = sys.argv[2:6]
    with open(settings_json) as f:
        settings = json.load(f)
    results = score(key_file, sys_file, settings)
    with open(out_json, "w") as f:
        json.dump(results, f)
'''

# default mode: runs `python -m corefud_scorer ARGS` repeatedly in one process (runpy)
OURS_WORKER = r'''
import base64, io, json, os, runpy, sys, traceback

proto = os.fdopen(os.dup(1), "w")
os.dup2(2, 1)
real_stderr = sys.stderr
sys.stdout = real_stderr
while True:
    line = sys.stdin.readline()
    if not line:
        break
    req = json.loads(line)
    out_b, err_b = io.BytesIO(), io.BytesIO()
    out = io.TextIOWrapper(out_b, encoding="utf-8", newline="")
    err = io.TextIOWrapper(err_b, encoding="utf-8", errors="replace", newline="")
    sys.stdout, sys.stderr = out, err
    sys.argv = ["corefud_scorer"] + req["args"]
    rc = 0
    try:
        runpy.run_module("corefud_scorer", run_name="__main__", alter_sys=True)
    except SystemExit as exc:
        code = exc.code
        if code is None:
            rc = 0
        elif isinstance(code, int):
            rc = code
        else:
            rc = 1
            err.write("%s\n" % (code,))
    except BaseException:
        rc = 1
        traceback.print_exc(file=err)
    finally:
        try:
            out.flush()
            err.flush()
        except Exception:
            pass
        sys.stdout, sys.stderr = real_stderr, real_stderr
    proto.write(json.dumps({"rc": rc, "stdout": base64.b64encode(out_b.getvalue()).decode("ascii"),
                            "stderr": err_b.getvalue().decode("utf-8", "replace")}) + "\n")
    proto.flush()
'''


# --------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------

def setting_flags(match, zero, singletons):
    flags = ["-a", match, "-z", zero]
    if singletons:
        flags.append("-s")
    return flags


def setting_name(match, zero, singletons):
    return "%s/%s/%s" % (match, zero, "s" if singletons else "-")


def tail(text, n=15):
    lines = (text or "").rstrip("\n").split("\n")
    return "\n".join(lines[-n:])


def run(cmd, cwd, timeout, env=None):
    """Run a command; return (returncode, stdout, stderr).  Never raises."""
    try:
        p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=timeout, env=env)
        return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired as exc:
        return -9, exc.stdout or b"", "timeout after %ss\n%s" % (
            timeout, (exc.stderr or b"").decode("utf-8", "replace"))
    except OSError as exc:
        return -1, b"", "cannot run %s: %s" % (cmd[0], exc)


class Worker:
    """A persistent helper process speaking JSON lines (not used with --subprocess)."""

    def __init__(self, cmd, cwd, env=None):
        self.cmd, self.cwd, self.env = cmd, cwd, env
        self.proc = None
        self.errfile = None

    def start(self):
        self.errfile = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(self.cmd, cwd=self.cwd, env=self.env, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self.errfile)

    def request(self, obj, timeout):
        """Send one request; return (decoded reply or None, error text)."""
        if self.proc is None or self.proc.poll() is not None:
            self.close()
            self.start()
        line = b""
        try:
            self.proc.stdin.write((json.dumps(obj) + "\n").encode("utf-8"))
            self.proc.stdin.flush()
            ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
            if not ready:
                self.close()
                return None, "timeout after %ss" % timeout
            line = self.proc.stdout.readline()
        except OSError:
            pass
        if not line:
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
            self.errfile.seek(0)
            err = self.errfile.read().decode("utf-8", "replace")
            self.close()
            return None, "helper process died:\n" + tail(err, 25)
        return json.loads(line.decode("utf-8")), None

    def close(self):
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.kill()
            self.proc.wait()
            self.proc = None
        if self.errfile is not None:
            self.errfile.close()
            self.errfile = None


NA_ZERO = "zero\nRecall: n/a  Precision: n/a  F1: n/a  (not applicable: no zero anaphor in the key or the response)\n"
ZERO_ZERO = "zero\nRecall: 0.00  Precision: 0.00  F1: 0.00\n"


def accept_deliberate(ours, reference):
    """Our one deliberate text difference: the zero score without zero anaphors
    is printed as not applicable where 1.2 prints 0.00. Returns our text with
    1.2's line put back where that is the only reason, and whether it was."""
    if NA_ZERO in ours and ZERO_ZERO in reference:
        return ours.replace(NA_ZERO, ZERO_ZERO), True
    return ours, False


def value_diffs(ours_vals, refv):
    """Largest |ours - official| per metric; a metric we call not applicable
    is fine only where the official values are all 0."""
    diffs = {}
    for m in ROWS:
        rv, ov = refv.get(m), ours_vals.get(m)
        if rv is None:
            continue
        rvs = rv if isinstance(rv, list) else [rv]
        if ov == "invalid":
            d = math.inf
        elif ov is None:
            d = max(abs(x) for x in rvs)
        else:
            ovs = ov if isinstance(ov, list) else [ov]
            d = max(abs(x - y) for x, y in zip(ovs, rvs))
            if any(math.isnan(x) for x in ovs):
                d = math.inf
        diffs[m] = d
    return diffs


def split_text(text):
    """Split the official text format into blocks: preamble, one line per metric,
    the CoNLL line and anything else."""
    lines = text.split("\n")
    blocks = {}
    try:
        i = lines.index("")
    except ValueError:
        i = len(lines) - 1
    blocks["preamble"] = "\n".join(lines[:i + 1])
    rest = lines[i + 1:]
    other = []
    j = 0
    while j < len(rest):
        line = rest[j]
        if line in METRICS and j + 1 < len(rest) and line not in blocks:
            blocks[line] = rest[j + 1]
            j += 2
        elif line.startswith("CoNLL score:") and "conll" not in blocks:
            blocks["conll"] = line
            j += 1
        else:
            other.append(line)
            j += 1
    blocks["other"] = "\n".join(other)
    return blocks


def pair_params(base_seed, idx, a):
    """Deterministic generator parameters of pair ``idx``."""
    pair_seed = base_seed * 100003 + idx
    r = random.Random(pair_seed * 7 + 13)
    if r.random() < 0.3:
        tokens = r.randint(5, 60)
    else:
        tokens = r.randint(60, max(60, a.tokens_max))
    params = {
        "seed": pair_seed,
        "docs": r.randint(1, max(1, a.docs_max)),
        "tokens": tokens,
        "density": r.choice([0.05, 0.15, 0.25, 0.4]),
        "zeros": r.choice([0.0, 0.02, 0.05, 0.1]),
        "ties": r.choice([0.0, 0.0, 0.15, 0.4]),
        "error_scale": r.choice([0.0, 0.5, 1.0, 2.0, 4.0]),
        "discontinuous": r.choice([0.06, 0.2]),
        "singletons": r.choice([0.2, 0.45, 0.7]),
        "zeros_without_deps": 0.0,
    }
    if a.zeros_without_deps > 0 and r.random() < 0.3:
        params["zeros_without_deps"] = a.zeros_without_deps
    params.update(reuse_ids=0.0, shared_spans=0.0, cross_links=0.0)
    if a.reused_ids > 0 and r.random() < a.reused_ids:
        # ids recurring across documents, spans in two entities, links to earlier documents
        params.update(docs=max(2, params["docs"]), reuse_ids=r.choice([0.2, 0.5, 0.8]),
                      shared_spans=r.choice([0.02, 0.08, 0.2]), cross_links=r.choice([0.0, 0.3]))
    return params


def generator_command(params, key, resp):
    cmd = ["python", "bench/generate.py", "--seed", str(params["seed"]),
           "--docs", str(params["docs"]), "--tokens", str(params["tokens"])]
    for k in ("density", "zeros", "ties", "error_scale", "discontinuous", "singletons",
              "zeros_without_deps", "reuse_ids", "shared_spans", "cross_links"):
        cmd += ["--" + k.replace("_", "-"), repr(params[k])]
    cmd += ["--out-key", key, "--out-response", resp]
    return " ".join(shlex.quote(c) for c in cmd)


def write_generated(params, key, resp):
    generate.write_pair(
        key, resp, params["seed"], docs=params["docs"], tokens_per_doc=params["tokens"],
        density=params["density"], zeros=params["zeros"], ties=params["ties"],
        error_scale=params["error_scale"], discontinuous=params["discontinuous"],
        singletons=params["singletons"], zeros_without_deps=params["zeros_without_deps"],
        reuse_ids=params["reuse_ids"], shared_spans=params["shared_spans"],
        cross_links=params["cross_links"])


def metric_triple(obj):
    if obj is None or obj.get("f1", 0) is None:
        return None  # not applicable
    try:
        return [float(obj["recall"]), float(obj["precision"]), float(obj["f1"])]
    except (KeyError, TypeError, ValueError):
        return "invalid"


# --------------------------------------------------------------------------
# one pair
# --------------------------------------------------------------------------

class Context:
    def __init__(self):
        self.local = threading.local()
        self.workers = []
        self.lock = threading.Lock()

    def _worker(self, attr, cmd, cwd, env):
        w = getattr(self.local, attr, None)
        if w is None:
            w = Worker(cmd, cwd, env)
            setattr(self.local, attr, w)
            with self.lock:
                self.workers.append(w)
        return w

    def ref_worker(self):
        return self._worker("ref", [self.args.reference_python, self.driver, self.args.reference, "--serve"],
                            self.args.reference, None)

    def run_ours(self, args):
        """Run our scorer with these arguments: (returncode, stdout bytes, stderr text)."""
        a = self.args
        if not a.fast:
            return run(self.ours_cmd + args, cwd=PROJECT, timeout=a.timeout, env=self.env)
        w = self._worker("ours", [self.ours_python, self.ours_worker], PROJECT, self.env)
        reply, err = w.request({"args": args}, a.timeout)
        if reply is None:
            return -1, b"", err
        return reply["rc"], base64.b64decode(reply["stdout"]), reply["stderr"]

    def close(self):
        for w in self.workers:
            w.close()


def run_pair(ctx, idx):
    a = ctx.args
    params = pair_params(a.seed, idx, a)
    pdir = os.path.join(ctx.tmp, "pair-%04d" % idx)
    os.makedirs(pdir, exist_ok=True)
    key = os.path.join(pdir, "key.conllu")
    resp = os.path.join(pdir, "response.conllu")
    t0 = time.time()
    write_generated(params, key, resp)
    result = {"idx": idx, "params": params, "dir": pdir, "key": key, "response": resp,
              "runs": [], "setup_error": None}

    # --- official scorer, all settings in one driver process
    settings_file = os.path.join(pdir, "settings.json")
    with open(settings_file, "w") as f:
        json.dump([setting_flags(*s) for s in ctx.settings], f)
    ref_json = os.path.join(pdir, "reference.json")
    ref_results = None
    if a.fast:
        ref_results, err = ctx.ref_worker().request(
            {"key": key, "sys": resp, "settings": [setting_flags(*s) for s in ctx.settings]},
            a.timeout * len(ctx.settings))
        if ref_results is None:
            result["setup_error"] = "reference driver failed: " + err
    else:
        rc, out, err = run([a.reference_python, ctx.driver, a.reference, key, resp,
                            settings_file, ref_json], cwd=a.reference, timeout=a.timeout * len(ctx.settings))
        if rc == 0 and os.path.exists(ref_json):
            with open(ref_json) as f:
                ref_results = json.load(f)
        else:
            result["setup_error"] = "reference driver failed (exit %s):\n%s" % (rc, tail(err, 25))

    # --- real official command line for the first pairs (driver sanity check)
    cli_problems = []
    if ref_results is not None and idx < a.cli_check:
        for s, ref in zip(ctx.settings, ref_results):
            crc, cout, cerr = run([a.reference_python, os.path.join(a.reference, "corefud-scorer.py"),
                                   key, resp] + setting_flags(*s), cwd=a.reference, timeout=a.timeout)
            cli_ok = crc == 0
            if cli_ok != ref["ok"] or cout.decode("utf-8", "replace") != ref["stdout"]:
                cli_problems.append("%s: command line exit %d / driver ok=%s; stdout %s" % (
                    setting_name(*s), crc, ref["ok"],
                    "equal" if cout.decode("utf-8", "replace") == ref["stdout"] else "DIFFERENT"))
    if a.fast and idx < a.cli_check:
        # the in-process runs of our scorer must equal real `python -m corefud_scorer` runs
        for s in ctx.settings:
            for extra in (["--output", "json"], []):
                args = [key, resp] + setting_flags(*s) + extra
                r1 = run(ctx.ours_cmd + args, cwd=PROJECT, timeout=a.timeout, env=ctx.env)
                r2 = ctx.run_ours(args)
                if r1[0] != r2[0] or r1[1] != r2[1]:
                    cli_problems.append("ours %s %s: command line exit %d / in-process exit %d; stdout %s" % (
                        setting_name(*s), " ".join(extra), r1[0], r2[0],
                        "equal" if r1[1] == r2[1] else "DIFFERENT"))
    result["cli_problems"] = cli_problems

    # --- our scorer
    for si, s in enumerate(ctx.settings):
        flags = setting_flags(*s)
        run_res = {"setting": setting_name(*s), "flags": flags, "failed": False, "reasons": [],
                   "diffs": {}, "text_mismatch": [], "ref_crashed": False, "ref_error": None,
                   "ours_error": None, "ours_values": None, "ref_values": None,
                   "text_equal": None, "ref_warnings": ""}
        ref = ref_results[si] if ref_results is not None else None
        if ref is not None:
            run_res["ref_warnings"] = ref.get("warnings", "")
        # our JSON
        jrc, jout, jerr = ctx.run_ours([key, resp] + flags + ["--output", "json"])
        ours = None
        if jrc != 0:
            run_res["ours_error"] = "exit %d (json)\n%s" % (jrc, tail(jerr))
        else:
            try:
                ours = json.loads(jout.decode("utf-8"))
                if not isinstance(ours, dict) or not isinstance(ours.get("metrics"), dict):
                    raise ValueError("no 'metrics' object")
            except (ValueError, UnicodeDecodeError) as exc:
                run_res["ours_error"] = "invalid JSON output (%s): %r\n%s" % (
                    exc, jout[:300], tail(jerr))
                ours = None
        if ours is not None:
            run_res["ours_values"] = {m: metric_triple(ours["metrics"].get(m)) for m in METRICS}
            conll = ours["metrics"].get("conll")
            run_res["ours_values"]["conll"] = (
                None if conll is None else
                (float(conll["f1"]) if isinstance(conll, dict) and "f1" in conll else "invalid"))
        # our text
        ours_text = None
        if not a.no_text:
            trc, tout, terr = ctx.run_ours([key, resp] + flags)
            if trc != 0:
                msg = "exit %d (text)\n%s" % (trc, tail(terr))
                run_res["ours_error"] = (run_res["ours_error"] + "\n" + msg) if run_res["ours_error"] else msg
            else:
                ours_text = tout.decode("utf-8", "replace")
        run_res["ours_text"] = ours_text

        if ref is None:
            run_res["failed"] = True
            run_res["reasons"].append("no reference result")
            result["runs"].append(run_res)
            continue
        if not ref["ok"] or not ref.get("complete"):
            run_res["ref_crashed"] = True
            run_res["ref_error"] = ref["error"] or "incomplete output"
            run_res["ref_traceback"] = ref.get("traceback")
            result["runs"].append(run_res)
            continue

        refv = {m: ref["values"].get(m) for m in METRICS}
        if all(refv[m] is not None for m in ("muc", "bcub", "ceafe")):
            refv["conll"] = (0 + refv["muc"][2] + refv["bcub"][2] + refv["ceafe"][2]) / 3
        else:
            refv["conll"] = None
        run_res["ref_values"] = refv

        if run_res["ours_error"]:
            run_res["failed"] = True
            run_res["reasons"].append("our scorer failed: " + run_res["ours_error"].split("\n")[0])
        if ours is not None:
            for m, d in value_diffs(run_res["ours_values"], refv).items():
                run_res["diffs"][m] = d
                if d > a.tolerance:
                    run_res["failed"] = True
                    run_res["reasons"].append("%s differs by %.3g (ours %s, reference %s)" % (
                        m, d, fmt_vals(run_res["ours_values"].get(m)), fmt_vals(refv.get(m))))
        if not a.no_text and ours_text is not None:
            ours_text, deliberate = accept_deliberate(ours_text, ref["stdout"])
            run_res["deliberate_zero_na"] = deliberate
            run_res["text_equal"] = ours_text == ref["stdout"]
            if not run_res["text_equal"]:
                ob, rb = split_text(ours_text), split_text(ref["stdout"])
                run_res["text_mismatch"] = [k for k in ("preamble",) + ROWS + ("other",)
                                            if ob.get(k) != rb.get(k)]
                run_res["failed"] = True
                diff = list(difflib.unified_diff(ref["stdout"].split("\n"), ours_text.split("\n"),
                                                 "official", "ours", n=0, lineterm=""))
                run_res["text_diff"] = "\n".join(diff[:12])
                run_res["reasons"].append("text output differs in: " + ", ".join(run_res["text_mismatch"]))
        result["runs"].append(run_res)
    result["seconds"] = time.time() - t0
    return result


def fmt_vals(v):
    if v is None:
        return "null"
    if v == "invalid":
        return "invalid"
    if isinstance(v, list):
        return "(" + ", ".join("%.10g" % x for x in v) + ")"
    return "%.10g" % v


def fmt_ours_short(run_res):
    if run_res["ours_error"]:
        return "ours failed: " + run_res["ours_error"].split("\n")[0]
    ov = run_res["ours_values"] or {}
    c = ov.get("conll")
    z = ov.get("zero")
    parts = []
    if isinstance(c, float):
        parts.append("CoNLL F1 %.4f" % c)
    for m in ("muc", "zero"):
        v = ov.get(m)
        if isinstance(v, list):
            parts.append("%s R/P/F1 %.4f/%.4f/%.4f" % (m, v[0], v[1], v[2]))
        elif v is None:
            parts.append("%s null" % m)
    del z
    return "ours: " + ", ".join(parts)


# --------------------------------------------------------------------------
# main
# --------------------------------------------------------------------------

def parse_args(argv):
    ap = argparse.ArgumentParser(
        description="Compare corefud_scorer with the official CorefUD scorer 1.2 on generated pairs.")
    ap.add_argument("--pairs", type=int, default=200, help="number of generated pairs (default 200)")
    ap.add_argument("--seed", type=int, default=1, help="base seed (default 1)")
    ap.add_argument("--reference", default="/work/ref",
                    help="directory of the official scorer (default /work/ref)")
    ap.add_argument("--reference-python", default=sys.executable,
                    help="Python running the official scorer (default: this one)")
    ap.add_argument("--cmd", default=None,
                    help="our scorer's command (default: '<this python> -m corefud_scorer', run in the project root)")
    ap.add_argument("--keep", default=None, help="copy the files of failing pairs to this directory")
    ap.add_argument("--keep-max", type=int, default=50, help="keep at most this many failing pairs (default 50)")
    ap.add_argument("--jobs", type=int, default=2, help="pairs processed in parallel (default 2)")
    ap.add_argument("--tolerance", type=float, default=1e-9, help="allowed absolute difference (default 1e-9)")
    ap.add_argument("--match", action="append", choices=MATCHES,
                    help="restrict to this -a value (repeatable; default all)")
    ap.add_argument("--zero", action="append", choices=ZEROS,
                    help="restrict to this -z value (repeatable; default all)")
    ap.add_argument("--singletons", choices=("yes", "no", "both"), default="both",
                    help="runs with -s, without, or both (default both)")
    ap.add_argument("--docs-max", type=int, default=4, help="max documents per pair (default 4)")
    ap.add_argument("--tokens-max", type=int, default=400, help="max words per document (default 400)")
    ap.add_argument("--zeros-without-deps", type=float, default=0.0,
                    help="share of empty nodes with DEPS '_' in ~30%% of the pairs (default 0: never); "
                         "the official scorer crashes on them with -z dependent")
    ap.add_argument("--reused-ids", type=float, default=0.3,
                    help="share of pairs whose files reuse entity ids across documents, put spans "
                         "into two entities and link to earlier documents' entities (default 0.3)")
    ap.add_argument("--no-text", action="store_true", help="skip the text-output comparison")
    ap.add_argument("--cli-check", type=int, default=2,
                    help="for the first N pairs also run both command lines for real (one process per run) "
                         "and check that the driver / in-process runs print the same bytes (default 2)")
    ap.add_argument("--timeout", type=float, default=300, help="timeout per scorer run in seconds")
    ap.add_argument("--subprocess", action="store_true",
                    help="start a new process for every scorer run (slow: ~16 s per pair) instead of keeping "
                         "one process per job alive (ours via runpy, exactly like python -m corefud_scorer; "
                         "the official via the driver's serve mode)")
    ap.add_argument("--show", type=int, default=5, help="failing pairs to list in detail (default 5)")
    ap.add_argument("--json-report", default=None, help="write a machine-readable report here")
    ap.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    return ap.parse_args(argv)


def main(argv=None):
    a = parse_args(argv)
    a.fast = not a.subprocess
    a.reference = os.path.abspath(a.reference)
    if not os.path.exists(os.path.join(a.reference, "corefud-scorer.py")):
        print("error: no corefud-scorer.py in %s" % a.reference, file=sys.stderr)
        return 2
    ctx = Context()
    ctx.args = a
    ctx.ours_cmd = shlex.split(a.cmd) if a.cmd else [sys.executable, "-m", "corefud_scorer"]
    env = dict(os.environ)
    env["PYTHONPATH"] = PROJECT + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    ctx.env = env
    matches = a.match or list(MATCHES)
    zeros = a.zero or list(ZEROS)
    sing = {"yes": [True], "no": [False], "both": [False, True]}[a.singletons]
    ctx.settings = [(m, z, s) for m in matches for z in zeros for s in sing]
    ctx.tmp = tempfile.mkdtemp(prefix="corefud-diff-")
    ctx.driver = os.path.join(ctx.tmp, "reference_driver.py")
    with open(ctx.driver, "w") as f:
        f.write(DRIVER)
    ctx.ours_worker = os.path.join(ctx.tmp, "ours_worker.py")
    with open(ctx.ours_worker, "w") as f:
        f.write(OURS_WORKER)
    if a.fast:
        if len(ctx.ours_cmd) != 3 or ctx.ours_cmd[1:] != ["-m", "corefud_scorer"]:
            print("error: a --cmd other than 'PYTHON -m corefud_scorer' needs --subprocess", file=sys.stderr)
            shutil.rmtree(ctx.tmp, ignore_errors=True)
            return 2
        ctx.ours_python = ctx.ours_cmd[0]

    t_start = time.time()
    results = [None] * a.pairs
    lock = threading.Lock()
    done = [0, 0]

    def task(i):
        r = run_pair(ctx, i)
        with lock:
            done[0] += 1
            if r["setup_error"] or any(x["failed"] for x in r["runs"]):
                done[1] += 1
            if not a.quiet and (done[0] % 10 == 0 or done[0] == a.pairs):
                print("[%d/%d pairs, %d failing, %.0fs]" % (done[0], a.pairs, done[1], time.time() - t_start),
                      file=sys.stderr, flush=True)
        return i, r

    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
            for i, r in ex.map(task, range(a.pairs)):
                results[i] = r
        code = report(ctx, results, time.time() - t_start)
    finally:
        ctx.close()
        shutil.rmtree(ctx.tmp, ignore_errors=True)
    return code


def report(ctx, results, elapsed):
    a = ctx.args
    w = sys.stdout.write
    nruns = sum(len(r["runs"]) for r in results)
    maxdiff = {m: (0.0, None) for m in ROWS}
    text_mm = {k: 0 for k in ("preamble",) + ROWS + ("other",)}
    per_setting = {}
    text_runs_mismatch = 0
    deliberate = 0
    ref_crashes = []
    ours_failures = 0
    ref_warning_runs = 0
    failing = []
    setup_errors = [r for r in results if r["setup_error"]]
    cli_problems = [(r["idx"], p) for r in results for p in r.get("cli_problems", [])]
    for r in results:
        pair_failed = bool(r["setup_error"])
        for x in r["runs"]:
            st = per_setting.setdefault(x["setting"], {"runs": 0, "ref_crash": 0, "ours_fail": 0,
                                                         "text": 0, "max": 0.0})
            st["runs"] += 1
            if x["ref_warnings"]:
                ref_warning_runs += 1
            if x["ref_crashed"]:
                st["ref_crash"] += 1
                ref_crashes.append((r, x))
                continue
            if x["ours_error"]:
                st["ours_fail"] += 1
                ours_failures += 1
            for m, d in x["diffs"].items():
                if d > maxdiff[m][0] or (maxdiff[m][1] is None and d > 0):
                    maxdiff[m] = (d, "pair %d %s" % (r["idx"], x["setting"]))
                st["max"] = max(st["max"], d)
            deliberate += bool(x.get("deliberate_zero_na"))
            if x["text_equal"] is False:
                text_runs_mismatch += 1
                st["text"] += 1
                for k in x["text_mismatch"]:
                    text_mm[k] += 1
            if x["failed"]:
                pair_failed = True
        if pair_failed:
            failing.append(r)

    compared = nruns - len(ref_crashes)
    w("Differential test: %d pairs x %d settings = %d runs (%d compared, %d reference crashes) in %.0fs\n" % (
        len(results), len(ctx.settings), nruns, compared, len(ref_crashes), elapsed))
    w("ours: %s (cwd %s%s); reference: %s\n\n" % (" ".join(ctx.ours_cmd), PROJECT,
                                                   ", one process per job" if a.fast else ", one process per run", a.reference))

    w("%-9s %-12s %-36s %s\n" % ("metric", "max |diff|", "where", "text mismatches"))
    w("%-9s %-12s %-36s %s\n" % ("-" * 9, "-" * 12, "-" * 36, "-" * 15))
    for m in ROWS:
        d, where = maxdiff[m]
        w("%-9s %-12s %-36s %s\n" % (m, "inf" if d == math.inf else "%.3g" % d, where or "-",
                                     "-" if a.no_text else text_mm[m]))
    if not a.no_text:
        w("%-9s %-12s %-36s %d\n" % ("preamble", "", "", text_mm["preamble"]))
        w("%-9s %-12s %-36s %d\n" % ("other", "", "", text_mm["other"]))
        w("runs whose text output differs: %d of %d compared\n" % (text_runs_mismatch, compared))
    w("runs where our scorer failed: %d\n" % ours_failures)
    w("reference runs that logged warnings: %d\n\n" % ref_warning_runs)

    w("%-22s %6s %10s %10s %8s %s\n" % ("setting", "runs", "ref crash", "ours fail", "text", "max |diff|"))
    for s in ctx.settings:
        name = setting_name(*s)
        st = per_setting.get(name, {"runs": 0, "ref_crash": 0, "ours_fail": 0, "text": 0, "max": 0.0})
        w("%-22s %6d %10d %10d %8s %.3g\n" % (name, st["runs"], st["ref_crash"], st["ours_fail"],
                                              "-" if a.no_text else st["text"], st["max"]))
    w("\n")

    if setup_errors:
        w("SET-UP ERRORS (%d pairs), first:\n%s\n\n" % (len(setup_errors), setup_errors[0]["setup_error"]))
    if cli_problems:
        w("DRIVER / COMMAND LINE DISAGREEMENT (the driver does not reproduce the official CLI):\n")
        for idx, p in cli_problems[:10]:
            w("  pair %d %s\n" % (idx, p))
        w("\n")

    if ref_crashes:
        kinds = {}
        for r, x in ref_crashes:
            kinds.setdefault(x["ref_error"].split("\n")[0][:100], []).append((r, x))
        w("Reference crashed in %d runs (not counted as differences):\n" % len(ref_crashes))
        for k, lst in kinds.items():
            settings = sorted({x["setting"] for _, x in lst})
            w("  %d x %s   [settings: %s]\n" % (len(lst), k, ", ".join(settings)))
        for r, x in ref_crashes[:min(5, a.show)]:
            w("    pair %d %s: reference %s; %s\n" % (r["idx"], x["setting"], x["ref_error"].split("\n")[0],
                                                     fmt_ours_short(x)))
        w("\n")

    kept = []
    if failing:
        w("FAILING PAIRS: %d of %d\n" % (len(failing), len(results)))
        if a.keep:
            os.makedirs(a.keep, exist_ok=True)
        for n, r in enumerate(failing):
            kdir = None
            if a.keep and n < a.keep_max:
                kdir = os.path.join(os.path.abspath(a.keep), "pair-%04d" % r["idx"])
                os.makedirs(kdir, exist_ok=True)
                kkey = os.path.join(kdir, "key.conllu")
                kresp = os.path.join(kdir, "response.conllu")
                shutil.copyfile(r["key"], kkey)
                shutil.copyfile(r["response"], kresp)
                with open(os.path.join(kdir, "README.txt"), "w") as f:
                    f.write(failure_text(ctx, r, kkey, kresp, full=True))
                kept.append(kdir)
            if n < a.show:
                kkey = os.path.join(kdir, "key.conllu") if kdir else "K.conllu"
                kresp = os.path.join(kdir, "response.conllu") if kdir else "R.conllu"
                w(failure_text(ctx, r, kkey, kresp, full=False))
        if len(failing) > a.show:
            w("... and %d more failing pairs: %s\n" % (
                len(failing) - a.show, " ".join(str(r["idx"]) for r in failing[a.show:a.show + 40])))
        if kept:
            w("files of %d failing pairs kept under %s\n" % (len(kept), os.path.abspath(a.keep)))
        w("\n")

    worst = max((maxdiff[m][0] for m in ROWS), default=0.0)
    ok = not failing and not setup_errors and not cli_problems
    if a.json_report:
        with open(a.json_report, "w") as f:
            json.dump({
                "pairs": len(results), "settings": [setting_name(*s) for s in ctx.settings],
                "runs": nruns, "reference_crashes": len(ref_crashes),
                "max_abs_diff": {m: maxdiff[m][0] if maxdiff[m][0] != math.inf else "inf" for m in ROWS},
                "text_mismatches": text_mm, "text_runs_mismatch": text_runs_mismatch,
                "ours_failures": ours_failures, "failing_pairs": [r["idx"] for r in failing],
                "kept": kept, "ok": ok,
            }, f, indent=1)
    if cli_problems or (setup_errors and len(setup_errors) == len(results)):
        w("RESULT: set-up problem\n")
        return 2
    w("runs where only the deliberate zero 'n/a' line differs (accepted): %d\n" % deliberate)
    w("RESULT: %s (largest difference %s, %d text mismatches, %d failing pairs)\n" % (
        "OK" if ok else "FAIL", "inf" if worst == math.inf else "%.3g" % worst,
        text_runs_mismatch, len(failing)))
    return 0 if ok else 1


def failure_text(ctx, r, kkey, kresp, full):
    a = ctx.args
    out = []
    p = r["params"]
    out.append("pair %d: %d docs x %d words, density %g, zeros %g, ties %g, error scale %g%s\n" % (
        r["idx"], p["docs"], p["tokens"], p["density"], p["zeros"], p["ties"], p["error_scale"],
        ", zeros without deps %g" % p["zeros_without_deps"] if p["zeros_without_deps"] else ""))
    out.append("  regenerate: %s\n" % generator_command(p, kkey, kresp))
    if r["setup_error"]:
        out.append("  " + r["setup_error"].replace("\n", "\n  ") + "\n")
    shown = 0
    for x in r["runs"]:
        if not x["failed"]:
            continue
        if not full and shown >= 3:
            out.append("  ... (%d more failing settings)\n" % (
                sum(1 for y in r["runs"] if y["failed"]) - shown))
            break
        shown += 1
        flags = " ".join(x["flags"])
        out.append("  [%s]\n" % x["setting"])
        out.append("    ours:     %s %s %s %s --output json\n" % (" ".join(ctx.ours_cmd), kkey, kresp, flags))
        out.append("    official: cd %s && %s corefud-scorer.py %s %s %s\n" % (
            a.reference, os.path.basename(a.reference_python), kkey, kresp, flags))
        for reason in x["reasons"][: (50 if full else 6)]:
            out.append("    - %s\n" % reason)
        if x["ours_error"]:
            out.append("    our stderr (tail):\n      " +
                       x["ours_error"].split("\n", 1)[-1].replace("\n", "\n      ") + "\n")
        if x.get("text_diff"):
            out.append("    text diff (official -> ours):\n      " +
                       x["text_diff"].replace("\n", "\n      ") + "\n")
    return "".join(out)


if __name__ == "__main__":
    sys.exit(main())
