"""glassgrad.viz.plot: the SVG it emits parses, says what it was given, escapes labels and never changes."""

from __future__ import annotations

import math
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from glassgrad.viz import HtmlFragment, line_plot
from glassgrad.viz.plot import LinearScale, LogScale, Marker, PlotArea, Series, format_number, log_ticks, nice_ticks

SVG = "{http://www.w3.org/2000/svg}"
HOSTILE = "<script>alert('x')</script> & \"quoted\" <b>"


def parse(figure: HtmlFragment) -> ET.Element:
    """The whole figure as XML (it must be well-formed: inline SVG inside HTML)."""
    return ET.fromstring(str(figure))


def texts(element: ET.Element) -> list[str]:
    """The text of every SVG text, legend item, note and title block."""
    return ["".join(node.itertext()) for node in element.iter() if node.tag in (f"{SVG}text", "li", "p", "div")]


def series_groups(root: ET.Element) -> list[ET.Element]:
    """The `<g>` of each series, in drawing order."""
    return [g for g in root.iter(f"{SVG}g") if g.get("class") == "gg-plot-series"]


def by_class(root: ET.Element, tag: str, cls: str) -> list[ET.Element]:
    """Every `tag` element whose class is exactly `cls`."""
    return [node for node in root.iter(tag) if node.get("class") == cls]


def sine_and_cosine() -> HtmlFragment:
    """Three linear series with a title: the common case."""
    xs = [i / 10 for i in range(-30, 31)]
    return line_plot(
        {"sin": [(x, math.sin(x)) for x in xs], "cos": [(x, math.cos(x)) for x in xs], "zero": [(-3, 0), (3, 0)]},
        x_label="angle x",
        y_label="value",
        title="Two waves",
    )


def test_figure_is_well_formed_and_fits_a_phone():
    figure = sine_and_cosine()
    assert isinstance(figure, HtmlFragment) and figure._repr_html_() == str(figure)
    root = parse(figure)
    svg = root.find(f".//{SVG}svg[@class='gg-plot-svg']")
    assert svg is not None
    width, height = (float(v) for v in svg.get("viewBox").split()[2:])
    assert svg.get("viewBox") == f"0 0 {width:g} {height:g}" and width <= 600
    assert "width:100%" in svg.get("style") and "height:auto" in svg.get("style")
    assert svg.find(f"{SVG}title").text == "Two waves"


def test_one_group_and_one_legend_entry_per_series_in_order():
    root = parse(sine_and_cosine())
    groups = series_groups(root)
    assert [g.get("data-series") for g in groups] == ["0", "1", "2"]
    legend = [li for li in root.iter("li")]
    assert ["".join(li.itertext()) for li in legend] == ["sin", "cos", "zero"]
    # Each series has its own colour variable, set on its group and on its legend swatch.
    colours = [g.get("style") for g in groups]
    assert len(set(colours)) == 3 and all("var(--gg-plot-series-" in c for c in colours)
    assert [li.find(f"{SVG}svg").get("style") for li in legend] == colours


def test_axis_labels_and_nice_ticks_are_drawn():
    root = parse(sine_and_cosine())
    labels = ["".join(t.itertext()) for t in by_class(root, f"{SVG}text", "gg-plot-label")]
    assert labels == ["angle x", "value"]
    ticks = ["".join(t.itertext()) for t in by_class(root, f"{SVG}text", "gg-plot-tick")]
    # Negative ticks use a real minus sign, not a hyphen.
    assert not any(t.startswith("-") for t in ticks) and "\u22121.0" in ticks
    values = [float(t.replace("\u2212", "-")) for t in ticks]
    y_ticks, x_ticks = values[: values.index(1.0) + 1], values[values.index(1.0) + 1 :]
    # The axes cover the data (y in [-1, 1], x in [-3, 3]) with evenly spaced round ticks.
    assert min(y_ticks) <= -1 and max(y_ticks) >= 1 and min(x_ticks) <= -3 and max(x_ticks) >= 3
    for axis in (y_ticks, x_ticks):
        steps = {round(b - a, 9) for a, b in zip(axis, axis[1:])}
        assert len(steps) == 1


def test_coordinates_use_one_decimal_and_there_are_no_ids_or_remote_urls():
    html = str(sine_and_cosine())
    for match in re.finditer(r'points="([^"]+)"', html):
        for pair in match.group(1).split():
            assert re.fullmatch(r"-?\d+\.\d,-?\d+\.\d", pair), pair
    assert " id=" not in html
    assert set(re.findall(r"https?://[^\"' ]+", html)) == {"http://www.w3.org/2000/svg"}


def test_output_is_identical_across_calls_and_processes():
    assert str(sine_and_cosine()) == str(sine_and_cosine())
    script = (
        "import math, hashlib\n"
        "from glassgrad.viz.plot import line_plot\n"
        "f = line_plot({'a': [(x / 7, math.exp(x / 7)) for x in range(40)], 'b': {0: 1}.items()},"
        " x_label='x', y_label='y', log_y=True)\n"
        "print(hashlib.sha256(str(f).encode()).hexdigest())\n"
    )
    digests = {
        subprocess.run(
            [sys.executable, "-c", script], env={"PYTHONHASHSEED": seed, "PATH": ""}, capture_output=True, text=True, check=True
        ).stdout
        for seed in ("1", "2", "3")
    }
    assert len(digests) == 1


def test_hostile_labels_are_escaped_everywhere():
    figure = line_plot(
        {HOSTILE: [(0, 1), (1, 2)]},
        x_label=HOSTILE,
        y_label=HOSTILE,
        title=HOSTILE,
        note=HOSTILE,
        markers=[Marker(0.5, 1.5, HOSTILE)],
    )
    html = str(figure)
    assert "<script" not in html and "<b>" not in html
    root = parse(figure)  # still well-formed: nothing broke out of its element
    found = texts(root)
    # Axis labels, legend, title, note and marker label all show the text itself.
    assert found.count(HOSTILE) >= 6
    assert root.find(f".//{SVG}title").text == HOSTILE


def test_nan_leaves_a_gap_and_infinity_is_clipped_with_a_note():
    points = [(0, 1.0), (1, 2.0), (2, math.nan), (3, 2.0), (4, 1.0), (5, math.inf), (6, -math.inf), (7, 1.5)]
    root = parse(line_plot({"wavy": points}, x_label="x", y_label="y"))
    lines = by_class(root, f"{SVG}polyline", "gg-plot-line")
    assert [len(line.get("points").split()) for line in lines] == [2, 2]  # broken at the nan and at ±inf
    clipped = by_class(root, f"{SVG}path", "gg-plot-clipped")
    assert len(clipped) == 1 and clipped[0].get("d").count("M") == 2  # one triangle per edge
    notes = ["".join(p.itertext()) for p in by_class(root, "p", "gg-plot-note")]
    assert notes == [
        "wavy: 1 nan point (gaps in the line); 1 point at +inf (▲ on the top edge); 1 point at −inf (▼ on the bottom edge)."
    ]
    # The lone point after the clipped ones still shows, as a dot.
    assert len(by_class(root, f"{SVG}circle", "gg-plot-dot")) == 1


def test_nan_marks_draw_crosses_and_log_axes_clip_zero_and_skip_negatives():
    series = Series("err", [(1, 1e-3), (2, 0.0), (3, -1.0), (4, math.nan), (5, 1e2), (6, 1e3)], nan_marks=True)
    root = parse(line_plot([series], x_label="x", y_label="error", log_y=True))
    assert len(by_class(root, f"{SVG}path", "gg-plot-nan")) == 1
    (note,) = ["".join(p.itertext()) for p in by_class(root, "p", "gg-plot-note")]
    assert "1 nan point (× on the top edge)" in note
    assert "1 negative point (gaps: no place on a log axis)" in note
    assert "1 point at 0 (▼ on the bottom edge)" in note


def test_points_beyond_a_fixed_range_are_clipped_and_counted():
    root = parse(line_plot({"s": [(0, 0.5), (1, 5.0), (2, -5.0), (3, 0.5)]}, x_label="x", y_label="y", y_range=(0, 1)))
    (note,) = ["".join(p.itertext()) for p in by_class(root, "p", "gg-plot-note")]
    assert "1 point at above the range" in note and "1 point at below the range" in note


def test_log_axes_label_powers_of_ten_as_superscripts():
    root = parse(line_plot({"e": [(10.0**-k, 10.0**-k) for k in range(1, 14)]}, x_label="ε", y_label="err", log_x=True, log_y=True))
    ticks = by_class(root, f"{SVG}text", "gg-plot-tick")
    exponents = [t.find(f"{SVG}tspan").text for t in ticks]
    assert all(t.text == "10" for t in ticks)
    assert "\u221214" in exponents and "0" in exponents
    assert len(ticks) <= 2 * 8  # at most 8 per axis, stepping over decades when there are many


def test_a_scatter_series_draws_one_dot_per_point_and_no_line():
    points = [(0.0, 1.0), (1.0, 3.0), (2.0, 2.0), (3.0, 5.0)]
    root = parse(line_plot([Series("samples", points, markers=True, line=False)], x_label="x", y_label="y"))
    assert by_class(root, f"{SVG}polyline", "gg-plot-line") == []
    assert len(by_class(root, f"{SVG}circle", "gg-plot-dot")) == len(points)
    (swatch,) = [li.find(f"{SVG}svg") for li in root.iter("li")]
    assert swatch.find(f"{SVG}circle") is not None and swatch.find(f"{SVG}line") is None


def test_markers_are_ringed_and_labelled():
    root = parse(line_plot({"a": [(0, 0), (1, 1)]}, x_label="x", y_label="y", markers=[Marker(0.5, 0.5, "half way", place="below")]))
    (marker,) = [g for g in root.iter(f"{SVG}g") if g.get("class") == "gg-plot-marker"]
    ring, label = marker.find(f"{SVG}circle"), marker.find(f"{SVG}text")
    assert label.text == "half way" and float(label.get("y")) > float(ring.get("cy"))


def test_colours_follow_the_dark_palette():
    html = str(sine_and_cosine())
    assert '[data-md-color-scheme="slate"] .gg-plot' in html
    assert 'class="gg gg-plot"' in html  # the shared .gg class: text colour follows the theme


def test_bad_input_is_refused():
    with pytest.raises(ValueError):
        line_plot({}, x_label="x", y_label="y")
    with pytest.raises(ValueError):
        line_plot({"a": [(1, 1)]}, x_label="x", y_label="y", log_y=True, y_range=(0, 1))
    with pytest.raises(ValueError):
        LinearScale((1.0, 1.0), (0, 100))


def test_scales_map_their_ends_to_the_pixel_ends():
    linear = LinearScale((-2.0, 6.0), (10.0, 110.0))
    assert linear.position(-2.0) == 10.0 and linear.position(6.0) == 110.0 and linear.position(2.0) == 60.0
    log = LogScale((1e-4, 1.0), (300.0, 0.0))
    assert log.position(1e-4) == 300.0 and log.position(1.0) == 0.0 and log.position(1e-2) == pytest.approx(150.0)
    area = PlotArea()
    assert area.x_pixels[0] < area.x_pixels[1] and area.y_pixels[0] > area.y_pixels[1]


def test_format_number_is_stable():
    assert format_number(-0.04) == "0.0" and format_number(-0.0) == "0.0" and format_number(2.25, 1) == "2.2"


@given(
    st.floats(min_value=-1e6, max_value=1e6, allow_nan=False),
    st.floats(min_value=1e-6, max_value=1e6, allow_nan=False),
)
@example(low=-549755.9999999999, width=1e-05)  # found by hypothesis: low / step lost the last tick
def test_nice_ticks_cover_the_range_with_a_round_step(low, width):
    high = low + width
    ticks = nice_ticks(low, high)
    step = ticks[1] - ticks[0]
    # Within a billionth of a step: the bounds themselves carry float noise.
    assert ticks[0] <= low + 1e-9 * step and ticks[-1] >= high - 1e-9 * step
    assert 2 <= len(ticks) <= 12
    mantissa = step / 10 ** math.floor(math.log10(step) + 1e-9)
    # Loose: a difference of two ticks near 1e4 apart by 1e-7 keeps only a few digits.
    assert any(math.isclose(mantissa, m, rel_tol=1e-3) for m in (1, 2, 2.5, 5, 10))


@given(st.integers(min_value=-300, max_value=300), st.integers(min_value=0, max_value=40))
def test_log_ticks_are_powers_of_ten_covering_the_range(first, decades):
    if first + decades > 300:
        return  # 2e300 and beyond: out of float64's range
    low, high = 10.0**first * 1.5, 10.0 ** (first + decades) * 2
    ticks = log_ticks(low, high)
    assert ticks[0] <= low and ticks[-1] >= high and len(ticks) <= 8
    assert all(math.isclose(t, 10.0 ** round(math.log10(t)), rel_tol=1e-12) for t in ticks)
