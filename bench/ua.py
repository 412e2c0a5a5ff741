"""Universal Anaphora files, side by side with the UA library of scorer 1.2.

    python bench/ua.py --reference DIR [--tokens 50000] [--docs 10] [--runs 3]

Generates a UA key (identity, discontinuous and nested markables, minimum
spans, plurals by ElementOf, bridging, non-referring markables) and a
perturbed response, scores them with every metric (``-s -l -m all``, and
``-s -m all -a partial``) with this scorer on one core and with the UA
library of a checkout of ufal/corefud-scorer (``DIR``; never a dependency),
in the same run, and prints a table: wall and CPU seconds of each, the
ratio of CPU times, and the largest difference between the two scorers'
numbers (BLANC's on its own: with split antecedents the library's depends
on a set's iteration order, see docs/measures.md, "Split antecedents"). The library is run
through a small driver written to a temporary folder at run time.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time

COLUMNS = "ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY BRIDGING DISCOURSE_DEIXIS REFERENCE"
TARGET_SECONDS = 2.0
TARGET_RATIO = 20.0

# The library's metrics by our names (its MOR and mention cannot score
# plurals; BLANC is its two parts averaged as its command line does).
DRIVER = r'''
import json, logging, sys
reference, key, response, output = sys.argv[1:5]
flags = sys.argv[5:]
sys.path.insert(0, reference)
logging.disable(logging.WARNING)
from scorer.ua.reader import UAReader
from scorer.eval import evaluator
match = flags[flags.index("-a") + 1] if "-a" in flags else "exact"
match = {"partial": "partial-corefud"}.get(match, match)  # its name for it
reader = UAReader(keep_singletons="-s" in flags, keep_split_antecedents="-l" in flags,
                  keep_bridging=True, keep_non_referring=True, match=match)
reader.get_coref_infos(key, response, unit_test=True)
metrics = {"muc": evaluator.muc, "bcub": evaluator.b_cubed, "ceafe": evaluator.ceafe,
           "ceafm": evaluator.ceafm, "blanc": [evaluator.blancc, evaluator.blancn],
           "lea": evaluator.lea}
if "-l" not in flags:
    metrics["mor"] = evaluator.mention_overlap
out = {name: list(evaluator.evaluate_documents(reader.doc_coref_infos, metric))
       for name, metric in metrics.items()}
out["non-referring"] = list(evaluator.evaluate_non_referrings(reader.doc_non_referring_infos))
parts = evaluator.evaluate_bridgings(reader.doc_bridging_infos)
for label, values in zip(("anaphor_recognition", "markable", "entity"), parts):
    out["bridging." + label] = list(values)
json.dump(out, open(output, "w"))
'''


# --- generation ---

class Markable:
    def __init__(self, mid, entity, parts, minimum):
        self.mid, self.entity, self.parts, self.minimum = mid, entity, parts, minimum
        self.element_of: list[str] = []


def generate_document(rng: random.Random, tokens: int, doc: int):
    """Sentences (lists of token counts) and markables, bridging, in a doc."""
    sentences = []
    left = tokens
    while left > 0:
        n = min(left, rng.randint(8, 25))
        sentences.append(n)
        left -= n
    markables, start = [], 0
    entities: list[str] = []
    count = 0
    for n in sentences:
        i = 0
        while i < n:
            if rng.random() < 0.45:
                length = min(rng.choice((1, 1, 2, 2, 3, 4)), n - i)
                count += 1
                if entities and rng.random() < 0.6:
                    entity = rng.choice(entities[-12:])
                elif rng.random() < 0.06:
                    entity = f"d{doc}nr{count}-Pseudo"
                else:
                    entity = f"d{doc}e{count}"
                    entities.append(entity)
                parts = [(start + i, start + i + length - 1)]
                # A discontinuous markable: a second part after a gap.
                if length >= 2 and i + length + 2 < n and rng.random() < 0.08:
                    parts.append((start + i + length + 1, start + i + length + 1))
                    length += 2
                m = Markable(f"m{count}", entity, parts, parts[0][0] + rng.randrange(parts[0][1] - parts[0][0] + 1))
                markables.append(m)
                # A one-word markable nested inside.
                if length >= 3 and rng.random() < 0.3:
                    count += 1
                    inner = start + i + 1
                    if entities:
                        e = rng.choice(entities[-12:])
                    else:
                        # Inside the document's first, non-referring markable: an entity of its own.
                        e = f"d{doc}e{count}"
                        entities.append(e)
                    markables.append(Markable(f"m{count}", e, [(inner, inner)], inner))
                i += length + 1
            else:
                i += 1
        start += n
    by_entity: dict[str, list[Markable]] = {}
    for m in markables:
        by_entity.setdefault(m.entity, []).append(m)
    # Plurals: an entity made of two earlier ones.
    referring = [e for e in entities if e in by_entity]
    for index, entity in enumerate(referring):
        if index >= 2 and rng.random() < 0.06:
            for part in rng.sample(referring[max(0, index - 10):index], 2):
                by_entity[part][0].element_of.append(entity)
    # Bridging: an anaphor anchored on an earlier markable of another entity.
    bridging = {}
    for index, m in enumerate(markables):
        if index > 3 and rng.random() < 0.06 and not m.entity.endswith("-Pseudo"):
            anchor = markables[rng.randrange(max(0, index - 15), index)]
            if anchor.entity != m.entity:
                bridging[m.mid] = anchor.mid
    return sentences, markables, bridging


def perturb(rng: random.Random, markables, bridging):
    """A response: markables dropped, moved to another entity or shortened;
    plurals and bridging links changed."""
    out = []
    entities = sorted({m.entity for m in markables if not m.entity.endswith("-Pseudo")})
    for m in markables:
        r = rng.random()
        if r < 0.08:
            continue
        copy = Markable(m.mid, m.entity, list(m.parts), m.minimum)
        copy.element_of = [e for e in m.element_of if rng.random() < 0.8]
        if r < 0.16 and entities and not m.entity.endswith("-Pseudo"):
            copy.entity = rng.choice(entities)
        elif r < 0.22 and len(m.parts) == 1 and m.parts[0][1] > m.parts[0][0]:
            first, last = m.parts[0]
            copy.parts = [(first, last - 1)]
            copy.minimum = min(copy.minimum, last - 1)
        out.append(copy)
    kept = {m.mid for m in out}
    present = {m.entity for m in out}
    for m in out:
        m.element_of = [e for e in m.element_of if e in present]
    links = {}
    mids = [m.mid for m in out]
    for anaphor, anchor in bridging.items():
        if anaphor in kept and rng.random() < 0.9:
            links[anaphor] = anchor if anchor in kept and rng.random() < 0.8 else rng.choice(mids)
    return out, links


def serialize(handle, doc_id, sentences, markables, bridging):
    total = sum(sentences)
    opens = [[] for _ in range(total)]
    closes = [0] * total
    for m in markables:
        attributes = f"EntityID={m.entity}|MarkableID={m.mid}|Min={m.minimum + 1}"
        if m.element_of:
            attributes += "|ElementOf=" + ",".join(dict.fromkeys(m.element_of))
        for first, last in m.parts:
            # Longer parts open first, so that ")" closes the innermost.
            opens[first].append((-(last - first), attributes, first == last))
            if first != last:
                closes[last] += 1
    starts = {}
    for m in markables:
        starts.setdefault(m.parts[0][0], []).append(m.mid)
    handle.write(f"# newdoc id = {doc_id}\n")
    token = 0
    for s, n in enumerate(sentences):
        handle.write(f"# sent_id = {doc_id}-{s + 1}\n")
        for i in range(n):
            cell = ")" * closes[token]
            for _, attributes, single in sorted(opens[token], key=lambda o: o[0]):
                cell += "(" + attributes + (")" if single else "")
            links = "".join(f"(MarkableID={mid}|MentionAnchor={bridging[mid]}|Rel=part)"
                            for mid in starts.get(token, ()) if mid in bridging)
            handle.write(f"{i + 1}\tw{token}\t_\t_\t_\t_\t_\t_\t_\t_\t{cell or '_'}\t{links or '_'}\t_\t_\n")
            token += 1
        handle.write("\n")


def write_pair(key_path, response_path, tokens, docs, seed):
    rng = random.Random(seed)
    with open(key_path, "w") as key, open(response_path, "w") as response:
        key.write(f"# global.columns = {COLUMNS}\n")
        response.write(f"# global.columns = {COLUMNS}\n")
        for d in range(docs):
            sentences, markables, bridging = generate_document(rng, tokens // docs, d)
            serialize(key, f"doc{d}", sentences, markables, bridging)
            r_markables, r_bridging = perturb(rng, markables, bridging)
            serialize(response, f"doc{d}", sentences, r_markables, r_bridging)


# --- timing ---

def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(command):
    """(wall seconds, CPU seconds, stdout) of one run: CPU time is what one
    core spends, whatever else the machine is doing."""
    start, cpu = time.perf_counter(), _children_cpu()
    done = subprocess.run(command, capture_output=True, text=True)
    seconds, cpu = time.perf_counter() - start, _children_cpu() - cpu
    if done.returncode:
        raise SystemExit(f"failed: {' '.join(command)}\n{done.stderr}")
    return seconds, cpu, done.stdout


def ours_flat(data):
    flat = {}
    for name, value in data["metrics"].items():
        if name == "conll" or value is None or value.get("recall") is None:
            continue
        if name == "bridging":
            for label, part in value["parts"].items():
                flat["bridging." + label] = [part["recall"], part["precision"], part["f1"]]
        else:
            flat[name] = [value["recall"], value["precision"], value["f1"]]
    return flat


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reference", help="a checkout of ufal/corefud-scorer (scorer 1.2)")
    parser.add_argument("--tokens", type=int, default=50_000)
    parser.add_argument("--docs", type=int, default=10)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="ua-bench-")
    key, response = os.path.join(folder, "key.conllu"), os.path.join(folder, "response.conllu")
    write_pair(key, response, args.tokens, args.docs, args.seed)
    driver = os.path.join(folder, "driver.py")
    with open(driver, "w") as handle:
        handle.write(DRIVER)
    settings = [["-s", "-l"], ["-s", "-a", "partial"]]
    print(f"{args.tokens} tokens in {args.docs} documents; ours: median of {args.runs} runs, -j 1; "
          "seconds as wall / CPU; ratio and targets on CPU time\n")
    print("| flags | ours (s) | UA library 1.2 (s) | library / ours | largest difference | "
          f"BLANC difference | ours < {TARGET_SECONDS:g} s | ratio >= {TARGET_RATIO:g} |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | --- | --- |")
    for flags in settings:
        command = [sys.executable, "-m", "corefud_scorer", key, response, "--format", "ua",
                   "-m", "all", "--output", "json", "-j", "1", "-q", *flags]
        runs = [timed(command) for _ in range(args.runs)]
        ours_wall = statistics.median(wall for wall, _, _ in runs)
        ours = statistics.median(cpu for _, cpu, _ in runs)
        scores = ours_flat(json.loads(runs[0][2]))
        row = [" ".join(flags), f"{ours_wall:.2f} / {ours:.2f}"]
        if args.reference:
            output = os.path.join(folder, "reference.json")
            wall, cpu, _ = timed([sys.executable, driver, os.path.abspath(args.reference), key,
                                  response, output, *flags])
            with open(output) as handle:
                reference = json.load(handle)
            # BLANC with split antecedents depends on the library's set order
            # (docs/measures.md): reported on its own.
            def difference(names):
                return max((abs(a - b) for name in names
                            for a, b in zip(scores[name], reference[name])), default=0.0)

            worst = difference([n for n in reference if n != "blanc"])
            blanc = difference(["blanc"])
            ratio = cpu / ours
            row += [f"{wall:.2f} / {cpu:.2f}", f"{ratio:.1f}x", f"{worst:.1e}", f"{blanc:.1e}"]
        else:
            ratio = None
            row += ["-", "-", "-", "-"]
        row += ["yes" if ours < TARGET_SECONDS else "NO",
                "-" if ratio is None else ("yes" if ratio >= TARGET_RATIO else "NO")]
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
