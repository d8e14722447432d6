"""Graphviz's SVG made inline-ready: parsed once (`xml.etree.ElementTree`), edited as a tree, written back.

Every text and attribute value is written through `glassgrad.viz.html.escape`, the one escape function.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence

from glassgrad.viz.figure import COLOURS
from glassgrad.viz.html import LABEL_LIMIT, escape

SVG = "http://www.w3.org/2000/svg"
XLINK = "http://www.w3.org/1999/xlink"
_PREFIX = {SVG: "", XLINK: "xlink:"}
_SHAPES = ("path", "polygon", "ellipse", "polyline")
_ROLES = {colour: role for role, colour in COLOURS.items()}

ElementAttrs = Mapping[str, Mapping[str, object]]
"""The ``data-gg-*`` attributes to add to each ``<g>``, by its id."""
TextIds = Mapping[str, Sequence[tuple[str, str]]]
"""The ids to give texts, by the id of their ``<g>``: ``(role, id)`` names the last ``gg-t-{role}`` text."""


def _name(qualified: str) -> str:
    """A parsed tag or attribute name as SVG writes it: ``{svg}path`` -> ``path``, ``{xlink}href`` -> ``xlink:href``."""
    if not qualified.startswith("{"):
        return qualified
    namespace, _, local = qualified[1:].partition("}")
    return _PREFIX.get(namespace, "") + local


def write(element: ET.Element) -> str:
    """`element` and everything in it as markup, every text and attribute value escaped; empty elements self-close."""
    parts: list[str] = []
    _write(element, parts)
    return "".join(parts)


def _write(element: ET.Element, parts: list[str]) -> None:
    tag = _name(element.tag)
    parts.append(f"<{tag}" + "".join(f' {_name(key)}="{escape(value)}"' for key, value in element.attrib.items()))
    if len(element) or element.text:
        parts.append(">" + escape(element.text or ""))
        for child in element:
            _write(child, parts)
        parts.append(f"</{tag}>")
    else:
        parts.append("/>")
    parts.append(escape(element.tail or ""))


def _with_first(element: ET.Element, name: str, value: str) -> None:
    """Set attribute `name` on `element` as its first attribute (where a reader of the markup looks for it)."""
    rest = {key: item for key, item in element.attrib.items() if key != name}
    element.attrib.clear()
    element.attrib.update({name: value, **rest})


def _tidy(parent: ET.Element) -> None:
    """Drop Graphviz's ``<title>``s (the figure has its own) and collapse the blank runs the dropped comments left."""
    for child in list(parent):
        if _name(child.tag) == "title":
            parent.remove(child)
            continue
        _tidy(child)
        if child.tail is not None and not child.tail.strip():
            child.tail = "\n"
    if len(parent) and parent.text is not None and not parent.text.strip():
        parent.text = "\n"


def _colour_classes(root: ET.Element) -> None:
    """Give each text, fill and stroke drawn in a colour of `COLOURS` its role's class.

    ``gg-t-{role}`` on a text, ``gg-f-{role}`` / ``gg-s-{role}`` on a shape, which the stylesheet maps to the
    palette's colour.
    """
    for element in root.iter():
        tag = _name(element.tag)
        if tag == "text":
            role = _ROLES.get(element.get("fill", "").lower())
            classes = [f"gg-t-{role}"] if role else []
        elif tag in _SHAPES:
            found = ((key, _ROLES.get(colour.lower())) for key, colour in element.attrib.items())
            classes = [f"gg-{key[0]}-{role}" for key, role in found if key in ("fill", "stroke") and role]
        else:
            continue
        if classes:
            _with_first(element, "class", " ".join(classes))


def _annotate(
    root: ET.Element,
    element_attrs: Mapping[str, Mapping[str, object]],
    text_ids: Mapping[str, Sequence[tuple[str, str]]],
) -> None:
    """Add ``data-gg-*`` attributes (and a tooltip for a cut label) to each ``<g>`` named in `element_attrs`, and
    to each group named in `text_ids` the ids of its texts: ``(role, id)`` names the last ``gg-t-{role}`` text."""
    for group in root.iter(f"{{{SVG}}}g"):
        name = group.get("id", "")
        attrs = element_attrs.get(name)
        if attrs:
            group.attrib.update({f"data-gg-{key}": str(value) for key, value in attrs.items()})
            if len(str(attrs.get("label", ""))) > LABEL_LIMIT:
                tooltip = ET.Element("title")
                tooltip.text, tooltip.tail, group.text = str(attrs["label"]), group.text, None
                group.insert(0, tooltip)
        for role, text_id in text_ids.get(name, ()):
            texts = [text for text in group.iter(f"{{{SVG}}}text") if text.get("class") == f"gg-t-{role}"]
            if texts:
                texts[-1].attrib = {"class": f"gg-t-{role}", "id": text_id, **texts[-1].attrib}


def svg_cleanup(
    svg: str, element_attrs: ElementAttrs, title: str, prefix: str, *, text_ids: TextIds | None = None
) -> tuple[str, float]:
    """Graphviz's SVG made inline-ready, and its natural width in CSS pixels.

    Drops the prolog, comments and Graphviz's ``<title>``s, sizes by viewBox only, renames ``graph0`` to
    ``{prefix}-graph`` (unique on a page), turns the colours of `COLOURS` into classes, adds
    ``data-gg-*`` attributes to the ``<g>`` elements named in `element_attrs` and the ids of `text_ids` to
    their texts, and titles the drawing `title`.

    Raises:
        ValueError: if `svg` is not an SVG sized in points (not Graphviz's).
    """
    root = ET.fromstring(svg)
    width, height = root.attrib.pop("width", ""), root.attrib.pop("height", "")
    if _name(root.tag) != "svg" or not width.endswith("pt") or not height.endswith("pt"):
        raise ValueError("unexpected Graphviz SVG header")
    width_px = float(width[:-2]) * 4 / 3  # Graphviz sizes in points; CSS pixels are 3/4 pt
    root.attrib = {"role": "img", "class": "gg-svg", **root.attrib, "xmlns": SVG, "xmlns:xlink": XLINK}
    _tidy(root)
    graph = root.find(f"{{{SVG}}}g[@id='graph0']")
    if graph is not None:
        graph.set("id", f"{prefix}-graph")
    _colour_classes(root)
    _annotate(root, element_attrs, text_ids or {})
    heading = ET.Element("title")
    heading.text, heading.tail, root.text = title, root.text, None
    root.insert(0, heading)
    return write(root), width_px
