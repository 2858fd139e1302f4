"""Training curves as a PNG, drawn with matplotlib (the Agg canvas, so no display and no pyplot state): a loss
panel and a metric panel side by side, epochs on the x axis, a legend in each."""
from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

__all__ = ["plot_curves"]


def plot_curves(path: str | os.PathLike[str], loss: Mapping[str, Sequence[float]],
                accuracy: Mapping[str, Sequence[float]], title: str = "Training curves",
                size: tuple[int, int] = (1000, 400), dpi: int = 100) -> str:
    """Write a PNG with a loss panel and an accuracy panel, one line per named series (one value per epoch).

    Args:
        path: the .png file.
        loss: e.g. ``{"train": [...], "test": [...]}``.
        accuracy: e.g. ``{"test": [...]}``, fractions in [0, 1] (drawn as percentages).
        title: the figure's title.
        size: (width, height) in pixels.
        dpi: dots per inch of the written file.

    Returns:
        str, the path written.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator, PercentFormatter

    width, height = size
    fig = Figure(figsize=(width / dpi, height / dpi), dpi=dpi, layout="constrained")
    FigureCanvasAgg(fig)
    loss_ax, acc_ax = fig.subplots(1, 2)
    panels = ((loss_ax, loss, "loss", "Loss"), (acc_ax, accuracy, "accuracy", "Accuracy"))
    for ax, series, ylabel, name in panels:
        for label, values in series.items():
            epochs = range(1, len(values) + 1)
            ax.plot(epochs, [100 * v for v in values] if ylabel == "accuracy" else list(values),
                    marker="o" if len(values) < 30 else None, markersize=3, label=label)
        ax.set_title(name)
        ax.set_xlabel("epoch")
        ax.set_ylabel(ylabel)
        n = max((len(v) for v in series.values()), default=0)
        if n == 1:
            ax.set_xlim(0.5, 1.5)
            ax.set_xticks([1])
        else:
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.grid(True, alpha=0.3)
        if series:
            ax.legend()
    acc_ax.yaxis.set_major_formatter(PercentFormatter(decimals=None))
    fig.suptitle(title)
    fig.savefig(os.fspath(path), format="png", dpi=dpi)
    return os.fspath(path)
