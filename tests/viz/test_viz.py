"""glassgrad.viz: the produced SVG/HTML is parsed and checked against the live objects it draws."""

from __future__ import annotations

import inspect
import re
import xml.etree.ElementTree as ET

import pytest

pytest.importorskip("graphviz")

from glassgrad import Value, backward, multiply
from glassgrad.autograd import dependency_safe_order
from glassgrad.examples import linear_loss, sigmoid_neuron
from glassgrad.viz import (
    GraphFigure,
    GraphIds,
    HtmlFragment,
    animate_order,
    draw_graph,
    escape,
    fmt,
    legend,
    order_violations,
    show_backward_steps,
    show_complete_state,
    show_dependency_order,
    show_order_walk,
    show_parent_link,
    stylesheet,
)

SVG = "{http://www.w3.org/2000/svg}"
HOSTILE = "<script>alert(1)</script> & \"q\" 'x'"


def parse(fragment: HtmlFragment) -> ET.Element:
    """Parse a fragment as XML: every renderer must emit well-formed markup."""
    return ET.fromstring(str(fragment))


def text_of(element: ET.Element) -> str:
    return "".join(element.itertext())


def by_id(root: ET.Element) -> dict[str, ET.Element]:
    return {element.get("id"): element for element in root.iter() if element.get("id") is not None}


def texts(group: ET.Element, css_class: str) -> list[str]:
    return [text_of(t) for t in group.iter(f"{SVG}text") if css_class in (t.get("class") or "").split()]


def edge_label(group: ET.Element) -> str:
    """An edge's label as read: its lines (a left-to-right drawing breaks it before "="), spaces trimmed, joined."""
    return " ".join(text.strip() for text in texts(group, "gg-t-local"))


@pytest.fixture
def linear():
    nodes = linear_loss()
    steps = backward(nodes["L"])
    return nodes, steps


# --- the fragment type ---------------------------------------------------------------------------


def test_every_renderer_returns_a_fragment_whose_repr_html_is_its_str(linear):
    nodes, steps = linear
    figure = draw_graph(nodes["L"])
    fragments = [
        figure,
        show_backward_steps(steps, graph=figure),
        show_complete_state(nodes["L"]),
        show_parent_link(nodes["m"]),
        show_dependency_order(nodes["L"], dependency_safe_order(nodes["L"])),
        show_order_walk(nodes["m"]),
        legend(),
        stylesheet(),
    ]
    for fragment in fragments:
        assert isinstance(fragment, HtmlFragment)
        assert fragment._repr_html_() == str(fragment) == fragment.__html__()
        assert str(fragment).strip()


def test_legend_names_the_four_roles_in_order():
    items = parse(legend()).findall("li")
    assert [item.get("data-gg-role") for item in items] == ["upstream", "local", "contribution", "grad"]
    assert "edge contribution" in text_of(items[2]) and "gradient" in text_of(items[3])


def test_escape_escapes_quotes_too():
    assert escape(HOSTILE) == "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;q&quot; &#x27;x&#x27;"


# --- draw_graph ------------------------------------------------------------------------------------


def test_graph_ids_are_unique_and_follow_the_documented_scheme(linear):
    nodes, _ = linear
    root = nodes["L"]
    figure = draw_graph(root, id_prefix="fig")
    ids = [element.get("id") for element in parse(figure).iter() if element.get("id") is not None]
    assert len(ids) == len(set(ids)), "duplicate ids"
    order = dependency_safe_order(root)
    expected = {"fig", "fig-graph"}
    for i, node in enumerate(order):
        expected |= {f"fig-node-{i}", f"fig-node-{i}-data", f"fig-node-{i}-grad"}
        if node.parents:
            expected |= {f"fig-op-{i}", f"fig-out-{i}"} | {f"fig-edge-{i}-{k}" for k in range(len(node.parents))}
            expected |= {f"fig-edge-{i}-{k}-local" for k in range(len(node.parents))}
    assert set(ids) == expected
    # Each number has its own text: the data's, the grad's and the last line of each edge label.
    texts = {element.get("id"): "".join(element.itertext()) for element in parse(figure).iter(f"{SVG}text")}
    w = order.index(nodes["w"])
    assert texts[f"fig-node-{w}-data"] == fmt(nodes["w"].data)
    assert texts[f"fig-node-{w}-grad"] == f"grad {fmt(nodes['w'].grad)}"
    m = order.index(nodes["m"])
    assert texts[f"fig-edge-{m}-1-local"].endswith(fmt(nodes["m"].parents[1].local_grad))
    # The mapping exposed on the figure and computed without drawing agrees with the SVG.
    mapping = GraphIds(root, "fig")
    assert figure.prefix == "fig" and isinstance(figure, GraphFigure)
    for i, node in enumerate(order):
        assert figure.ids.node_id(node) == mapping.node_id(node) == f"fig-node-{i}"
    assert figure.ids.edge_id(nodes["m"], 1) == f"fig-edge-{order.index(nodes['m'])}-1"
    with pytest.raises(IndexError):
        figure.ids.edge_id(nodes["m"], 2)


def test_graph_data_attributes_describe_each_element(linear):
    nodes, _ = linear
    figure = draw_graph(nodes["L"], id_prefix="p")
    elements = by_id(parse(figure))
    order = dependency_safe_order(nodes["L"])
    for i, node in enumerate(order):
        box = elements[f"p-node-{i}"]
        assert box.get("data-gg-index") == str(i) and box.get("data-gg-label") == node.label
        for k, link in enumerate(node.parents):
            edge = elements[f"p-edge-{i}-{k}"]
            assert edge.get("data-gg-output") == str(i)
            assert edge.get("data-gg-parent") == str(order.index(link.value))
            assert edge.get("data-gg-link") == str(k)
            assert float(edge.get("data-gg-local")) == link.local_grad


def test_edge_labels_are_the_live_local_gradients():
    nodes = sigmoid_neuron(False)
    backward(nodes["L"])
    figure = draw_graph(nodes["L"], id_prefix="s")
    elements = by_id(parse(figure))
    order = dependency_safe_order(nodes["L"])
    checked = 0
    for i, node in enumerate(order):
        for k, link in enumerate(node.parents):
            label = edge_label(elements[f"s-edge-{i}-{k}"])
            assert label == f"∂{node.label}/∂{link.value.label} = {link.local_grad:g}"
            checked += 1
    assert checked == len(backward(nodes["L"])) == 11


def test_bare_edges_keep_their_ids_and_local_gradients_but_no_label_and_make_a_smaller_drawing():
    nodes = sigmoid_neuron(False)
    backward(nodes["L"])
    labelled, bare = draw_graph(nodes["L"], id_prefix="s"), draw_graph(nodes["L"], id_prefix="s", edge_labels=False)
    elements = by_id(parse(bare))
    order = dependency_safe_order(nodes["L"])
    for i, node in enumerate(order):
        for k, link in enumerate(node.parents):
            edge = elements[f"s-edge-{i}-{k}"]
            assert edge_label(edge) == "" and not list(edge.iter(f"{SVG}text"))
            assert float(edge.get("data-gg-local")) == link.local_grad
    assert texts(parse(bare), "gg-t-value") == texts(parse(labelled), "gg-t-value")
    assert bare.natural < labelled.natural


def test_value_boxes_show_data_and_grad_or_a_dash_before_backward(linear):
    nodes, _ = linear
    after = by_id(parse(draw_graph(nodes["L"], id_prefix="a")))
    before = by_id(parse(draw_graph(nodes["L"], show_grad=False, id_prefix="b")))
    for i, node in enumerate(dependency_safe_order(nodes["L"])):
        assert texts(after[f"a-node-{i}"], "gg-t-label") == [node.label]
        assert texts(after[f"a-node-{i}"], "gg-t-value") == [fmt(node.data)]
        assert texts(after[f"a-node-{i}"], "gg-t-grad") == [f"grad {node.grad:g}"]
        assert texts(before[f"b-node-{i}"], "gg-t-grad") == []
        assert "grad —" in text_of(before[f"b-node-{i}"])
    assert nodes["w"].grad == -18.0  # the boxes above showed the engine's real gradient


def test_op_circles_show_the_op_symbol(linear):
    nodes, _ = linear
    elements = by_id(parse(draw_graph(nodes["L"], id_prefix="o")))
    order = dependency_safe_order(nodes["L"])
    for i, node in enumerate(order):
        if node.parents:
            assert text_of(elements[f"o-op-{i}"]).strip() == node.op
            assert elements[f"o-op-{i}"].get("data-gg-op") == node.op


def test_unlabelled_values_get_a_caption():
    w = Value(2.0, "w")
    out = (w * 3.0 + 1.0).tanh()  # unlabelled constants and results
    backward(out)
    figure = draw_graph(out, id_prefix="u")
    elements = by_id(parse(figure))
    order = dependency_safe_order(out)
    for i, node in enumerate(order):
        caption = texts(elements[f"u-node-{i}"], "gg-t-label")
        assert caption == [node.label or (fmt(node.data) if not node.parents else f"v{i}")]
        assert caption != [""]


def test_svg_is_inline_ready_and_scrolls_sideways(linear):
    nodes, _ = linear
    html = str(draw_graph(nodes["L"]))
    assert "<?xml" not in html and "<!DOCTYPE" not in html and "<!--" not in html
    svg = parse(draw_graph(nodes["L"])).find(f".//{SVG}svg")
    assert svg.get("width") is None and svg.get("height") is None and svg.get("viewBox")
    assert re.search(r"width:100%;height:auto;min-width:\d+px;max-width:\d+px", svg.get("style"))
    assert 'class="gg-scroll" style="overflow-x:auto"' in html
    wide = parse(draw_graph(nodes["L"], min_width=1234)).find(f".//{SVG}svg")
    assert "min-width:1234px" in wide.get("style")
    # No colour is fixed where CSS cannot reach it: every coloured text or shape has a class.
    for text in svg.iter(f"{SVG}text"):
        assert text.get("fill") is None or text.get("class"), ET.tostring(text)


@pytest.mark.parametrize("renderer", ["draw_graph", "show_parent_link"])
def test_every_coloured_shape_has_a_palette_class(linear, renderer):
    nodes, _ = linear
    fragment = draw_graph(nodes["L"]) if renderer == "draw_graph" else show_parent_link(nodes["m"])
    shapes = [el for el in parse(fragment).iter() if el.tag.rsplit("}", 1)[-1] in ("path", "polygon", "ellipse")]
    assert shapes
    for shape in shapes:
        coloured = [c for c in (shape.get("fill"), shape.get("stroke")) if c and c.startswith("#")]
        if coloured:
            classes = (shape.get("class") or "").split()
            assert len(classes) == len(coloured), ET.tostring(shape)
            assert all(re.fullmatch(r"gg-[fs]-[a-z]+", css) for css in classes)


def test_graph_output_is_deterministic_and_prefixes_differ_by_content(linear):
    nodes, _ = linear
    first = str(draw_graph(nodes["L"]))
    assert str(draw_graph(nodes["L"])) == first
    rebuilt = linear_loss()
    backward(rebuilt["L"])
    assert str(draw_graph(rebuilt["L"])) == first  # same content, new objects: same bytes
    before = draw_graph(rebuilt["L"], show_grad=False)
    other = linear_loss(w=4.0)
    backward(other["L"])
    prefixes = {draw_graph(nodes["L"]).prefix, before.prefix, draw_graph(other["L"]).prefix}
    assert len(prefixes) == 3


def test_every_option_of_a_drawing_gives_it_ids_of_its_own(linear):
    """Two figures of one graph on a page that differ in any option have different ids; the same options, the same."""
    nodes, _ = linear
    other = {  # one other value for each option of draw_graph: a new option must be added here
        "show_grad": False,
        "min_width": 200,
        "caption_text": "a caption",
        "max_values": 100,
        "max_links": 100,
        "max_layout": 1000,
        "rankdir": "TB",
        "mark": [nodes["m"]],
        "mark_label": "a frame",
        "wrong_edges": [(nodes["m"], 0)],
        "tangents": {nodes["w"]: 1.0},
        "edge_labels": False,
    }
    # The backend (render) draws the same figure: it keeps the ids.
    options = [name for name in inspect.signature(draw_graph).parameters if name not in ("root", "id_prefix", "render")]
    assert sorted(other) == sorted(options)
    plain = draw_graph(nodes["L"]).prefix
    prefixes = {name: draw_graph(nodes["L"], **{name: value}).prefix for name, value in other.items()}
    assert plain not in prefixes.values() and len(set(prefixes.values())) == len(prefixes), prefixes

    def player_prefix(**options: object) -> str:
        return re.search(r'id="([\w-]+)-player"', str(animate_order(nodes["L"], **options))).group(1)

    player = {"title": "another title", "min_width": 200, "max_values": 50, "rankdir": "TB"}
    assert sorted(player) == sorted(set(inspect.signature(animate_order).parameters) - {"root", "id_prefix"})
    assert (
        len({player_prefix(), *(player_prefix(**{name: value}) for name, value in player.items())}) == len(player) + 1
    )
    assert draw_graph(nodes["L"], id_prefix="forced").prefix == "forced"
    with pytest.raises(ValueError):
        draw_graph(nodes["L"], id_prefix='x" onload="alert(1)')


def test_shared_operand_draws_two_edges_into_one_op():
    w = Value(2.0, "w")
    r = multiply(w, w, "r")
    backward(r)
    elements = by_id(parse(draw_graph(r, id_prefix="sq")))
    assert edge_label(elements["sq-edge-1-0"]) == edge_label(elements["sq-edge-1-1"]) == f"∂r/∂w = {w.data:g}"
    assert texts(elements["sq-node-0"], "gg-t-grad") == [f"grad {w.grad:g}"] == ["grad 4"]


def chain_of(count: int) -> Value:
    """The last of `count` values, each the previous one plus one."""
    node = Value(0.0, "v0")
    for i in range(1, count):
        node = node + 1.0  # the constant 1.0 is a value too
        node.label = f"v{i}"
    return node


@pytest.mark.parametrize("limit", [5, 7])
def test_draw_graph_draws_exactly_max_values_and_refuses_one_more(limit):
    at_limit = chain_of((limit + 1) // 2)  # 1 + 2k values: k sums, each with its constant
    assert len(dependency_safe_order(at_limit)) == limit
    drawn = parse(draw_graph(at_limit, max_values=limit, id_prefix="m"))
    assert len([e for e in drawn.iter() if (e.get("id") or "").endswith("-grad")]) == limit
    with pytest.raises(ValueError, match=rf"has more than {limit - 1} values \(max_values={limit - 1}\)"):
        draw_graph(at_limit, max_values=limit - 1)


def test_a_label_of_40_characters_is_shown_whole_and_one_of_41_is_cut():
    whole, cut = "w" * 39 + "!", "x" * 40 + "?"  # 40 and 41 characters
    out = multiply(Value(2.0, whole), Value(3.0, cut), "out")
    backward(out)
    figure = parse(draw_graph(out, id_prefix="t"))
    elements = by_id(figure)
    order = dependency_safe_order(out)
    assert texts(elements[f"t-node-{order.index(out.parents[0].value)}"], "gg-t-label") == [whole]
    assert texts(elements[f"t-node-{order.index(out.parents[1].value)}"], "gg-t-label") == ["x" * 39 + "…"]
    tooltips = [text_of(title) for title in figure.iter(f"{SVG}title")]
    assert cut in tooltips and whole not in tooltips  # only a cut label has its whole text as a tooltip
    assert [edge_label(elements[f"t-edge-{order.index(out)}-{k}"]) for k in (0, 1)] == [
        f"∂out/∂{whole} = 3",
        f"∂out/∂{'x' * 39}… = 2",
    ]


# --- show_backward_steps ---------------------------------------------------------------------------


def test_trace_has_the_seed_and_one_card_per_step_with_live_numbers(linear):
    nodes, steps = linear
    trace = parse(show_backward_steps(steps))
    seed = trace.find("p")
    assert text_of(seed) == "Seed: L.grad = ∂L/∂L = 1"
    cards = trace.findall("ol/li")
    assert len(cards) == len(steps) == 7
    for number, (card, step) in enumerate(zip(cards, steps), start=1):
        out, parent = step.output.label, step.parent.label
        text = text_of(card)
        assert text.startswith(f"{number}.{out} → {parent}")
        assert (
            f"g{out} = {fmt(step.upstream)} × ∂{out}/∂{parent} = {fmt(step.local)} = "
            f"Δg{parent} = {fmt(step.contribution)}"
        ) in text
        assert text.endswith(f"{parent}.grad: {fmt(step.before)} → {fmt(step.after)}")
        roles = {span.get("class"): text_of(span) for span in card.iter("span")}
        assert roles["gg-contribution"].endswith(f"= {fmt(step.contribution)}")
        assert roles["gg-grad"] == fmt(step.after)


def test_trace_highlights_the_named_outputs():
    nodes = sigmoid_neuron(False)
    steps = backward(nodes["L"])
    cards = parse(show_backward_steps(steps, highlight_outputs={"s", "d", "q", "n"})).findall("ol/li")
    highlighted = [card.get("data-gg-output") for card in cards if "gg-highlight" in card.get("class").split()]
    assert highlighted == [step.output.label for step in steps if step.output.label in "sdqn"] == ["s", "d", "q", "n"]


def test_trace_cards_name_existing_graph_elements(linear):
    nodes, steps = linear
    figure = draw_graph(nodes["L"])
    ids = by_id(parse(figure))
    cards = parse(show_backward_steps(steps, graph=figure)).findall("ol/li")
    for card, step in zip(cards, steps):
        edge = ids[card.get("data-gg-edge")]
        assert edge.get("data-gg-output") == str(figure.ids.index(step.output))
        assert edge.get("data-gg-parent") == str(figure.ids.index(step.parent))
        assert float(edge.get("data-gg-local")) == step.local
        assert card.get("data-gg-parent-node") == figure.ids.node_id(step.parent)
        assert card.get("data-gg-op") in ids


def test_trace_of_w_times_w_names_both_links():
    w = Value(2.0, "w")
    r = multiply(w, w, "r")
    steps = backward(r)
    figure = draw_graph(r, id_prefix="sq")
    cards = parse(show_backward_steps(steps, graph=figure)).findall("ol/li")
    assert [card.get("data-gg-edge") for card in cards] == ["sq-edge-1-0", "sq-edge-1-1"]
    assert [text_of(card).rsplit(": ", 1)[1] for card in cards] == ["0 → 2", "2 → 4"]


# --- show_complete_state ---------------------------------------------------------------------------


def test_complete_state_lists_every_field_and_link(linear):
    nodes, _ = linear
    state = parse(show_complete_state(nodes["L"]))
    cards = state.findall("section")
    order = dependency_safe_order(nodes["L"])
    assert [card.get("data-gg-label") for card in cards] == [node.label for node in order]
    for card, node in zip(cards, order):
        text = text_of(card)
        assert f".label = {node.label!r}" in text
        assert f".data{fmt(node.data)}" in text
        assert f".grad{fmt(node.grad)} (= ∂L/∂{node.label})" in text
        assert f".op{node.op!r}" in text
        assert f".parents{len(node.parents)} saved link" in text
        if node.parents:
            for k, link in enumerate(node.parents):
                assert f".parents[{k}]ParentLink(value={link.value.label})" in text
                assert f".local_grad{fmt(link.local_grad)} (= ∂{node.label}/∂{link.value.label})" in text
        else:
            assert "input / leaf" in text and "no direct operands" in text


# --- figures ---------------------------------------------------------------------------------------


def test_parent_link_figure_uses_the_live_numbers(linear):
    nodes, _ = linear
    m, w = nodes["m"], nodes["w"]
    figure = parse(show_parent_link(m, 0, id_prefix="st"))
    update = text_of(figure.find("p"))
    assert f"upstream m.grad = {fmt(m.grad)}" in update
    assert f"local ∂m/∂w = {fmt(m.parents[0].local_grad)}" in update
    assert f"edge contribution {fmt(m.grad * m.parents[0].local_grad)}" in update
    assert w.grad == m.grad * m.parents[0].local_grad == -18.0  # the figure's product is the real update
    svg_text = re.sub(r"\s+", " ", text_of(figure))  # Graphviz writes one <text> per font run
    assert "v = m" in svg_text and "u = w" in svg_text
    assert f".local_grad {fmt(m.parents[1].local_grad)} (= ∂m/∂x)" in svg_text
    ids = by_id(figure)
    assert {"st-v", "st-u-0", "st-u-1", "st-link-0", "st-link-1"} <= set(ids)
    assert show_parent_link(m) == show_parent_link(m)
    with pytest.raises(ValueError):
        show_parent_link(w)


def test_dependency_order_figure_marks_the_violated_dependency(linear):
    nodes, _ = linear
    wrong = [nodes[name] for name in "L e y m a b x w".split()]
    assert order_violations(nodes["L"], wrong) == [(nodes["m"], nodes["a"])]
    assert order_violations(nodes["L"], dependency_safe_order(nodes["L"])[::-1]) == []
    figure = parse(show_dependency_order(nodes["L"], wrong))
    rows = {row.get("data-gg-order"): row for row in figure.findall("div")}
    chips = lambda row: [text_of(chip) for chip in row.iter("span") if "gg-chip" in chip.get("class", "")]
    assert chips(rows["dependency-first"]) == [node.label for node in dependency_safe_order(nodes["L"])]
    assert chips(rows["backward"]) == list("Leyabmxw")
    bad = [text_of(chip) for chip in rows["wrong"].iter("span") if chip.get("class") == "gg-chip gg-bad"]
    assert bad == ["m", "a"]
    assert "m is processed before a" in text_of(rows["wrong"])
    with pytest.raises(ValueError):
        show_dependency_order(nodes["L"], dependency_safe_order(nodes["L"])[::-1])
    with pytest.raises(ValueError):
        order_violations(nodes["L"], wrong[:-1])


def test_order_walk_replays_the_trace(linear):
    nodes, _ = linear
    walk = text_of(parse(show_order_walk(nodes["m"]))).splitlines()
    assert walk == [
        "visit(m):",
        "  visit(w) → w has no parents → append w",
        "  visit(x) → x has no parents → append x",
        "  both parents are in the order → append m",
    ]
    w = Value(2.0, "w")
    r = multiply(w, w, "r")
    assert "  w is already in the order → skip" in text_of(parse(show_order_walk(r))).splitlines()


# --- escaping --------------------------------------------------------------------------------------


def hostile_graph():
    """A graph whose every label (and one op symbol) is hostile markup."""
    u = Value(2.0, HOSTILE)
    v = Value(3.0, HOSTILE + "2")
    out = multiply(u, v, HOSTILE + "3")
    out.op = "<b>&</b>"
    backward(out)
    return u, v, out


RENDERERS = {  # each draws the hostile graph (u, v, out); nothing is drawn before a test runs
    "draw_graph": lambda u, v, out: draw_graph(out),
    "draw_graph caption": lambda u, v, out: draw_graph(out, caption_text=HOSTILE),
    "show_backward_steps": lambda u, v, out: show_backward_steps(
        backward(out), highlight_outputs={HOSTILE + "3"}, graph=draw_graph(out)
    ),
    "show_complete_state": lambda u, v, out: show_complete_state(out),
    "show_parent_link": lambda u, v, out: show_parent_link(out),
    "show_dependency_order": lambda u, v, out: show_dependency_order(out, [u, out, v]),
    "show_order_walk": lambda u, v, out: show_order_walk(out),
}


@pytest.mark.parametrize("name", list(RENDERERS))
def test_hostile_labels_show_as_text_in_every_renderer(name):
    fragment = RENDERERS[name](*hostile_graph())
    html = str(fragment)
    assert "<script" not in html and "<b>&" not in html
    root = parse(fragment)  # still well-formed: nothing broke out of a text node or attribute
    assert not [element for element in root.iter() if element.tag.rsplit("}", 1)[-1] in ("script", "b")]
    shown = text_of(root) + " ".join(value for element in root.iter() for value in element.attrib.values())
    assert HOSTILE in shown
