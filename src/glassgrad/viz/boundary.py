"""Decision-boundary figure for a two-class classifier in the plane, drawn with `glassgrad.viz.plot`'s pieces.

The classifier is any function ``score(x1, x2) -> float`` (for a glassgrad model,
``lambda x1, x2: model([x1, x2]).data``): it is evaluated on a grid, each region where the
score is positive or negative is tinted with its class colour, the line ``score = 0`` is traced
through the grid (marching squares, interpolated), and the data points are drawn on top, with
the misclassified ones ringed. Scales, axes, colours and the figure wrapper are plot.py's, so
this figure matches the loss curves beside it; output is byte-for-byte reproducible and every
label is escaped.

>>> figure = decision_boundary(lambda a, b: a - b, [(0.0, 1.0), (1.0, 0.0)], [-1, 1], resolution=8)
>>> text = str(figure)
>>> text.count('class="gg-boundary-point"'), "0 of 2 points misclassified" in text
(2, True)
"""

from __future__ import annotations

import math
from typing import Callable, Sequence

from glassgrad.viz.html import HtmlFragment
from glassgrad.viz.plot import LinearScale, PlotArea, Series, axes_svg, format_number, plot_figure, series_colour

BOUNDARY_AREA = PlotArea(width=560.0, height=420.0)
"""Default canvas: a little taller than a line plot, since both axes carry data of similar range."""


def _grid_scales(
    points: Sequence[tuple[float, float]],
    x_range: tuple[float, float] | None,
    y_range: tuple[float, float] | None,
    area: PlotArea,
) -> tuple[LinearScale, LinearScale]:
    """Scales over the given ranges, or over the points padded by 10 % and widened to nice ticks."""

    def fitted(values: list[float], fixed: tuple[float, float] | None, pixels: tuple[float, float]) -> LinearScale:
        if fixed is not None:
            return LinearScale(fixed, pixels)
        finite = [v for v in values if math.isfinite(v)] or [0.0, 1.0]
        pad = 0.1 * ((max(finite) - min(finite)) or 1.0)
        return LinearScale.fit([min(finite) - pad, max(finite) + pad], pixels)

    return (
        fitted([p[0] for p in points], x_range, area.x_pixels),
        fitted([p[1] for p in points], y_range, area.y_pixels),
    )


def _sign(score: float) -> int:
    """+1, -1, or 0 for a score that is exactly zero or nan (no class)."""
    if score > 0:
        return 1
    if score < 0:
        return -1
    return 0


def _regions_svg(signs: list[list[int]], xs: list[float], ys: list[float], slots: dict[int, int]) -> str:
    """One tinted rectangle per horizontal run of grid cells of the same class (few shapes, same picture)."""
    f = format_number
    parts = []
    for cls, slot in slots.items():
        rects = []
        for row in range(len(ys) - 1):
            top, bottom = min(ys[row], ys[row + 1]), max(ys[row], ys[row + 1])
            column = 0
            while column < len(xs) - 1:
                if signs[row][column] != cls:
                    column += 1
                    continue
                start = column
                while column < len(xs) - 1 and signs[row][column] == cls:
                    column += 1
                # A cell's class is the sign at its centre; rectangles share edges exactly.
                rects.append(f"M{f(xs[start])},{f(top)}H{f(xs[column])}V{f(bottom)}H{f(xs[start])}Z")
        if rects:
            parts.append(
                f'<path class="gg-boundary-region" data-class="{cls:+d}" d="{"".join(rects)}" '
                f'style="color:{series_colour(slot)}" fill="currentColor" fill-opacity="0.16"/>'
            )
    return "".join(parts)


def _zero_line_svg(corner_scores: list[list[float]], xs: list[float], ys: list[float]) -> str:
    """The line score = 0 by marching squares over the grid corners, each crossing placed by linear interpolation."""
    f = format_number
    segments = []
    for row in range(len(ys) - 1):
        for column in range(len(xs) - 1):
            corners = [
                (xs[column], ys[row], corner_scores[row][column]),
                (xs[column + 1], ys[row], corner_scores[row][column + 1]),
                (xs[column + 1], ys[row + 1], corner_scores[row + 1][column + 1]),
                (xs[column], ys[row + 1], corner_scores[row + 1][column]),
            ]
            if any(not math.isfinite(score) for _, _, score in corners):
                continue
            crossings = []
            for (xa, ya, sa), (xb, yb, sb) in zip(corners, corners[1:] + corners[:1]):
                if (sa > 0) != (sb > 0):
                    t = sa / (sa - sb)
                    crossings.append((xa + t * (xb - xa), ya + t * (yb - ya)))
            # Two crossings: one segment; four (a saddle): pair them in order around the cell.
            for (xa, ya), (xb, yb) in zip(crossings[0::2], crossings[1::2]):
                segments.append(f"M{f(xa)},{f(ya)}L{f(xb)},{f(yb)}")
    if not segments:
        return ""
    return (
        f'<path class="gg-boundary-line" d="{"".join(segments)}" fill="none" stroke="currentColor" '
        'stroke-width="1.6" stroke-linecap="round" stroke-opacity="0.8"/>'
    )


def decision_boundary(
    score: Callable[[float, float], float],
    points: Sequence[tuple[float, float]],
    labels: Sequence[int],
    *,
    x_range: tuple[float, float] | None = None,
    y_range: tuple[float, float] | None = None,
    resolution: int = 60,
    x_label: str = "x₁",
    y_label: str = "x₂",
    class_names: tuple[str, str] = ("label −1", "label +1"),
    title: str | None = None,
    area: PlotArea = BOUNDARY_AREA,
) -> HtmlFragment:
    """Draw where `score` is positive or negative, the line where it is zero, and the labelled points.

    Args:
        score: the classifier, ``score(x1, x2) -> float``; positive means class +1.
        points: the data, ``(x1, x2)`` pairs.
        labels: one label per point, -1 or +1 (as `glassgrad.data.make_moons` returns).
        x_range: data range of the x axis; by default the points padded by 10 %, widened to nice ticks.
        y_range: the same for the y axis.
        resolution: grid cells along x (the y count keeps cells about square); `score` is called
            about ``resolution² · height/width`` times at cell centres and as often at cell corners.
        x_label: x axis title (plain text, escaped).
        y_label: y axis title (plain text, escaped).
        class_names: legend names of the -1 and the +1 class (escaped).
        title: shown above the plot and used as the SVG's accessible title.
        area: canvas size and margins (plot.py's `PlotArea`).

    Returns:
        The figure as an `HtmlFragment`; its note counts the misclassified points (ringed).

    Raises:
        ValueError: if `points` and `labels` differ in length, a label is not ±1, or `resolution` < 2.
    """
    if len(points) != len(labels):
        raise ValueError(f"decision_boundary: {len(points)} points but {len(labels)} labels")
    if any(label not in (-1, 1) for label in labels):
        raise ValueError("decision_boundary: labels must be -1 or +1")
    if resolution < 2:
        raise ValueError(f"decision_boundary: resolution must be at least 2, got {resolution}")
    x_scale, y_scale = _grid_scales(points, x_range, y_range, area)
    (x0, x1), (y0, y1) = area.x_pixels, area.y_pixels
    rows = max(2, round(resolution * abs(y0 - y1) / abs(x1 - x0)))
    # Grid lines in pixels and in data units (corners), then the cell centres between them.
    xs = [x0 + (x1 - x0) * i / resolution for i in range(resolution + 1)]
    ys = [y0 + (y1 - y0) * j / rows for j in range(rows + 1)]
    (dx0, dx1), (dy0, dy1) = x_scale.domain, y_scale.domain
    data_x = [dx0 + (dx1 - dx0) * i / resolution for i in range(resolution + 1)]
    data_y = [dy0 + (dy1 - dy0) * j / rows for j in range(rows + 1)]
    corner_scores = [[float(score(a, b)) for a in data_x] for b in data_y]
    centre_signs = [
        [_sign(float(score((data_x[i] + data_x[i + 1]) / 2, (data_y[j] + data_y[j + 1]) / 2))) for i in range(resolution)]
        for j in range(rows)
    ]
    slots = {-1: 0, 1: 1}
    body = [
        _regions_svg(centre_signs, xs, ys, slots),
        axes_svg(area, x_scale, y_scale, x_label=x_label, y_label=y_label),
        _zero_line_svg(corner_scores, xs, ys),
    ]
    f = format_number
    wrong = 0
    for cls, slot in slots.items():
        marks = []
        for (a, b), label in zip(points, labels):
            if label != cls:
                continue
            missed = _sign(float(score(a, b))) != label
            wrong += missed
            px, py = x_scale.position(a), y_scale.position(b)
            # A misclassified point is a ring around the usual dot, so it stands out in either palette.
            shape = ' data-missed="1" r="6" fill-opacity="0" stroke="currentColor" stroke-width="1.5"' if missed else ' r="3.2"'
            marks.append(
                f'<circle class="gg-boundary-point" data-label="{label:+d}"{shape} cx="{f(px)}" cy="{f(py)}" fill="currentColor"/>'
            )
            if missed:
                marks.append(f'<circle cx="{f(px)}" cy="{f(py)}" r="3.2" fill="currentColor"/>')
        body.append(f'<g class="gg-boundary-points" style="color:{series_colour(slot)}">{"".join(marks)}</g>')
    legend = [(slot, Series(name, [], markers=True, line=False)) for slot, name in zip((0, 1), class_names)]
    note = f"{wrong} of {len(points)} points misclassified" + (" (ringed)." if wrong else ".")
    note += " The line is where the score is 0; the tint shows the sign of the score."
    description = (
        f"Decision regions of a two-class classifier over {x_label} and {y_label}, "
        f"with {len(points)} labelled points; {wrong} misclassified."
    )
    return plot_figure(area, "".join(body), legend=legend, notes=[note], title=title, description=description)

