"""Bar charts for papers: the primary score per dataset, systems side by
side, value labels, settings in the title (needs matplotlib:
``pip install matplotlib``, or ``pip install '.[plot]'`` in a clone)."""

from __future__ import annotations

import os

from ..errors import ScorerError
from ..measures.totals import headline, primary_figure

FORMATS = (".png", ".svg", ".pdf")


def check_plot_path(path: str) -> None:
    """Refuse a plot path before any scoring: wrong extension, no matplotlib,
    or a folder that cannot be written."""
    if not path.lower().endswith(FORMATS):
        raise ScorerError("the plot file must end in .png, .svg or .pdf", (path, None))
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise ScorerError("--plot needs matplotlib: pip install matplotlib "
                          "(in a clone of the scorer: pip install '.[plot]')") from None
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise ScorerError("cannot write the plot: no such folder", (path, None))
    if not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise ScorerError("cannot write the plot: permission denied", (path, None))


def primary_score(result) -> tuple[str, float | None]:
    """The result's primary figure and its label."""
    return primary_figure(result.conll, {name: headline(score) for name, score in result.metrics.items()})


def settings_line(options) -> str:
    return (f"{options.match} match, {'with' if options.keep_singletons else 'without'} singletons, "
            f"zeros by {'position' if options.zero_match == 'linear' else 'dependencies'}")


def title_text(system: str | None, label: str, settings: str) -> str:
    """The title: what is drawn, then the settings on a line of their own
    (matplotlib wraps either further where the figure is narrower)."""
    return "\n".join([f"{system}: {label} per dataset" if system else f"{label} per dataset", f"({settings})"])


def draw_benchmark(benches, names: list[str] | None = None):
    """The figure: one bar group per dataset (and the macro-average), one bar
    per system; ``benches`` is one :class:`~corefud_scorer.jobs.bench.Benchmark` or a list."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    benches = benches if isinstance(benches, list) else [benches]
    names = names or [os.path.basename(os.path.dirname(os.path.abspath(b.datasets[0].response)))
                      or "system" for b in benches]
    labels = [d.name for d in benches[0].datasets] + ["macro-average"]
    label = primary_score(benches[0].results[0])[0]
    width = 0.8 / len(benches)
    size = max(6, 0.6 * len(labels) * len(benches) + 2)
    figure, axes = plt.subplots(figsize=(size, 4.5))
    for k, (bench, name) in enumerate(zip(benches, names)):
        values = [100 * (primary_score(r)[1] or 0.0) for r in bench.results]
        macro = primary_figure(bench.macro_conll, {name: headline(a) for name, a in bench.macro.items()})[1]
        values.append(100 * (macro or 0.0))
        positions = [i + (k - (len(benches) - 1) / 2) * width for i in range(len(labels))]
        bars = axes.bar(positions, values, width, label=name)
        axes.bar_label(bars, fmt="%.1f", fontsize=7, padding=2)
    axes.set_xticks(range(len(labels)), labels, rotation=60, ha="right")
    axes.set_ylabel(label)
    axes.set_ylim(0, 105)
    system = names[0] if len(benches) == 1 else None
    # Wrapped to the figure at drawing time: a long system name or settings
    # line would otherwise run past both edges and be cut.
    axes.set_title(title_text(system, label, settings_line(benches[0].options)), fontsize=10, wrap=True)
    if len(benches) > 1:
        axes.legend(fontsize=8)
    figure.tight_layout()
    return figure


def plot_benchmark(benches, path: str, names: list[str] | None = None) -> None:
    """Draw the benchmark (:func:`draw_benchmark`) into ``path``."""
    check_plot_path(path)
    import matplotlib
    import matplotlib.pyplot as plt

    figure = draw_benchmark(benches, names)
    try:
        with matplotlib.rc_context({"svg.fonttype": "none", "pdf.fonttype": 42}):
            figure.savefig(path, dpi=300)
    except OSError as err:
        raise ScorerError(f"cannot write the plot: {err.strerror or err}", (path, None)) from None
    finally:
        plt.close(figure)
