"""glassgrad.viz.plot: the figures hold the data they were given, and their SVG is safe and reproducible."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

import pytest

pytest.importorskip("matplotlib")
from glassgrad.viz.plot import Marker, Series, line_figure, line_plot, to_html  # noqa: E402


def plotted(figure) -> dict[str, list[list[float]]]:
    return {line.get_label(): line.get_xydata().tolist() for line in figure.axes[0].lines}


def test_each_series_is_drawn_with_its_points_and_style() -> None:
    figure = line_figure(
        [
            Series("solid", [(0, 1), (1, 2)]),
            Series("dashed", [(0, 3), (1, 4)], dashed=True),
            Series("dots", [(0, 5), (1, 6)], line=False),
        ],
        x_label="step",
        y_label="loss",
        title="T",
    )
    lines = {line.get_label(): line for line in figure.axes[0].lines}
    assert plotted(figure) == {"solid": [[0, 1], [1, 2]], "dashed": [[0, 3], [1, 4]], "dots": [[0, 5], [1, 6]]}
    assert lines["solid"].get_linestyle() == "-" and lines["dashed"].get_linestyle() == "--"
    assert lines["dots"].get_linestyle() == "None" and lines["dots"].get_marker() == "o"
    assert len({line.get_color() for line in lines.values()}) == 3
    axes = figure.axes[0]
    assert (axes.get_xlabel(), axes.get_ylabel(), axes.get_title()) == ("step", "loss", "T")


def test_a_mapping_is_a_list_of_plain_series() -> None:
    assert plotted(line_figure({"a": [(1, 1), (2, 4)]}, x_label="x", y_label="y")) == {"a": [[1, 1], [2, 4]]}


def test_log_axes_ranges_ticks_and_markers() -> None:
    figure = line_figure(
        {"err": [(1e-8, 1e-6), (1e-4, 1e-10), (1.0, 1e-2)]},
        x_label="ε",
        y_label="error",
        log_x=True,
        log_y=True,
        y_range=(1e-12, 1.0),
        x_ticks=[1e-8, 1e-4, 1.0],
        markers=[Marker(1e-4, 1e-10, "best")],
    )
    axes = figure.axes[0]
    assert (axes.get_xscale(), axes.get_yscale()) == ("log", "log")
    assert axes.get_ylim() == (1e-12, 1.0) and list(axes.get_xticks()) == [1e-8, 1e-4, 1.0]
    assert [text.get_text() for text in axes.texts] == ["best"]


def test_nan_points_leave_a_gap_and_can_be_marked() -> None:
    figure = line_figure([Series("s", [(0, 1), (1, math.nan), (2, 3)], nan_marks=True)], x_label="z", y_label="e")
    data = plotted(figure)
    assert math.isnan(data["s"][1][1])
    assert [x for x, _ in data["s: nan"]] == [1.0]


def test_no_series_is_an_error() -> None:
    with pytest.raises(ValueError, match="at least one series"):
        line_plot([], x_label="x", y_label="y")


def test_svg_is_reproducible_escaped_and_follows_the_palette() -> None:
    def draw() -> str:
        return str(
            line_plot({"<b>a</b> & b": [(0, 0), (1, 1)]}, x_label="<x>", y_label="y", title='"<t>"', note="a < b")
        )

    html = draw()
    assert html == draw()
    assert "<b>a</b>" not in html and "&lt;b&gt;a&lt;/b&gt; &amp; b" in html and "a &lt; b" in html
    svg = re.search(r"<svg.*</svg>", html, re.S).group(0)
    ET.fromstring(svg)  # well-formed
    # Palette variables, with the light colour for a notebook that never loaded the stylesheet.
    assert "var(--gg-plot-series-0, #0072b2)" in svg and "currentColor" in svg
    assert not re.search(r"(?<!, )#0072b2|#000000|Date|<metadata", svg)
    assert set(re.findall(r"https?://[^\"' )]+", html)) <= {
        "http://www.w3.org/2000/svg",
        "http://www.w3.org/1999/xlink",
    }


def test_two_plots_on_one_page_share_no_id() -> None:
    first, second = (str(line_plot({"a": [(0, k), (1, 2)]}, x_label="x", y_label="y")) for k in (0, 1))
    ids = [set(re.findall(r' id="([^"]+)"', html)) for html in (first, second)]
    assert ids[0] and not ids[0] & ids[1]
    for html in (first, second):
        for reference in re.findall(r'(?:href="|url\()#([^")]+)', html):
            assert f'id="{reference}"' in html


def test_figure_to_html_keeps_the_note() -> None:
    figure = line_figure({"a": [(0, 0), (1, 1)]}, x_label="x", y_label="y", note="drawn at 0.1")
    assert "<figcaption" in str(to_html(figure)) and "drawn at 0.1" in str(to_html(figure))
