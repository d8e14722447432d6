"""Deterministic inline-SVG line plots: nice ticks, linear or log axes, named series, a legend.

`line_plot` is the one-call entry point. The pieces it is made of are public so that other
figures (a loss curve, a scatter plot) can share the same look: `LinearScale` and `LogScale`
map data to pixels and choose tick values, `PlotArea` holds the margins, `axes_svg` draws
the frame, grid, ticks and axis labels, and `plot_figure` wraps an SVG body with its legend
and notes into the shared HTML fragment type.

Output is byte-for-byte reproducible: no ids, no timestamps, coordinates printed with one
decimal. Every label is escaped. Colours are CSS custom properties (``--gg-plot-series-N``)
with light and dark (Material "slate") values, and the SVG scales with its container
(``viewBox`` + ``width:100%``), so a 375 px phone shows the whole plot.

>>> figure = line_plot({"x²": [(0, 0), (1, 1), (2, 4)]}, x_label="x", y_label="x²")
>>> str(figure).count('class="gg-plot-line"')
1
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterable, Mapping, Sequence, Union

from glassgrad.viz.html import HtmlFragment, escape

__all__ = [
    "SERIES_COLOURS",
    "LinearScale",
    "LogScale",
    "Marker",
    "PlotArea",
    "Series",
    "axes_svg",
    "format_number",
    "line_plot",
    "log_ticks",
    "nice_ticks",
    "plot_figure",
    "series_colour",
]

MINUS = "\u2212"
"""Typographic minus sign used in tick labels (a hyphen is too short next to digits)."""

SERIES_COLOURS: tuple[tuple[str, str], ...] = (
    ("#0072b2", "#6cb8ec"),
    ("#d55e00", "#ff9a5c"),
    ("#009e73", "#41d3a5"),
    ("#cc79a7", "#eba6cf"),
    ("#8a6d00", "#f0c45a"),
    ("#5d5d5d", "#c8c8c8"),
)
"""(light, dark) colour of each series slot: Okabe-Ito hues, lightened for the dark palette."""

DASHES: tuple[str, ...] = ("", "6 3", "2 3", "8 3 2 3", "1 2", "10 4")
"""Dash pattern per series slot, so series differ by more than colour (colour-blind readers, print)."""

_DARK = '[data-md-color-scheme="slate"] .gg-plot,[data-jp-theme-light="false"] .gg-plot,.gg-plot.gg-dark'
_STYLE = (
    "<style>"
    + ".gg-plot{"
    + "".join(f"--gg-plot-series-{i}:{light};" for i, (light, _) in enumerate(SERIES_COLOURS))
    + "}"
    + _DARK
    + "{"
    + "".join(f"--gg-plot-series-{i}:{dark};" for i, (_, dark) in enumerate(SERIES_COLOURS))
    + "}"
    # A 560-unit viewBox on a 375 px phone shrinks 13-unit text to 8 px; draw it larger there
    # (axis titles a little less, so a long y title still fits the plot's height).
    + "@media (max-width:600px){.gg-plot-svg{font-size:19px}.gg-plot-svg .gg-plot-label{font-size:16px}}"
    + "</style>"
)
"""Per-figure CSS: the series palette as variables (light, then dark) and larger text on phones.

Identical in every figure, so repeating it is harmless; it keeps a plot self-contained in
Jupyter as well as on the site.
"""


# Inline styles: a site theme styles bare figures, captions and lists (centred, italic, bulleted);
# a plot's own layout must win over that whatever the theme's selectors are.
_FIGURE = "display:block;width:100%;max-width:100%;margin:1em 0;text-align:left"
_CAPTION = "max-width:none;margin:.4em 0 0;font-style:normal;text-align:left"
_LEGEND = "display:flex;flex-wrap:wrap;gap:.2em 1.2em;list-style:none;margin:0;padding:0"
_LEGEND_ITEM = "display:flex;align-items:center;gap:.4em;margin:0;list-style:none"


def format_number(value: float, decimals: int = 1) -> str:
    """Fixed-precision text for an SVG coordinate or a label: no ``-0.0``, no exponent, same bytes every run.

    `value` is printed with `decimals` digits after the point.

    >>> format_number(-0.04), format_number(12.345, 2), format_number(3, 0)
    ('0.0', '12.35', '3')
    """
    text = f"{value:.{decimals}f}"
    if text.lstrip("-").strip("0.") == "":
        return text.lstrip("-")
    return text


def _tick_text(value: float, decimals: int) -> str:
    """A tick label with a typographic minus."""
    return format_number(value, decimals).replace("-", MINUS)


def nice_ticks(low: float, high: float, target: int = 6) -> list[float]:
    """Round tick values (1, 2, 2.5 or 5 times a power of ten apart) covering ``[low, high]``.

    The first tick is at or below `low` and the last at or above `high`, so a scale can
    extend its domain to them; the step aims at about `target` ticks.

    >>> nice_ticks(0.0, 9.0)
    [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]
    >>> nice_ticks(-800, 800, 9)
    [-800.0, -600.0, -400.0, -200.0, 0.0, 200.0, 400.0, 600.0, 800.0]
    """
    if not (math.isfinite(low) and math.isfinite(high)):
        raise ValueError(f"nice_ticks needs finite bounds, got {low!r} and {high!r}")
    if high < low:
        low, high = high, low
    if high == low:
        spread = abs(low) or 1.0
        low, high = low - spread, high + spread
    step = _nice_step((high - low) / max(target - 1, 1))
    first = math.floor(low / step + 1e-9)
    last = math.ceil(high / step - 1e-9)
    # Integer multiples of the step (no running sum), rounded to the step's own decimals,
    # so 0.1-steps give 0.3, not 0.30000000000000004.
    decimals = _decimals(step)

    def tick(k: int) -> float:
        return round(k * step, decimals) + 0.0

    # Far from zero, low / step loses the digits that place a bound between two ticks: widen by a step if needed.
    while tick(first) > low:
        first -= 1
    while tick(last) < high:
        last += 1
    return [tick(k) for k in range(first, last + 1)]


def _nice_step(raw: float) -> float:
    """The smallest 1, 2, 2.5 or 5 times a power of ten that is at least `raw`."""
    magnitude = 10.0 ** math.floor(math.log10(raw))
    for factor in (1.0, 2.0, 2.5, 5.0, 10.0):
        if raw <= factor * magnitude * (1 + 1e-9):
            return factor * magnitude
    return 10.0 * magnitude


def _decimals(step: float) -> int:
    """Digits after the point that show a tick step exactly (0.25 needs 2, 50 needs 0)."""
    for decimals in range(0, 340):
        if abs(round(step, decimals) - step) <= 1e-9 * step:
            return decimals
    return 340


def log_ticks(low: float, high: float, max_ticks: int = 8) -> list[float]:
    """Powers of ten covering ``[low, high]`` (both > 0), every k-th decade when there are too many.

    At most `max_ticks` values are returned.

    >>> log_ticks(3e-14, 0.2)[:3], len(log_ticks(3e-14, 0.2))
    ([1e-14, 1e-12, 1e-10], 8)
    >>> log_ticks(0.5, 30)
    [0.1, 1.0, 10.0, 100.0]
    """
    if not (0.0 < low < math.inf and 0.0 < high < math.inf):
        raise ValueError(f"log_ticks needs positive finite bounds, got {low!r} and {high!r}")
    if high < low:
        low, high = high, low
    first = math.floor(math.log10(low) + 1e-9)
    last = math.ceil(math.log10(high) - 1e-9)
    if last == first:
        first, last = first - 1, last + 1
    stride = 1
    while True:
        # Ticks sit on multiples of the stride, so widen the ends to those before counting.
        start, stop = stride * math.floor(first / stride), stride * math.ceil(last / stride)
        if (stop - start) // stride + 1 <= max_ticks:
            return [float(f"1e{k}") for k in range(start, stop + 1, stride)]
        stride += 1


class LinearScale:
    """Maps a data interval onto a pixel interval linearly, with nice tick values.

    Args:
        domain: (low, high) data values.
        pixels: (start, end) pixel positions of `low` and `high` (end < start for a y axis).
        ticks: tick values; by default `nice_ticks` of the domain.
    """

    log = False

    def __init__(self, domain: tuple[float, float], pixels: tuple[float, float], ticks: Sequence[float] | None = None):
        low, high = float(domain[0]), float(domain[1])
        if not (math.isfinite(low) and math.isfinite(high)) or high <= low:
            raise ValueError(f"a linear scale needs finite low < high, got {domain!r}")
        self.domain = (low, high)
        self.pixels = (float(pixels[0]), float(pixels[1]))
        self.ticks = [t for t in (nice_ticks(low, high) if ticks is None else ticks) if low <= t <= high]

    @classmethod
    def fit(cls, values: Iterable[float], pixels: tuple[float, float], target: int = 6) -> LinearScale:
        """A scale whose domain is the finite `values` widened to the nearest nice ticks."""
        finite = [v for v in values if math.isfinite(v)] or [0.0, 1.0]
        ticks = nice_ticks(min(finite), max(finite), target)
        return cls((ticks[0], ticks[-1]), pixels, ticks)

    def can_show(self, value: float) -> bool:
        """Whether `value` has a position on this axis at all (any finite number does)."""
        return math.isfinite(value)

    def position(self, value: float) -> float:
        """Pixel position of a finite `value` (not clamped: callers clip out-of-domain values)."""
        low, high = self.domain
        start, end = self.pixels
        return start + (value - low) / (high - low) * (end - start)

    def tick_label(self, value: float) -> str:
        """SVG text content (escaped) for the tick at `value`."""
        step = (self.ticks[1] - self.ticks[0]) if len(self.ticks) > 1 else 1.0
        return escape(_tick_text(value, _decimals(abs(step))))


class LogScale:
    """Maps a positive data interval onto pixels by log10, with ticks at powers of ten (labelled 10^k).

    Args:
        domain: (low, high), both > 0.
        pixels: (start, end) pixel positions of `low` and `high`.
        ticks: tick values; by default `log_ticks` of the domain.
    """

    log = True

    def __init__(self, domain: tuple[float, float], pixels: tuple[float, float], ticks: Sequence[float] | None = None):
        low, high = float(domain[0]), float(domain[1])
        if not (0.0 < low < high < math.inf):
            raise ValueError(f"a log scale needs 0 < low < high < inf, got {domain!r}")
        self.domain = (low, high)
        self.pixels = (float(pixels[0]), float(pixels[1]))
        self._log_low, self._log_high = math.log10(low), math.log10(high)
        self.ticks = [t for t in (log_ticks(low, high) if ticks is None else ticks) if low <= t * (1 + 1e-12) and t <= high * (1 + 1e-12)]

    @classmethod
    def fit(cls, values: Iterable[float], pixels: tuple[float, float], max_ticks: int = 8) -> LogScale:
        """A scale whose domain is the positive finite `values` widened to whole decades."""
        positive = [v for v in values if 0.0 < v < math.inf] or [0.1, 10.0]
        ticks = log_ticks(min(positive), max(positive), max_ticks)
        return cls((ticks[0], ticks[-1]), pixels, ticks)

    def can_show(self, value: float) -> bool:
        """Whether `value` has a position on this axis (finite and > 0)."""
        return 0.0 < value < math.inf

    def position(self, value: float) -> float:
        """Pixel position of a positive finite `value` (not clamped)."""
        start, end = self.pixels
        return start + (math.log10(value) - self._log_low) / (self._log_high - self._log_low) * (end - start)

    def tick_label(self, value: float) -> str:
        """SVG text content for the tick at `value`: ``10`` with the exponent as a superscript."""
        exponent = round(math.log10(value))
        if not math.isclose(value, 10.0**exponent, rel_tol=1e-9):
            return escape(f"{value:g}".replace("-", MINUS))
        return f'10<tspan dy="-0.45em" font-size="0.72em">{escape(str(exponent).replace("-", MINUS))}</tspan>'


Scale = Union[LinearScale, LogScale]


@dataclass(frozen=True)
class PlotArea:
    """The SVG canvas (`width` x `height` viewBox units) and the margins around the data rectangle.

    `left` leaves room for y tick labels and the y axis title, `bottom` for x tick labels and
    the x axis title; `right` and `top` keep the frame off the edges.
    """

    width: float = 560.0
    height: float = 340.0
    left: float = 72.0
    right: float = 24.0  # half of the last x tick label ("800") at the phones' larger text
    top: float = 14.0
    bottom: float = 50.0

    @property
    def x_pixels(self) -> tuple[float, float]:
        """Pixel span of the x axis, left to right."""
        return (self.left, self.width - self.right)

    @property
    def y_pixels(self) -> tuple[float, float]:
        """Pixel span of the y axis, bottom to top (SVG y grows downwards)."""
        return (self.height - self.bottom, self.top)


@dataclass(frozen=True)
class Series:
    """One named line of (x, y) points joined in order.

    A point whose y has no place on the axis breaks the line there: nan (and, on a log axis,
    a negative number) leaves a gap; ±inf, 0 on a log axis, or a value beyond a fixed range
    is drawn as a triangle clipped to the top or bottom edge. `line_plot` lists both in a note.

    Args:
        name: legend text (escaped when drawn).
        points: the (x, y) pairs.
        dashed: draw with the slot's dash pattern even in slot 0.
        markers: draw a dot at every point (for sparse data), as well as the line.
        line: draw the joining line (``False`` with ``markers=True`` gives a scatter plot).
        nan_marks: also draw a cross on the top edge at each nan (a gap alone is easy to miss).
    """

    name: str
    points: Sequence[tuple[float, float]]
    dashed: bool = False
    markers: bool = False
    line: bool = True
    nan_marks: bool = False


@dataclass(frozen=True)
class Marker:
    """A labelled special point (a minimum, a threshold), drawn as a ring with its label beside it.

    `x` and `y` are data coordinates (clamped into the frame if outside it). `place` puts the label ``"above"`` or ``"below"`` the ring; ``"auto"`` picks above unless the
    point is near the top edge. The label goes to whichever side of the ring has more room.
    """

    x: float
    y: float
    label: str
    place: str = "auto"


@dataclass
class _Outcome:
    """What happened to one series' points: counts of gaps and clipped points, for the note."""

    nan: int = 0
    nan_marked: int = 0
    negative: int = 0
    above: dict[str, int] = field(default_factory=dict)
    below: dict[str, int] = field(default_factory=dict)


def series_colour(slot: int) -> str:
    """The CSS colour of series `slot`: its palette variable, with the light colour as fallback.

    Set it as the ``color`` of a group whose shapes use ``currentColor``.

    >>> series_colour(1)
    'var(--gg-plot-series-1,#d55e00)'
    """
    index = slot % len(SERIES_COLOURS)
    return f"var(--gg-plot-series-{index},{SERIES_COLOURS[index][0]})"


def _dash(slot: int, series: Series) -> str:
    """The ``stroke-dasharray`` attribute of a series line ('' for solid: slot 0 unless `dashed`)."""
    pattern = DASHES[slot % len(DASHES)] or (DASHES[1] if series.dashed else "")
    return f' stroke-dasharray="{pattern}"' if pattern else ""


def axes_svg(area: PlotArea, x_scale: Scale, y_scale: Scale, *, x_label: str, y_label: str) -> str:
    """SVG for the frame, grid lines, tick labels and the two axis titles (all text escaped).

    The frame fills the data rectangle of `area`; `x_scale` and `y_scale` give the tick positions
    and labels; `x_label` and `y_label` are the axis titles (plain text). Everything is drawn in ``currentColor``, so the axes take the page's text colour in
    either palette.
    """
    x0, x1 = area.x_pixels
    y0, y1 = area.y_pixels
    f = format_number
    grid = 'stroke="currentColor" stroke-opacity="0.14" stroke-width="1"'
    parts = ['<g class="gg-plot-axes" fill="currentColor">']
    for tick in y_scale.ticks:
        y = f(y_scale.position(tick))
        parts.append(f'<line class="gg-plot-grid" x1="{f(x0)}" x2="{f(x1)}" y1="{y}" y2="{y}" {grid}/>')
        parts.append(
            f'<text class="gg-plot-tick" x="{f(x0 - 6)}" y="{y}" dy="0.35em" text-anchor="end">'
            f"{y_scale.tick_label(tick)}</text>"
        )
    for tick in x_scale.ticks:
        x = f(x_scale.position(tick))
        parts.append(f'<line class="gg-plot-grid" x1="{x}" x2="{x}" y1="{f(y0)}" y2="{f(y1)}" {grid}/>')
        parts.append(f'<text class="gg-plot-tick" x="{x}" y="{f(y0 + 18)}" text-anchor="middle">{x_scale.tick_label(tick)}</text>')
    parts.append(
        f'<rect class="gg-plot-frame" x="{f(x0)}" y="{f(y1)}" width="{f(x1 - x0)}" height="{f(y0 - y1)}" '
        'fill="none" stroke="currentColor" stroke-opacity="0.55"/>'
    )
    parts.append(
        f'<text class="gg-plot-label" x="{f((x0 + x1) / 2)}" y="{f(area.height - 8)}" text-anchor="middle">'
        f"{escape(x_label)}</text>"
    )
    parts.append(
        f'<text class="gg-plot-label" transform="translate(15 {f((y0 + y1) / 2)}) rotate(-90)" text-anchor="middle">'
        f"{escape(y_label)}</text>"
    )
    parts.append("</g>")
    return "".join(parts)


def _triangle(x: float, y: float, up: bool) -> str:
    """Path data of a small triangle on an edge, pointing off the plot (up at the top, down at the bottom)."""
    f = format_number
    tip, base = (y - 5, y + 3) if up else (y + 5, y - 3)
    return f"M{f(x)},{f(tip)}L{f(x - 4)},{f(base)}L{f(x + 4)},{f(base)}Z"


def _cross(x: float, y: float) -> str:
    """Path data of a small cross centred just inside the top edge (a nan result)."""
    f = format_number
    y += 5
    return f"M{f(x - 3.5)},{f(y - 3.5)}L{f(x + 3.5)},{f(y + 3.5)}M{f(x - 3.5)},{f(y + 3.5)}L{f(x + 3.5)},{f(y - 3.5)}"


def _place(y: float, y_scale: Scale) -> str:
    """Where a y value goes: ``"in"`` the range, ``"gap"`` (nan; negative on a log axis), or a clip reason.

    Clip reasons start with ``+`` (top edge) or ``-`` (bottom edge).
    """
    low, high = y_scale.domain
    if y != y:
        return "gap:nan"
    if y_scale.log and y < 0:
        return "gap:negative"
    if y_scale.can_show(y):
        # A relative tolerance: a value printed as the range's end should not be clipped by a rounding bit.
        if low - 1e-12 * abs(low) <= y <= high + 1e-12 * abs(high):
            return "in"
        return "+above the range" if y > high else "-below the range"
    if y == math.inf:
        return "++inf"
    if y == -math.inf:
        return "-−inf"
    return "-0"  # zero on a log axis


def _series_svg(slot: int, series: Series, x_scale: Scale, y_scale: Scale, area: PlotArea) -> tuple[str, _Outcome]:
    """SVG for one series (line pieces, dots, clipped triangles) and what was not drawn in place."""
    outcome = _Outcome()
    x_low, x_high = x_scale.domain
    top, bottom = min(area.y_pixels), max(area.y_pixels)
    pieces: list[list[tuple[str, str]]] = [[]]
    dots: list[tuple[str, str]] = []
    clipped: list[str] = []
    last_clip: dict[bool, float] = {}
    crosses: list[str] = []
    last_cross: float | None = None
    for x, y in series.points:
        x, y = float(x), float(y)
        place = _place(y, y_scale)
        if not (x_scale.can_show(x) and x_low <= x <= x_high) or place.startswith("gap"):
            if place == "gap:negative":
                outcome.negative += 1
            elif series.nan_marks and place == "gap:nan" and x_scale.can_show(x) and x_low <= x <= x_high:
                outcome.nan_marked += 1
                px = x_scale.position(x)
                if last_cross is None or abs(px - last_cross) >= 5:
                    crosses.append(_cross(px, top))
                    last_cross = px
            else:
                outcome.nan += 1
            pieces.append([])
            continue
        px = x_scale.position(x)
        if place == "in":
            point = (format_number(px), format_number(y_scale.position(y)))
            # Consecutive points on the same pixel add bytes and nothing visible.
            if not pieces[-1] or pieces[-1][-1] != point:
                pieces[-1].append(point)
            if series.markers and (not dots or dots[-1] != point):
                dots.append(point)
            continue
        up = place[0] == "+"
        counts = outcome.above if up else outcome.below
        counts[place[1:]] = counts.get(place[1:], 0) + 1
        pieces.append([])
        # At most one triangle per 5 px: a long clipped run reads as a row, not a smear.
        if up not in last_clip or abs(px - last_clip[up]) >= 5:
            clipped.append(_triangle(px, top if up else bottom, up))
            last_clip[up] = px
    parts = [f'<g class="gg-plot-series" data-series="{slot}" style="color:{series_colour(slot)}">']
    if series.line:
        for piece in pieces:
            if len(piece) >= 2:
                coords = " ".join(f"{x},{y}" for x, y in piece)
                parts.append(
                    f'<polyline class="gg-plot-line" points="{coords}" fill="none" stroke="currentColor" '
                    f'stroke-width="2" stroke-linejoin="round"{_dash(slot, series)}/>'
                )
            elif len(piece) == 1 and not series.markers:
                x, y = piece[0]
                parts.append(f'<circle class="gg-plot-dot" cx="{x}" cy="{y}" r="1.8" fill="currentColor"/>')
    for x, y in dots:
        parts.append(f'<circle class="gg-plot-dot" cx="{x}" cy="{y}" r="2.6" fill="currentColor"/>')
    if clipped:
        parts.append(f'<path class="gg-plot-clipped" d="{"".join(clipped)}" fill="currentColor"/>')
    if crosses:
        parts.append(f'<path class="gg-plot-nan" d="{"".join(crosses)}" fill="none" stroke="currentColor" stroke-width="1.5"/>')
    parts.append("</g>")
    return "".join(parts), outcome


def _marker_svg(marker: Marker, x_scale: Scale, y_scale: Scale, area: PlotArea) -> str:
    """A ring at the marker's point (clamped inside the frame) and its label, on the roomier side."""
    f = format_number
    (x0, x1), (y0, y1) = area.x_pixels, area.y_pixels
    px = min(max(x_scale.position(marker.x), x0), x1) if x_scale.can_show(marker.x) else x0
    py = min(max(y_scale.position(marker.y), y1), y0) if y_scale.can_show(marker.y) else y0
    anchor, dx = ("start", 9) if px < (x0 + x1) / 2 else ("end", -9)
    below = marker.place == "below" or (marker.place == "auto" and py < y1 + 24)
    dy = 18 if below else -9
    return (
        f'<g class="gg-plot-marker"><circle cx="{f(px)}" cy="{f(py)}" r="5" fill="none" stroke="currentColor" '
        f'stroke-width="1.5"/><text x="{f(px + dx)}" y="{f(py + dy)}" text-anchor="{anchor}" fill="currentColor">'
        f"{escape(marker.label)}</text></g>"
    )


def _note_lines(named: Sequence[tuple[str, _Outcome]]) -> list[str]:
    """One plain-text line per series that has points not drawn in place."""
    lines = []
    for name, outcome in named:
        bits = []
        if outcome.nan:
            bits.append(f"{outcome.nan} nan point{'s' * (outcome.nan != 1)} (gaps in the line)")
        if outcome.nan_marked:
            n = outcome.nan_marked
            bits.append(f"{n} nan point{'s' * (n != 1)} (× on the top edge)")
        if outcome.negative:
            bits.append(f"{outcome.negative} negative point{'s' * (outcome.negative != 1)} (gaps: no place on a log axis)")
        for counts, edge, arrow in ((outcome.above, "top", "▲"), (outcome.below, "bottom", "▼")):
            for reason in sorted(counts):
                n = counts[reason]
                bits.append(f"{n} point{'s' * (n != 1)} at {reason} ({arrow} on the {edge} edge)")
        if bits:
            lines.append(f"{name}: " + "; ".join(bits) + ".")
    return lines


def plot_figure(
    area: PlotArea,
    body: str,
    *,
    legend: Sequence[tuple[int, Series]],
    notes: Sequence[str] = (),
    title: str | None = None,
    description: str,
) -> HtmlFragment:
    """Wrap an SVG `body` (already escaped) in the shared figure: responsive SVG, legend, notes.

    `area` gives the viewBox size; `title` (optional) is shown above the plot and read as the
    SVG's accessible title. `legend` pairs each series with its colour slot. `title`, `notes`
    and `description` (the accessible summary) are plain text, escaped here. The figure carries
    the ``gg`` class, so it takes the site's text colour and palette.
    """
    svg = (
        f'<svg class="gg-plot-svg" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {format_number(area.width, 0)} '
        f'{format_number(area.height, 0)}" style="width:100%;height:auto;display:block" role="img" '
        f'font-family="inherit" font-size="13">'
        f"<title>{escape(title or description)}</title><desc>{escape(description)}</desc>{body}</svg>"
    )
    items = []
    for slot, series in legend:
        swatch = (
            f'<svg class="gg-plot-swatch" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 28 10" width="28" height="10" aria-hidden="true" '
            f'style="color:{series_colour(slot)}">'
            + (
                f'<line x1="1" y1="5" x2="27" y2="5" stroke="currentColor" stroke-width="2"{_dash(slot, series)}/>'
                if series.line
                else ""
            )
            + ('<circle cx="14" cy="5" r="3" fill="currentColor"/>' if series.markers else "")
            + "</svg>"
        )
        items.append(f'<li style="{_LEGEND_ITEM}">{swatch}{escape(series.name)}</li>')
    heading = f'<div class="gg-plot-title" style="font-weight:600;margin-bottom:.3em">{escape(title)}</div>' if title else ""
    legend_html = f'<ul class="gg-plot-legend" style="{_LEGEND}">{"".join(items)}</ul>' if items else ""
    notes_html = "".join(f'<p class="gg-plot-note" style="margin:.3em 0 0;opacity:.8">{escape(line)}</p>' for line in notes)
    return HtmlFragment(
        f'<figure class="gg gg-plot" style="{_FIGURE}">{_STYLE}{heading}{svg}'
        f'<figcaption style="{_CAPTION}">{legend_html}{notes_html}</figcaption></figure>'
    )


def line_plot(
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
    y_ticks: Sequence[float] | None = None,
    markers: Sequence[Marker] = (),
    note: str | None = None,
    area: PlotArea = PlotArea(),
) -> HtmlFragment:
    """Draw named series as lines on shared axes; return the figure as the shared HTML fragment.

    Args:
        series: ``{name: [(x, y), ...]}`` or `Series` objects (for dashes, dots or a scatter).
        x_label: x axis title (plain text, escaped).
        y_label: y axis title (plain text, escaped).
        log_x: a log10 x axis, with ticks at powers of ten labelled 10^k.
        log_y: a log10 y axis, likewise.
        title: shown above the plot and used as the SVG's accessible title.
        x_range: fixed x domain; by default the data widened to nice ticks (or whole decades).
        y_range: fixed y domain, likewise; points beyond it are clipped to the edge and listed in the note.
        x_ticks: tick values for a fixed x range (default: `nice_ticks` or `log_ticks`).
        y_ticks: tick values for a fixed y range, likewise.
        markers: special points to ring and label (a minimum, a threshold).
        note: an extra sentence printed under the legend.
        area: canvas size and margins.

    Points that cannot be drawn in place never vanish silently: nan leaves a gap, ±inf (and 0 on
    a log axis) becomes a triangle on the edge, and a note under the plot counts them per series.

    Raises:
        ValueError: if there is no series, or a fixed range is empty or not positive on a log axis.

    >>> html = str(line_plot({"a": [(1, 1), (2, math.nan), (3, math.inf)]}, x_label="x", y_label="y"))
    >>> "1 nan point (gaps in the line)" in html and "1 point at +inf" in html
    True
    """
    items = [Series(name, list(points)) for name, points in series.items()] if isinstance(series, Mapping) else list(series)
    if not items:
        raise ValueError("line_plot needs at least one series")
    all_points = [(float(x), float(y)) for item in items for x, y in item.points]
    x_kind: type[LinearScale] | type[LogScale] = LogScale if log_x else LinearScale
    y_kind: type[LinearScale] | type[LogScale] = LogScale if log_y else LinearScale
    if x_range is not None:
        x_scale: Scale = x_kind(x_range, area.x_pixels, x_ticks)
    else:
        x_scale = x_kind.fit([x for x, _ in all_points] + [m.x for m in markers], area.x_pixels)
    if y_range is not None:
        y_scale: Scale = y_kind(y_range, area.y_pixels, y_ticks)
    else:
        y_scale = y_kind.fit([y for _, y in all_points] + [m.y for m in markers], area.y_pixels)
    body = [axes_svg(area, x_scale, y_scale, x_label=x_label, y_label=y_label)]
    outcomes = []
    for slot, item in enumerate(items):
        svg, outcome = _series_svg(slot, item, x_scale, y_scale, area)
        body.append(svg)
        outcomes.append((item.name, outcome))
    body.extend(_marker_svg(marker, x_scale, y_scale, area) for marker in markers)
    notes = _note_lines(outcomes) + ([note] if note else [])
    names = ", ".join(item.name for item in items)
    scales = f"{'log' if log_x else 'linear'} x, {'log' if log_y else 'linear'} y"
    description = f"{y_label} against {x_label} ({scales}); series: {names}."
    return plot_figure(area, "".join(body), legend=list(enumerate(items)), notes=notes, title=title, description=description)
