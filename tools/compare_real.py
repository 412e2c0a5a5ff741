#!/usr/bin/env python3
"""Compare our scorer with the official CorefUD scorer 1.2 on real files.

For one KEY and any number of RESPONSE files (e.g. the key itself and
responses written by tools/perturb.py) this runs, for every combination of
``-a exact|partial|head``, ``-z linear|dependent`` and with/without ``-s``:

* ours:     ``python -m corefud_scorer KEY SYS FLAGS --output json`` and the same
            without ``--output json`` (text), in the project root;
* official: the driver of tools/differential.py (written to a temporary directory
            at run time) which imports the official command line from --reference,
            calls its main() and records its stdout and, by wrapping the official
            evaluator.evaluate_documents, the unrounded recall/precision/F1 of every
            metric.  All official numbers come from the official code itself.

It reports (a) whether the text outputs are byte-identical -- the only tolerated
difference is the ``zero`` line when ours prints ``Recall: n/a ...`` (no zero
anaphor on either side, our JSON has ``zero: null``) and 1.2 prints 0.00 -- and
(b) the largest absolute difference per metric between our JSON and the
official unrounded values.  Warnings printed by either scorer are collected.

With --localize, every failing (response, setting) is narrowed down to the
documents where the two scorers disagree: both files are cut into one file per
document and scored again, document by document (the per-document files are
kept under --keep DIR if given).

    python tools/compare_real.py KEY RESPONSE [RESPONSE ...] [--reference /work/ref]
        [--json-report FILE] [--localize] [--keep DIR] [--match head] [--zero linear]
        [--singletons yes|no|both] [--cli-check N]

Exit status: 0 = no difference, 1 = some difference or failure, 2 = set-up problem.
"""

import argparse
import concurrent.futures
import difflib
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PROJECT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

import differential as D  # noqa: E402  (tools/differential.py: driver, runner, text splitter)

METRICS = D.METRICS
ROWS = D.ROWS
ZERO_NA_PREFIX = "Recall: n/a"


# --------------------------------------------------------------------------
# running
# --------------------------------------------------------------------------

def settings_of(a):
    matches = a.match or list(D.MATCHES)
    zeros = a.zero or list(D.ZEROS)
    sing = {"yes": [True], "no": [False], "both": [False, True]}[a.singletons]
    return [(m, z, s) for m in matches for z in zeros for s in sing]


def run_reference(ctx, key, resp, settings, workdir):
    """All settings in one official driver process; list of per-setting dicts."""
    sfile = os.path.join(workdir, "settings.json")
    ofile = os.path.join(workdir, "reference.json")
    with open(sfile, "w") as f:
        json.dump([D.setting_flags(*s) for s in settings], f)
    t0 = time.time()
    rc, out, err = D.run([ctx.python, ctx.driver, ctx.reference, key, resp, sfile, ofile],
                         cwd=ctx.reference, timeout=ctx.timeout * len(settings))
    elapsed = time.time() - t0
    if rc != 0 or not os.path.exists(ofile):
        return None, "reference driver failed (exit %s):\n%s" % (rc, D.tail(err, 25)), elapsed
    with open(ofile) as f:
        return json.load(f), None, elapsed


def run_ours(ctx, key, resp, flags):
    """Our scorer, JSON and text; dict with values, text, warnings, error."""
    res = {"values": None, "text": None, "warnings": "", "error": None, "seconds": 0.0}
    t0 = time.time()
    jrc, jout, jerr = D.run(ctx.ours_cmd + [key, resp] + flags + ["--output", "json"],
                            cwd=ctx.ours_dir, timeout=ctx.timeout, env=ctx.env)
    res["seconds"] = time.time() - t0
    res["warnings"] = jerr
    if jrc != 0:
        res["error"] = "exit %d (json)\n%s" % (jrc, D.tail(jerr))
    else:
        try:
            ours = json.loads(jout.decode("utf-8"))
            vals = {m: D.metric_triple(ours["metrics"].get(m)) for m in METRICS}
            conll = ours["metrics"].get("conll")
            vals["conll"] = None if conll is None else float(conll["f1"])
            res["values"] = vals
        except (ValueError, KeyError, TypeError, UnicodeDecodeError) as exc:
            res["error"] = "invalid JSON output (%s)" % exc
    trc, tout, terr = D.run(ctx.ours_cmd + [key, resp] + flags, cwd=ctx.ours_dir,
                            timeout=ctx.timeout, env=ctx.env)
    if trc != 0:
        msg = "exit %d (text)\n%s" % (trc, D.tail(terr))
        res["error"] = (res["error"] + "\n" + msg) if res["error"] else msg
    else:
        res["text"] = tout.decode("utf-8", "replace")
    return res


def ref_values(ref):
    refv = {m: ref["values"].get(m) for m in METRICS}
    if all(refv[m] is not None for m in ("muc", "bcub", "ceafe")):
        refv["conll"] = (0 + refv["muc"][2] + refv["bcub"][2] + refv["ceafe"][2]) / 3
    else:
        refv["conll"] = None
    return refv


value_diffs = D.value_diffs


def normalise_zero_line(ours_text, ref_text, ours_vals):
    """Replace our `zero` n/a line by the official line where that is the one
    documented difference (ours: n/a and JSON null; 1.2: 0.00).  Returns
    (text, replaced?)."""
    ol = ours_text.split("\n")
    rl = ref_text.split("\n")
    try:
        i = ol.index("zero")
        j = rl.index("zero")
    except ValueError:
        return ours_text, False
    if i + 1 < len(ol) and j + 1 < len(rl) and ol[i + 1].startswith(ZERO_NA_PREFIX) \
            and ours_vals is not None and ours_vals.get("zero") is None \
            and rl[j + 1] == "Recall: 0.00  Precision: 0.00  F1: 0.00":
        ol[i + 1] = rl[j + 1]
        return "\n".join(ol), True
    return ours_text, False


def compare_one(ctx, key, resp, setting, ref, ours):
    r = {"setting": D.setting_name(*setting), "flags": D.setting_flags(*setting),
         "failed": False, "reasons": [], "diffs": {}, "text_equal": None, "zero_na": False,
         "text_mismatch": [], "text_diff": None, "ref_error": None, "ours_error": ours["error"],
         "ref_warnings": "", "ours_warnings": ours["warnings"], "ours_seconds": ours["seconds"],
         "ours_values": ours["values"], "ref_values": None}
    if ref is None:
        r["failed"] = True
        r["reasons"].append("no official result")
        return r
    r["ref_warnings"] = ref.get("warnings", "")
    if not ref["ok"] or not ref.get("complete"):
        r["failed"] = True
        r["ref_error"] = (ref["error"] or "incomplete output") + "\n" + (ref.get("traceback") or "")
        r["reasons"].append("official scorer failed: " + (ref["error"] or "incomplete output"))
        return r
    refv = ref_values(ref)
    r["ref_values"] = refv
    if ours["error"]:
        r["failed"] = True
        r["reasons"].append("our scorer failed: " + ours["error"].split("\n")[0])
    if ours["values"] is not None:
        r["diffs"] = value_diffs(ours["values"], refv)
        for m, d in r["diffs"].items():
            if d > ctx.tolerance:
                r["failed"] = True
                r["reasons"].append("%s differs by %.3g (ours %s, official %s)" % (
                    m, d, D.fmt_vals(ours["values"].get(m)), D.fmt_vals(refv.get(m))))
    if ours["text"] is not None:
        text, replaced = normalise_zero_line(ours["text"], ref["stdout"], ours["values"])
        r["zero_na"] = replaced
        r["text_equal"] = text == ref["stdout"]
        if not r["text_equal"]:
            ob, rb = D.split_text(text), D.split_text(ref["stdout"])
            r["text_mismatch"] = [k for k in ("preamble",) + ROWS + ("other",) if ob.get(k) != rb.get(k)]
            diff = list(difflib.unified_diff(ref["stdout"].split("\n"), text.split("\n"),
                                             "official", "ours", n=0, lineterm=""))
            r["text_diff"] = "\n".join(diff[:16])
            r["failed"] = True
            r["reasons"].append("text differs in: " + ", ".join(r["text_mismatch"]))
    return r


# --------------------------------------------------------------------------
# localisation: which documents disagree
# --------------------------------------------------------------------------

def split_documents(path):
    """[(doc name, text)] of a CoNLL-U file cut at '# newdoc' lines.  Every
    part repeats nothing: global.Entity sits right after newdoc in CorefUD."""
    docs = []
    cur, name = [], None
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("# newdoc"):
                if cur:
                    docs.append((name, "".join(cur)))
                cur = []
                name = line.split("=", 1)[1].strip() if "=" in line else "doc%d" % (len(docs) + 1)
            cur.append(line)
    if cur:
        docs.append((name, "".join(cur)))
    return docs


def localize(ctx, key, resp, setting, outdir):
    """Score each document separately with both scorers; return the list of
    (doc, reasons, key file, response file) for the documents that disagree."""
    kd, rd = split_documents(key), split_documents(resp)
    if [n for n, _ in kd] != [n for n, _ in rd]:
        return [("(documents do not line up)", [], None, None)]
    os.makedirs(outdir, exist_ok=True)
    pairs = []
    for i, ((name, ktext), (_, rtext)) in enumerate(zip(kd, rd)):
        safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in (name or "doc"))
        kf = os.path.join(outdir, "%02d-%s.key.conllu" % (i + 1, safe))
        rf = os.path.join(outdir, "%02d-%s.response.conllu" % (i + 1, safe))
        with open(kf, "w", encoding="utf-8") as f:
            f.write(ktext)
        with open(rf, "w", encoding="utf-8") as f:
            f.write(rtext)
        pairs.append((name, kf, rf))
    worker = D.Worker([ctx.python, ctx.driver, ctx.reference, "--serve"], ctx.reference, None)
    bad = []
    try:
        for name, kf, rf in pairs:
            refres, err = worker.request({"key": kf, "sys": rf, "settings": [D.setting_flags(*setting)]},
                                         ctx.timeout)
            ref = refres[0] if refres else None
            ours = run_ours(ctx, kf, rf, D.setting_flags(*setting))
            r = compare_one(ctx, kf, rf, setting, ref, ours)
            if err:
                r["reasons"].append("official driver: " + err)
            if r["failed"]:
                bad.append((name, r["reasons"], kf, rf))
    finally:
        worker.close()
    return bad


# --------------------------------------------------------------------------
# report
# --------------------------------------------------------------------------

def warning_lines(text):
    return [l for l in (text or "").split("\n") if l.strip()]


def summarise_warnings(runs, field):
    counts = {}
    for x in runs:
        for l in warning_lines(x[field]):
            counts[l] = counts.get(l, 0) + 1
    return counts


def main(argv=None):
    ap = argparse.ArgumentParser(description="Compare corefud_scorer with the official scorer 1.2 on real files.")
    ap.add_argument("key")
    ap.add_argument("responses", nargs="+")
    ap.add_argument("--reference", default="/work/ref")
    ap.add_argument("--python", default=sys.executable, help="Python for both scorers (default: this one)")
    ap.add_argument("--cmd", default=None, help="our scorer's command (default '<python> -m corefud_scorer')")
    ap.add_argument("--ours-dir", default=PROJECT,
                    help="directory holding the corefud_scorer package to test (cwd and PYTHONPATH of our "
                         "runs; default the project root).  E.g. a pinned copy: "
                         "git archive HEAD corefud_scorer | tar -x -C DIR")
    ap.add_argument("--match", action="append", choices=D.MATCHES)
    ap.add_argument("--zero", action="append", choices=D.ZEROS)
    ap.add_argument("--singletons", choices=("yes", "no", "both"), default="both")
    ap.add_argument("--tolerance", type=float, default=1e-9)
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--localize", action="store_true", help="narrow failures down to documents")
    ap.add_argument("--localize-max", type=int, default=3, help="failing runs to localise (default 3)")
    ap.add_argument("--keep", default=None, help="keep per-document files of localised failures here")
    ap.add_argument("--cli-check", type=int, default=1,
                    help="for the first N responses also run the official command line for real with "
                         "default flags and check the driver printed the same (default 1)")
    ap.add_argument("--json-report", default=None)
    ap.add_argument("-q", "--quiet", action="store_true")
    a = ap.parse_args(argv)

    class Ctx:
        pass
    ctx = Ctx()
    ctx.reference = os.path.abspath(a.reference)
    ctx.python = a.python
    ctx.timeout = a.timeout
    ctx.tolerance = a.tolerance
    ctx.ours_cmd = a.cmd.split() if a.cmd else [a.python, "-m", "corefud_scorer"]
    env = dict(os.environ)
    ctx.ours_dir = os.path.abspath(a.ours_dir)
    env["PYTHONPATH"] = ctx.ours_dir + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    ctx.env = env
    if not os.path.exists(os.path.join(ctx.reference, "corefud-scorer.py")):
        print("error: no corefud-scorer.py in %s" % ctx.reference, file=sys.stderr)
        return 2
    tmp = tempfile.mkdtemp(prefix="corefud-real-")
    ctx.driver = os.path.join(tmp, "reference_driver.py")
    with open(ctx.driver, "w") as f:
        f.write(D.DRIVER)
    key = os.path.abspath(a.key)
    settings = settings_of(a)
    w = sys.stdout.write
    all_runs = []
    per_resp = []
    cli_problems = []
    t_start = time.time()
    try:
        for ri, resp in enumerate(a.responses):
            resp = os.path.abspath(resp)
            rdir = os.path.join(tmp, "resp-%02d" % ri)
            os.makedirs(rdir)
            if not a.quiet:
                print("[%s] %s: scoring %d settings" % (time.strftime("%H:%M:%S"), resp, len(settings)),
                      file=sys.stderr, flush=True)
            with concurrent.futures.ThreadPoolExecutor(max_workers=2) as ex:
                fut_ref = ex.submit(run_reference, ctx, key, resp, settings, rdir)

                def ours_all():
                    return [run_ours(ctx, key, resp, D.setting_flags(*s)) for s in settings]
                fut_ours = ex.submit(ours_all)
                ref_results, ref_err, ref_secs = fut_ref.result()
                ours_results = fut_ours.result()
            runs = []
            for si, s in enumerate(settings):
                ref = ref_results[si] if ref_results else None
                r = compare_one(ctx, key, resp, s, ref, ours_results[si])
                if ref_err:
                    r["reasons"].append(ref_err)
                r["response"] = resp
                runs.append(r)
            if ri < a.cli_check and ref_results:
                # the in-process driver must print what the official command line prints
                dflt = [i for i, s in enumerate(settings) if s == ("head", "dependent", False)]
                for i in dflt[:1] or [0]:
                    crc, cout, cerr = D.run([ctx.python, os.path.join(ctx.reference, "corefud-scorer.py"),
                                             key, resp] + D.setting_flags(*settings[i]),
                                            cwd=ctx.reference, timeout=ctx.timeout)
                    if cout.decode("utf-8", "replace") != ref_results[i]["stdout"]:
                        cli_problems.append("%s %s: official command line and driver print different text"
                                            % (resp, D.setting_name(*settings[i])))
            per_resp.append((resp, runs, ref_secs))
            all_runs.extend(runs)
            if not a.quiet:
                nf = sum(1 for r in runs if r["failed"])
                print("[%s]   done: %d of %d settings differ (official %.0fs for all settings)" % (
                    time.strftime("%H:%M:%S"), nf, len(runs), ref_secs), file=sys.stderr, flush=True)

        # ---------------- report
        w("Real-data comparison: key %s, %d responses x %d settings = %d runs, %.0fs\n" % (
            key, len(a.responses), len(settings), len(all_runs), time.time() - t_start))
        w("ours: %s (cwd %s); official: %s (driver of tools/differential.py)\n\n" % (
            " ".join(ctx.ours_cmd), ctx.ours_dir, ctx.reference))
        # per response table
        w("%-40s %8s %5s %s\n" % ("response", "failing", "text", "max |diff| per metric: " + " ".join(ROWS)))
        for resp, runs, _ in per_resp:
            md = {m: max([r["diffs"].get(m, 0.0) for r in runs] or [0.0]) for m in ROWS}
            w("%-40s %8d %5d %s\n" % (os.path.basename(resp), sum(1 for r in runs if r["failed"]),
                                      sum(1 for r in runs if r["text_equal"] is False),
                                      " ".join("%.2g" % md[m] for m in ROWS)))
        w("\n%-9s %-12s %-45s %s\n" % ("metric", "max |diff|", "where", "text mismatches"))
        for m in ROWS:
            best = (0.0, None)
            for r in all_runs:
                d = r["diffs"].get(m, 0.0)
                if d > best[0]:
                    best = (d, "%s %s" % (os.path.basename(r["response"]), r["setting"]))
            nmm = sum(1 for r in all_runs if m in r["text_mismatch"])
            w("%-9s %-12s %-45s %d\n" % (m, "%.3g" % best[0], best[1] or "-", nmm))
        w("%-9s %-12s %-45s %d\n" % ("preamble", "", "", sum(1 for r in all_runs if "preamble" in r["text_mismatch"])))
        w("%-9s %-12s %-45s %d\n" % ("other", "", "", sum(1 for r in all_runs if "other" in r["text_mismatch"])))
        nz = sum(1 for r in all_runs if r["zero_na"])
        w("runs whose text differs: %d of %d (zero line n/a vs 0.00 tolerated in %d runs)\n" % (
            sum(1 for r in all_runs if r["text_equal"] is False), len(all_runs), nz))
        w("official failures: %d; our failures: %d\n" % (
            sum(1 for r in all_runs if r["ref_error"]), sum(1 for r in all_runs if r["ours_error"])))
        for p in cli_problems:
            w("DRIVER CHECK: %s\n" % p)

        for field, who in (("ref_warnings", "official"), ("ours_warnings", "ours")):
            wc = summarise_warnings(all_runs, field)
            w("\n%s scorer: %d distinct warning lines over %d runs\n" % (who, len(wc), len(all_runs)))
            for l, n in sorted(wc.items(), key=lambda kv: -kv[1])[:25]:
                w("  %3dx %s\n" % (n, l[:300]))
            if len(wc) > 25:
                w("  ... %d more\n" % (len(wc) - 25))

        failing = [r for r in all_runs if r["failed"]]
        if failing:
            w("\nFAILING RUNS: %d\n" % len(failing))
            for r in failing[:20]:
                w("  %s [%s]\n" % (os.path.basename(r["response"]), r["setting"]))
                w("    ours:     %s %s %s %s --output json\n" % (" ".join(ctx.ours_cmd), key, r["response"],
                                                                  " ".join(r["flags"])))
                w("    official: cd %s && python corefud-scorer.py %s %s %s\n" % (
                    ctx.reference, key, r["response"], " ".join(r["flags"])))
                for reason in r["reasons"][:8]:
                    w("    - %s\n" % reason.replace("\n", "\n      "))
                if r["text_diff"]:
                    w("    text diff (official -> ours):\n      %s\n" % r["text_diff"].replace("\n", "\n      "))
                if r["ref_error"]:
                    w("    official traceback (tail):\n      %s\n" % D.tail(r["ref_error"], 6).replace("\n", "\n      "))
            if a.localize:
                w("\nLOCALISATION (document by document)\n")
                seen = set()
                n = 0
                for r in failing:
                    if n >= a.localize_max:
                        break
                    k = (r["response"], r["setting"])
                    if k in seen:
                        continue
                    seen.add(k)
                    n += 1
                    s = tuple(next(x for x in settings if D.setting_name(*x) == r["setting"]))
                    outdir = os.path.join(a.keep or os.path.join(tmp, "localize"),
                                          "%s-%s" % (os.path.basename(r["response"]), r["setting"].replace("/", "_")))
                    bad = localize(ctx, key, r["response"], s, outdir)
                    w("  %s [%s]: %d documents disagree\n" % (os.path.basename(r["response"]), r["setting"], len(bad)))
                    for name, reasons, kf, rf in bad[:10]:
                        w("    %s  (%s %s)\n" % (name, kf, rf))
                        for reason in reasons[:4]:
                            w("      - %s\n" % reason.split("\n")[0])
        if a.json_report:
            with open(a.json_report, "w") as f:
                json.dump({"key": key, "responses": a.responses,
                           "settings": [D.setting_name(*s) for s in settings],
                           "runs": [{k: v for k, v in r.items() if k not in ("ours_warnings", "ref_warnings")}
                                    | {"ours_warnings": warning_lines(r["ours_warnings"])[:20],
                                       "ref_warnings": warning_lines(r["ref_warnings"])[:20]}
                                    for r in all_runs],
                           "official_seconds_all_settings": {p[0]: p[2] for p in per_resp},
                           "cli_problems": cli_problems}, f, indent=1, default=str)
        ok = not failing and not cli_problems
        w("\nRESULT: %s\n" % ("OK" if ok else "DIFFERENCES"))
        return 0 if ok else 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
