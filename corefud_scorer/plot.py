"""A bar chart of the primary score per dataset (needs matplotlib:
``pip install corefud-scorer[plot]``)."""

from __future__ import annotations

from .errors import ScorerError


def primary_score(result) -> tuple[str, float | None]:
    """The CoNLL F1 when reported, else the first metric's F1."""
    if result.conll is not None:
        return "CoNLL F1", result.conll
    name, metric = next(iter(result.metrics.items()))
    return f"{name} F1", metric.f1


def plot_benchmark(bench, path: str) -> None:
    if not path.endswith((".png", ".svg")):
        raise ScorerError("the plot file must end in .png or .svg", (path, None))
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ScorerError("--plot needs matplotlib: pip install 'corefud-scorer[plot]'") from None
    labels = [d.name for d in bench.datasets]
    scores = [primary_score(r) for r in bench.results]
    label = scores[0][0]
    values = [100 * (v or 0.0) for _, v in scores]
    figure, axes = plt.subplots(figsize=(max(6, 0.45 * len(labels) + 2), 4.5))
    axes.bar(labels, values, color="#4c72b0")
    if bench.macro_conll is not None and label == "CoNLL F1":
        axes.axhline(100 * bench.macro_conll, color="#c44e52", linestyle="--",
                     label=f"macro-average {100 * bench.macro_conll:.2f}")
        axes.legend()
    axes.set_ylabel(label)
    axes.set_ylim(0, 100)
    axes.set_title(f"{label} per dataset")
    axes.tick_params(axis="x", labelrotation=60)
    for tick in axes.get_xticklabels():
        tick.set_horizontalalignment("right")
    figure.tight_layout()
    try:
        figure.savefig(path)
    except OSError as err:
        raise ScorerError(f"cannot write the plot: {err.strerror or err}", (path, None)) from None
    finally:
        plt.close(figure)
