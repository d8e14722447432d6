"""The figures' palettes, read from the stylesheets: the highlight ("look here", gold) differs in hue from every
role colour (the legend's four and the verdicts' two) by a CIEDE2000 colour difference of at least 20, in the light
and the dark palette alike, so a highlighted frame never reads as an edge contribution.
"""

from __future__ import annotations

import math
import re
from importlib import resources

import pytest

ROLES = ("upstream", "local", "contribution", "grad", "bad", "good")
HIGHLIGHTS = ("highlight-edge", "visit", "link")  # the highlight and the animations' names for it
DARK = '[data-md-color-scheme="slate"] .gg'


def declarations(selector: str) -> dict[str, str]:
    """The ``--gg-*`` custom properties set by every rule of the package's stylesheets whose selector list is `selector`."""
    found: dict[str, str] = {}
    for sheet in ("glassgrad.css", "animate.css"):
        css = resources.files("glassgrad.viz").joinpath(sheet).read_text(encoding="utf-8")
        css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
        for selectors, body in re.findall(r"([^{}]+)\{([^{}]*)\}", css):
            if selector in [part.strip() for part in selectors.split(",")]:
                found |= dict(re.findall(r"--gg-([\w-]+)\s*:\s*([^;]+);", body))
    return found


def palette(scheme: str) -> dict[str, str]:
    """Each ``--gg-*`` colour of the light palette, or of the dark one (the light one's, where it sets none), resolved."""
    values = declarations(".gg") | (declarations(DARK) if scheme == "dark" else {})

    def resolve(value: str) -> str:
        reference = re.fullmatch(r"var\(--gg-([\w-]+)\)", value.strip())
        return resolve(values[reference.group(1)]) if reference else value.strip()

    return {name: resolve(value) for name, value in values.items()}


def lab(colour: str) -> tuple[float, float, float]:
    """CIELAB (D65) of an sRGB colour ``#rrggbb``."""
    rgb = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    xyz = (
        (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047,
        0.2126729 * r + 0.7151522 * g + 0.0721750 * b,
        (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883,
    )
    fx, fy, fz = (t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29 for t in xyz)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e_2000(first: tuple[float, float, float], second: tuple[float, float, float]) -> float:
    """The CIEDE2000 colour difference of two CIELAB colours (Sharma, Wu and Dalal, 2005; kL = kC = kH = 1)."""
    (l1, a1, b1), (l2, a2, b2) = first, second
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean**7 / (c_mean**7 + 25**7)))
    a1, a2 = (1 + g) * a1, (1 + g) * a2
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    h1, h2 = (math.degrees(math.atan2(b, a)) % 360 if c else 0.0 for a, b, c in ((a1, b1, c1), (a2, b2, c2)))
    dh = 0.0 if c1 * c2 == 0 else (h2 - h1 + 180) % 360 - 180 if abs(h2 - h1) != 180 else 180.0
    d_l, d_c, d_h = l2 - l1, c2 - c1, 2 * math.sqrt(c1 * c2) * math.sin(math.radians(dh / 2))
    l_mean, c_mean = (l1 + l2) / 2, (c1 + c2) / 2
    if c1 * c2 == 0:
        h_mean = h1 + h2
    elif abs(h1 - h2) <= 180:
        h_mean = (h1 + h2) / 2
    else:
        h_mean = (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(h_mean - 30))
        + 0.24 * math.cos(math.radians(2 * h_mean))
        + 0.32 * math.cos(math.radians(3 * h_mean + 6))
        - 0.20 * math.cos(math.radians(4 * h_mean - 63))
    )
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    s_c, s_h = 1 + 0.045 * c_mean, 1 + 0.015 * c_mean * t
    r_t = (
        -2
        * math.sqrt(c_mean**7 / (c_mean**7 + 25**7))
        * math.sin(math.radians(60 * math.exp(-(((h_mean - 275) / 25) ** 2))))
    )
    return math.sqrt((d_l / s_l) ** 2 + (d_c / s_c) ** 2 + (d_h / s_h) ** 2 + r_t * (d_c / s_c) * (d_h / s_h))


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [  # pairs 1, 7, 17, 25 and 34 of Sharma, Wu and Dalal's test data
        ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
        ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
        ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
        ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
        ((90.9257, -0.5406, -0.9208), (88.6381, -0.8985, -0.7239), 1.5381),
    ],
)
def test_the_colour_difference_matches_the_published_test_data(first, second, expected) -> None:
    assert delta_e_2000(first, second) == pytest.approx(expected, abs=1e-4)
    assert delta_e_2000(second, first) == pytest.approx(expected, abs=1e-4)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_highlights_differ_from_every_role_colour(scheme: str) -> None:
    colours = palette(scheme)
    assert all(re.fullmatch(r"#[0-9a-f]{6}", colours[name]) for name in ROLES + HIGHLIGHTS), colours
    close = {
        (highlight, role, colours[highlight], colours[role], round(difference, 1))
        for highlight in HIGHLIGHTS
        for role in ROLES
        if (difference := delta_e_2000(lab(colours[highlight]), lab(colours[role]))) < 20
    }
    assert not close, f"{scheme} palette: highlight and role colours closer than ΔE2000 20: {sorted(close)}"


def test_the_dark_palette_sets_its_own_highlight_and_roles() -> None:
    light, dark = palette("light"), palette("dark")
    assert all(light[name] != dark[name] for name in (*ROLES, "highlight-edge"))
