"""Line plots and a classifier's decision regions, drawn by matplotlib and inlined as SVG.

`line_figure` and `boundary_figure` return the matplotlib `Figure`; `line_plot` and `decision_boundary`
turn it into an `HtmlFragment`. The SVG is reproducible (fixed hash salt, no date), its text stays text,
and its colours are CSS custom properties with a light and a dark value, so it follows the palette switch.

Examples:
    >>> figure = line_figure({"x²": [(0, 0), (1, 1), (2, 4)]}, x_label="x", y_label="x²")
    >>> figure.axes[0].lines[0].get_ydata().tolist()
    [0.0, 1.0, 4.0]
"""

from __future__ import annotations

import functools
import hashlib
import io
import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from glassgrad.viz.html import HtmlFragment, escape
from glassgrad.viz.svg import SVG, XLINK, write

__all__ = ["Marker", "Series", "boundary_figure", "decision_boundary", "line_figure", "line_plot", "to_html"]

# Okabe-Ito hues; each becomes var(--gg-plot-series-i) in the SVG (light and dark values in glassgrad.css).
SERIES_COLOURS = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#8a6d00", "#5d5d5d")
_INK, _GRID = "#010203", "#b1b2b3"  # drawn with these, then swapped for the page's colours
_HASHED = re.compile(r"[pm][0-9a-f]{10}")  # matplotlib's ids of markers and clip paths: hashes of their shape
_HASHED_USE = re.compile(r"#([pm][0-9a-f]{10})\b")  # a reference to one (#m…, url(#p…))
_FONT = re.compile(r"font-family:[^;]*")


def _paint(text: str) -> str:
    """An attribute value or the stylesheet with the drawing colours as the page's and the page's font."""
    text = text.replace(_INK, "currentColor").replace(_GRID, "var(--gg-plot-grid, #d8d8d8)")
    for slot, colour in enumerate(SERIES_COLOURS):
        text = text.replace(
            colour, f"var(--gg-plot-series-{slot}, {colour})"
        )  # the light colour without the stylesheet
    return _FONT.sub("font-family:inherit", text)


@dataclass(frozen=True)
class Series:
    """One named line of (x, y) `points` (nan leaves a gap): `dashed`, with `markers` (a dot per point),
    only dots (`line=False`), and with `nan_marks` (a × at the top edge wherever y is nan)."""

    name: str
    points: Sequence[tuple[float, float]]
    dashed: bool = False
    markers: bool = False
    line: bool = True
    nan_marks: bool = False


@dataclass(frozen=True)
class Marker:
    """A special point to ring and label (a minimum, a threshold); `place` is "above", "below" or
    "below right" (the label starts beside the ring, clear of curves that meet at the point)."""

    x: float
    y: float
    label: str
    place: str = "above"


STYLE: dict[Any, Any] = {  # for every figure: reproducible SVG ids, text kept as text, the site's look
    "svg.hashsalt": "glassgrad",
    "svg.fonttype": "none",
    "font.size": 11,
    "legend.fontsize": 10,
    "text.color": _INK,
    "axes.edgecolor": _INK,
    "axes.labelcolor": _INK,
    "xtick.color": _INK,
    "ytick.color": _INK,
    "grid.color": _GRID,
    "legend.frameon": False,
    "axes.spines.top": False,
    "axes.spines.right": False,
}


def _styled(function):
    """Run `function` under `STYLE` (matplotlib reads its settings when an artist is made or saved)."""

    @functools.wraps(function)
    def styled(*args, **kwargs):
        import matplotlib

        with matplotlib.rc_context(STYLE):
            return function(*args, **kwargs)

    return styled


_MARKER_TEXT = {  # where a Marker's label goes, in points from the ring's centre
    "above": {"xytext": (0, 10), "ha": "center"},
    "below": {"xytext": (0, -16), "ha": "center"},
    "below right": {"xytext": (9, -16), "ha": "left"},
}
WIDTH = 4.6  # inches: 442 px, so that a phone's 343-px column shows 11-pt text at about 11 px


def _figure(height: float = 3.4):
    """A new matplotlib figure with one grid-lined axes (no pyplot: no window, no global state)."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(WIDTH, height), layout="constrained")
    figure.add_subplot().grid(True, linewidth=0.6)
    return figure


@_styled
def line_figure(
    series: Mapping[str, Iterable[tuple[float, float]]] | Iterable[Series],
    *,
    x_label: str,
    y_label: str,
    log_x: bool = False,
    log_y: bool = False,
    title: str | None = None,
    x_range: tuple[float, float] | None = None,
    y_range: tuple[float, float] | None = None,
    x_ticks: Sequence[float] | None = None,
    markers: Sequence[Marker] = (),
    note: str | None = None,
):
    """Named series on shared axes, as a matplotlib `Figure` (see [line_plot][glassgrad.viz.line_plot] for the arguments).

    Raises:
        ValueError: if there is no series.
    """
    if isinstance(series, Mapping):
        series = [Series(name, list(points)) for name, points in series.items()]
    series = list(series)
    if not series:
        raise ValueError("line_plot needs at least one series")
    figure = _figure(height=3.0 + 0.2 * len(series))  # the legend sits under the axes, a line per series
    axes = figure.axes[0]
    for slot, one in enumerate(series):
        _plot_series(axes, one, SERIES_COLOURS[slot % len(SERIES_COLOURS)])
    for marker in markers:
        axes.plot([marker.x], [marker.y], marker="o", markersize=11, markerfacecolor="none", color=_INK)
        axes.annotate(
            marker.label,
            (marker.x, marker.y),
            textcoords="offset points",
            **_MARKER_TEXT.get(marker.place, _MARKER_TEXT["above"]),
        )
    axes.set(
        xscale="log" if log_x else "linear",
        yscale="log" if log_y else "linear",
        xlim=x_range,
        ylim=y_range,
        xlabel=x_label,
        ylabel=y_label,
        title=title or "",
    )
    if x_ticks is not None:
        axes.set_xticks(list(x_ticks))
    figure.legend(loc="outside lower center")  # under the axes: never over a curve
    figure.glassgrad_note = note
    return figure


def _plot_series(axes: Any, one: Series, colour: str) -> None:
    """One series on `axes` in `colour`: its line or dots, and a × at the top edge wherever y is nan (`nan_marks`)."""
    xs = [float(x) for x, _ in one.points]
    ys = [float(y) for _, y in one.points]
    axes.plot(
        xs,
        ys,
        label=one.name,
        color=colour,
        linewidth=1.8 if one.line else 0,
        linestyle=("--" if one.dashed else "-") if one.line else "none",
        marker="o" if one.markers or not one.line else None,
        markersize=4,
    )
    nan_xs = [x for x, y in zip(xs, ys) if math.isnan(y)] if one.nan_marks else []
    if nan_xs:
        axes.plot(
            nan_xs,
            [1.0] * len(nan_xs),
            linestyle="none",
            marker="x",
            color=colour,
            transform=axes.get_xaxis_transform(),
            clip_on=False,
            label=f"{one.name}: nan",
        )


def line_plot(
    series: Mapping[str, Iterable[tuple[float, float]]] | Iterable[Series], **options: object
) -> HtmlFragment:
    """Draw named series as lines on shared axes; return the figure as an HTML fragment.

    Args:
        series: ``{name: [(x, y), ...]}`` or `Series` objects (for dashes, dots or a scatter).
        **options: `x_label` and `y_label` (required), `log_x`, `log_y`, `title`, `x_range`,
            `y_range`, `x_ticks`, `markers` (`Marker`s to ring and label) and `note` (a sentence
            under the plot).

    Examples:
        >>> "<svg" in str(line_plot({"a": [(1, 1), (2, 4)]}, x_label="x", y_label="y"))
        True
    """
    return to_html(line_figure(series, **options))


def _grid(coordinates: Sequence[float], resolution: int) -> list[float]:
    """`resolution` evenly spaced positions across `coordinates`, with a tenth of their spread on each side."""
    low, high = min(coordinates), max(coordinates)
    pad = 0.1 * ((high - low) or 1.0)
    return [low - pad + (high - low + 2 * pad) * i / (resolution - 1) for i in range(resolution)]


@_styled
def boundary_figure(
    score: Callable[[float, float], float],
    points: Sequence[tuple[float, float]],
    labels: Sequence[int],
    *,
    resolution: int = 60,
    class_names: tuple[str, str] = ("label −1", "label +1"),
    title: str | None = None,
):
    """The regions where `score` is negative or positive, the line where it is 0, and the points.

    Returns the matplotlib `Figure`; `figure.glassgrad_misclassified` lists the ringed points.

    Raises:
        ValueError: if `points` and `labels` differ in length, a label is not ±1, or `resolution` < 2.
    """
    if len(points) != len(labels):
        raise ValueError(f"decision_boundary: {len(points)} points but {len(labels)} labels")
    if any(label not in (-1, 1) for label in labels):
        raise ValueError(f"decision_boundary: labels must be -1 or +1, got {sorted(set(labels))}")
    if resolution < 2:
        raise ValueError(f"decision_boundary: resolution must be at least 2, got {resolution}")
    grid_x = _grid([p[0] for p in points], resolution)
    grid_y = _grid([p[1] for p in points], resolution)
    scores = [[score(x, y) for x in grid_x] for y in grid_y]
    negative, positive = SERIES_COLOURS[:2]
    figure = _figure(height=4.2)
    axes = figure.axes[0]
    axes.grid(False)
    finite = [s for row in scores for s in row if math.isfinite(s)]
    if finite and min(finite) < 0 < max(finite):
        low, high = min(finite) - 1.0, max(finite) + 1.0
        axes.contourf(grid_x, grid_y, scores, levels=[low, 0, high], colors=[negative, positive], alpha=0.18)
        axes.contour(grid_x, grid_y, scores, levels=[0], colors=[_INK], linewidths=1.2)
    for slot, (label, name, marker) in enumerate(((-1, class_names[0], "o"), (1, class_names[1], "s"))):
        chosen = [p for p, lab in zip(points, labels) if lab == label]
        axes.plot(
            [p[0] for p in chosen],
            [p[1] for p in chosen],
            linestyle="none",
            marker=marker,
            markersize=5,
            color=SERIES_COLOURS[slot],
            label=name,
        )
    misclassified = [point for point, label in zip(points, labels) if not score(*point) * label > 0]
    if misclassified:
        ringed = {"markersize": 11, "markerfacecolor": "none", "color": _INK, "label": "misclassified"}
        axes.plot([p[0] for p in misclassified], [p[1] for p in misclassified], linestyle="none", marker="o", **ringed)
    axes.set(xlabel="x₁", ylabel="x₂", title=title or "")
    axes.legend(loc="best")
    figure.glassgrad_misclassified = misclassified
    figure.glassgrad_note = f"{len(misclassified)} of {len(points)} points misclassified (ringed)."
    return figure


def decision_boundary(
    score: Callable[[float, float], float],
    points: Sequence[tuple[float, float]],
    labels: Sequence[int],
    **options: object,
) -> HtmlFragment:
    """Draw a two-class classifier's regions, its zero line and the labelled points, as HTML.

    The note under the plot counts the misclassified points, which are ringed.

    Args:
        score: the classifier, ``score(x1, x2) -> float``; positive means class +1.
        points: the data, ``(x1, x2)`` pairs.
        labels: one label per point, -1 or +1 (as `glassgrad.data.make_moons` gives).
        **options: `resolution` (grid points per axis), `class_names` and `title`.

    Examples:
        >>> html = str(decision_boundary(lambda a, b: a - b, [(0.0, 1.0), (1.0, 0.0)], [-1, 1], resolution=8))
        >>> "0 of 2 points misclassified" in html
        True
    """
    return to_html(boundary_figure(score, points, labels, **options))


@_styled
def to_html(figure) -> HtmlFragment:
    """The figure's SVG, made reproducible and palette-aware, in a ``<figure class="gg gg-plot">``."""
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", transparent=True, metadata={"Date": None})
    root = ET.fromstring(buffer.getvalue())  # through a parser: the prolog, DOCTYPE and comments stay behind
    for metadata in root.findall(f"{{{SVG}}}metadata"):
        root.remove(metadata)
    title = figure.axes[0].get_title()
    sized = {key: value for key, value in root.attrib.items() if key not in ("width", "height")}
    root.attrib = {"role": "img", "aria-label": title or "plot", **sized, "xmlns": SVG, "xmlns:xlink": XLINK}
    root.set("style", "width:100%;height:auto")
    for element in root.iter():
        # matplotlib names every group (figure_1, line2d_3, ...): ids that two plots on a page would share.
        if not _HASHED.fullmatch(element.get("id", "")):
            element.attrib.pop("id", None)
        element.attrib.update({key: _paint(value) for key, value in element.attrib.items()})
        element.text = element.text and _paint(element.text)
    # The ids left (markers, clip paths) are hashes of their own shape: prefix them with the plot's.
    prefix = hashlib.sha1(write(root).encode()).hexdigest()[:8]
    for element in root.iter():
        element.attrib.update(
            {key: _HASHED_USE.sub(rf"#gg{prefix}-\1", value) for key, value in element.attrib.items()}
        )
        if "id" in element.attrib:
            element.set("id", f"gg{prefix}-{element.get('id')}")
    svg = write(root)
    note = getattr(figure, "glassgrad_note", None)
    caption = f"<figcaption>{escape(note)}</figcaption>" if note else ""
    return HtmlFragment(f'<figure class="gg gg-plot">{svg}{caption}</figure>')
