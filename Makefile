# The two entry points of the README: `make demo` and `make test`.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
CONFORMANCE ?= ../shared/conformance
EXAMPLE := fixtures/example
REFERENCE ?=
BENCH_ARGS ?=
EXTRAS ?= test

.PHONY: demo test test-long install install-test pytest deadcode docs matrix conformance bench bench-ua bench-ua-real bench-corpus bench-significance bench-conll differential load clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# A regular (not editable) install: what users get from a wheel.
install: $(PY)
	$(PY) -m pip install --quiet .

install-test: $(PY)
	$(PY) -m pip install --quiet '.[$(EXTRAS)]'

demo: install
	$(PY) -m corefud_scorer $(EXAMPLE)/key.conllu $(EXAMPLE)/response.conllu -a head -s

test: install-test pytest deadcode docs conformance

# In parallel on every core (pytest-xdist); -rs prints why each skipped test was skipped.
PYTEST := $(PY) -m pytest -q -rs -n auto

pytest:
	$(PYTEST)

# Dead code in the package: vulture at 80 % confidence (unused imports, variables,
# unreachable code) finds nothing, or make test fails.
deadcode:
	$(PY) -m vulture --min-confidence 80 corefud_scorer/

# The documentation site (mkdocs.yml, docs/; the API reference rendered from the
# docstrings), warnings as errors, into site/.
docs:
	$(PY) -m mkdocs build --strict --quiet

# The long sweeps: the matrix test's cross product of every format x every option set
# on generated files and on the real GUM and CODI-CRAC files when they are in ../peers,
# and every example of the slow generated-file properties. Prints the runs and figures
# the matrix checked.
test-long: install-test
	COREFUD_TESTS=long $(PYTEST)
	$(MAKE) conformance

# The matrix test's long form alone.
matrix: install-test
	COREFUD_TESTS=long $(PYTEST) tests/test_matrix.py

# Every format's conformance cases. CoNLL-2012: all but one side of the four documented
# BLANC conflicts. perl_M3/M6/N3/N6 expect scorer.pl v8.01's BLANC, which leaves a part
# out whenever the key has no link of its kind (TC-M's key is one entity: no
# non-coreference link; TC-N's key is all singletons: no coreference link), even when the
# response makes such links, so a response's wrong links there cost nothing. Luo et al.
# (2014) and Pradhan et al. (2014, section 4.4) define each part from the key's and the
# response's links (R_n = |N_k ∩ N_r| / |N_k|, P_n = |N_k ∩ N_r| / |N_r|): a part may be
# left out only when neither side has links of its kind. test_M3 ... test_N6 (scorer
# 1.2's rule) follow that definition, as --format conll does.
CONLL_EXCLUDE := --exclude perl_M3 --exclude perl_M6 --exclude perl_N3 --exclude perl_N6

conformance:
	@if [ -f $(CONFORMANCE)/check.py ]; then \
		printf 'conformance, CorefUD:     ' && $(PY) $(CONFORMANCE)/check.py --format corefud --cmd '$(PY) -m corefud_scorer' && \
		printf 'conformance, UA:          ' && $(PY) $(CONFORMANCE)/check.py --format ua --cmd '$(PY) -m corefud_scorer' && \
		printf 'conformance, CoNLL-2012:  ' && $(PY) $(CONFORMANCE)/check.py --format conll2012 --cmd '$(PY) -m corefud_scorer' $(CONLL_EXCLUDE); \
	else \
		echo "$(CONFORMANCE) not found: conformance suite skipped (clone it beside this folder as ../shared)"; \
	fi

# Speed and memory against the Udapi floor (and the official scorer with REFERENCE=DIR,
# a work tree of ufal/corefud-scorer): `make bench REFERENCE=../corefud-scorer`.
bench: install
	$(PY) bench/run.py $(if $(REFERENCE),--reference $(REFERENCE)) $(BENCH_ARGS)

# A generated 50k-token UA pair, every metric, against the UA library of scorer 1.2
# (REFERENCE=DIR, a work tree of ufal/corefud-scorer): `make bench-ua REFERENCE=../corefud-scorer`.
bench-ua: install
	$(PY) bench/ua.py $(if $(REFERENCE),--reference $(REFERENCE)) $(BENCH_ARGS)

# The real CODI-CRAC 2022 LIGHT dev file (in ../peers/CODI-CRAC22-Corpus, or LIGHT=FILE) against a
# seeded perturbation, a generated pair and a one-sentence one, against the UA library of scorer 1.2:
# `make bench-ua-real REFERENCE=../corefud-scorer`.
bench-ua-real: install
	$(PY) bench/ua_real.py $(if $(REFERENCE),--reference $(REFERENCE)) $(if $(LIGHT),--light $(LIGHT)) $(BENCH_ARGS)

# 30 generated datasets, over 1M tokens, in one `bench` call with -j 1 and -j 2.
bench-corpus: install
	$(PY) bench/corpus.py $(BENCH_ARGS)

# Resampling tests on one core: 10,000 randomization trials x 3 systems x 1,000 documents.
bench-significance: install
	$(PY) bench/significance.py $(BENCH_ARGS)

# CoNLL-2012 files against perl scorer.pl v8.01 (REFERENCE_PL=DIR, a work tree of
# conll/reference-coreference-scorers): `make bench-conll REFERENCE_PL=../reference-coreference-scorers`.
bench-conll: install
	$(PY) bench/conll.py --reference $(REFERENCE_PL) $(BENCH_ARGS)

# Random files scored by both scorers: `make differential REFERENCE=DIR`.
differential: install
	$(PY) tools/differential.py --reference $(REFERENCE) $(BENCH_ARGS)

# The web service under 20 concurrent clients, on 127.0.0.1 only.
load: $(PY)
	$(PY) -m pip install --quiet '.[web]'
	$(PY) bench/load.py $(BENCH_ARGS)

clean:
	rm -rf $(VENV) *.egg-info .pytest_cache
