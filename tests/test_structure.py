"""The layout's rules, read off the source with ``ast``: format names are
compared only by the readers (everything else reads a format's profile),
only the metric modules and the renderers branch on BLANC, and imports,
those inside functions included, make no cycle."""

from __future__ import annotations

import ast
from pathlib import Path

from corefud_scorer.formats.readers import formats

PACKAGE = Path(__file__).resolve().parent.parent / "corefud_scorer"
# The modules of metrics (v8.01's reading and split antecedents included) and
# the renderers: where a measure's own name may decide what is done.
METRIC_MODULES = {"measures.metrics", "measures.mentions", "measures.further", "measures.split_antecedents",
                  "v801.chains", "v801.chain_metrics", "v801.scoring", "measures.registry"}
RENDERERS = {"render.text", "render.json_schema", "render.tables", "render.json_report", "v801.text", "render.error_analysis", "jobs.comparison",
             "render.plot", "render.leaderboard", "render.codalab", "render.fitted_table"}
# Import cycles still to be broken: none is left, and a new one fails.
KNOWN_CYCLES: list[set] = []


def modules():
    for path in sorted(PACKAGE.rglob("*.py")):
        name = ".".join(path.relative_to(PACKAGE).with_suffix("").parts)
        yield (name[:-len(".__init__")] if name.endswith(".__init__") else name), path, ast.parse(path.read_text())


def compared_constants(tree):
    """(line, constant) for each string a comparison tests against."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            for part in (node.left, *node.comparators):
                items = part.elts if isinstance(part, (ast.Tuple, ast.List, ast.Set)) else [part]
                for item in items:
                    if isinstance(item, ast.Constant) and isinstance(item.value, str):
                        yield node.lineno, item.value


def passed_constants(tree):
    """(line, constant) for each string passed to a call or used as a key."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            for item in (*node.args, *(k.value for k in node.keywords)):
                if isinstance(item, ast.Constant) and isinstance(item.value, str):
                    yield node.lineno, item.value
        elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) \
                and isinstance(node.slice.value, str):
            yield node.lineno, node.slice.value


def test_only_the_readers_compare_a_format_name():
    names = set(formats())
    found = [f"{path.name}:{line} compares {value!r}" for module, path, tree in modules()
             if not module.startswith("formats.readers") for line, value in compared_constants(tree) if value in names]
    assert not found, "read the format's profile instead: " + "; ".join(found)


def test_only_the_readers_name_a_format():
    # profile("ua") or FORMATS["conll"] outside the readers is a rule about a
    # format written somewhere else than its profile.
    names = set(formats())
    found = [f"{path.name}:{line} passes {value!r}" for module, path, tree in modules()
             if not module.startswith("formats.readers") for line, value in passed_constants(tree) if value in names]
    assert not found, "read the format's profile instead: " + "; ".join(found)


def test_the_format_name_check_finds_a_call_and_a_key():
    tree = ast.parse("p = profile('ua')\nq = table['conll']\nr = f(x, name='jsonlines')\n")
    assert list(passed_constants(tree)) == [(1, "ua"), (2, "conll"), (3, "jsonlines")]


def test_only_metrics_and_renderers_branch_on_blanc():
    found = [f"{path.name}:{line}" for module, path, tree in modules()
             if module not in METRIC_MODULES | RENDERERS
             for line, value in compared_constants(tree) if value == "blanc"]
    assert not found, "read the registry instead: " + "; ".join(found)


def _runtime_nodes(tree):
    """Every node but those under ``if TYPE_CHECKING:`` (annotations only,
    never imported when the code runs)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and isinstance(child.test, ast.Name) and child.test.id == "TYPE_CHECKING":
                stack.extend(child.orelse)
                continue
            stack.append(child)


def _graph():
    graph = {}
    known = {module for module, _, _ in modules()}
    for module, path, tree in modules():
        package = module.rsplit(".", 1)[0] if "." in module else ""
        if path.name == "__init__.py":
            package = module
        edges = set()
        for node in _runtime_nodes(tree):
            if isinstance(node, ast.ImportFrom) and node.level:
                base = package.split(".") if package else []
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
                candidates = [target] if node.module else [f"{target}.{a.name}".strip(".") for a in node.names]
                for candidate in candidates:
                    while candidate and candidate not in known:
                        candidate = candidate.rsplit(".", 1)[0] if "." in candidate else ""
                    if candidate and candidate != module:
                        edges.add(candidate)
        graph[module] = edges
    return graph


def _cycles(graph):
    """The strongly connected parts of more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = set()
            while True:
                w = stack.pop()
                on.discard(w)
                part.add(w)
                if w == v:
                    break
            if len(part) > 1:
                out.append(part)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_import_cycle_but_the_known_ones():
    cycles = _cycles(_graph())
    new = [sorted(c) for c in cycles if not any(c <= known for known in KNOWN_CYCLES)]
    assert not new, f"import cycles (imports inside functions count): {new}"


def test_the_cycle_finder_finds_one():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [{"a", "b", "c"}]


def test_annotations_only_imports_are_not_counted():
    tree = ast.parse("if TYPE_CHECKING:\n    from .a import b\nelse:\n    from .c import d\n")
    found = {node.module for node in _runtime_nodes(tree) if isinstance(node, ast.ImportFrom)}
    assert found == {"c"}


def test_the_format_check_finds_a_comparison():
    tree = ast.parse("if fmt == 'ua':\n    pass\nx = fmt in ('conll', 'x')\n")
    assert list(compared_constants(tree)) == [(1, "ua"), (3, "conll"), (3, "x")]


# What may reach a renderer through its imports: the renderers themselves and
# the front ends (the command line, the web service, the scripts' entry points).
FRONT_ENDS = ("cli", "web", "v801.dropin", "__main__")


def _front_end(module):
    return any(module == end or module.startswith(end + ".") for end in FRONT_ENDS)


def _reach(graph, module):
    seen, stack = set(), [module]
    while stack:
        for target in graph.get(stack.pop(), ()):
            if target not in seen:
                seen.add(target)
                stack.append(target)
    return seen


def test_the_library_reaches_no_renderer():
    graph = _graph()
    offenders = {}
    for module in graph:
        if module in RENDERERS - {"jobs.comparison"} or _front_end(module):
            continue
        # (comparison holds the resampling's settings and tests beside its table, and imports no renderer.)
        reached = sorted(m for m in _reach(graph, module)
                         if m in RENDERERS - {"jobs.comparison"} or _front_end(m))
        if reached:
            offenders[module] = reached
    assert not offenders, f"library modules that import a renderer or a front end: {offenders}"


def test_the_reach_finder_follows_chains():
    assert _reach({"a": {"b"}, "b": {"c"}, "c": set()}, "a") == {"b", "c"}


def test_the_web_service_calls_the_library_not_the_command_line():
    graph = _graph()
    web = [module for module in graph if module.split(".")[0] == "web"]
    assert web, "the web package is where it was"
    found = {module: sorted(target for target in graph[module] if target.split(".")[0] == "cli") for module in web}
    for module, _, tree in modules():
        if module in web:
            for node in ast.walk(tree):
                names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                         else [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else [])
                found[module] += [n for n in names if n.startswith("corefud_scorer.cli")]
    assert not any(found.values()), f"the web service imports the command line: {found}"


# The pipeline's layers, lowest first: read -> align -> measure -> jobs ->
# render -> front ends. A module imports from its own layer or below, never
# up (the package root is read only for ``__version__``).
LAYERS = (
    ("__init__", "model", "errors", "interrupts", "memory", "lazy"),
    ("formats",),
    ("alignment",),
    ("measures", "results", "presets"),
    ("v801",),
    ("jobs", "api", "provenance", "training"),
    ("render",),
    ("cli", "web", "v801.dropin", "__main__"),
)


def layer_of(module):
    found = [(len(name), rank) for rank, names in enumerate(LAYERS) for name in names
             if module == name or module.startswith(name + ".")]
    return max(found)[1] if found else None


def test_every_module_has_a_layer():
    assert not [m for m, _, _ in modules() if m and layer_of(m) is None]


def test_imports_run_down_the_layers():
    upward = sorted(f"{module} imports {target}" for module, targets in _graph().items() if module
                    for target in targets if target and layer_of(target) > layer_of(module))
    assert not upward, "imports that run up a layer: " + "; ".join(upward)


def test_the_layer_check_finds_an_upward_import():
    assert layer_of("formats.readers.ua") < layer_of("measures.registry") < layer_of("render.text")
    assert layer_of("v801.dropin") > layer_of("v801.chains")


# Modules and functions kept small enough to read at once. A reader's hot loop
# is a small state object rather than one long function.
MODULE_LINES, FUNCTION_LINES = 400, 80
# Still to split: none is left, and the lists only shrink.
LONG_MODULES: set[str] = set()
LONG_FUNCTIONS: set[str] = set()


def test_no_module_is_too_long():
    long = sorted(f"{module} ({n} lines)" for module, path, _ in modules()
                  if (n := len(path.read_text().splitlines())) > MODULE_LINES and module not in LONG_MODULES)
    assert not long, f"modules over {MODULE_LINES} lines: " + "; ".join(long)


def test_no_function_is_too_long():
    long = sorted(f"{module}.{node.name} ({node.end_lineno - node.lineno + 1} lines)"
                  for module, _, tree in modules() for node in ast.walk(tree)
                  if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                  and node.end_lineno - node.lineno + 1 > FUNCTION_LINES
                  and f"{module}.{node.name}" not in LONG_FUNCTIONS)
    assert not long, f"functions over {FUNCTION_LINES} lines: " + "; ".join(long)


def test_at_most_twelve_modules_beside_the_subpackages():
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(top) <= 12, top


def test_the_lists_of_what_is_still_too_long_only_shrink():
    lengths = {module: len(path.read_text().splitlines()) for module, path, _ in modules()}
    functions = {f"{module}.{node.name}": node.end_lineno - node.lineno + 1 for module, _, tree in modules()
                 for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
    assert not [m for m in LONG_MODULES if lengths.get(m, 0) <= MODULE_LINES]
    assert not [f for f in LONG_FUNCTIONS if functions.get(f, 0) <= FUNCTION_LINES]
