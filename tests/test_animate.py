"""The animation frames are the engine's own traces, addressed to ids that exist in the figure,
and the embedded JSON cannot break out of its script element."""

from __future__ import annotations

import json
import math
import re
from html.parser import HTMLParser

import pytest

pytest.importorskip("graphviz")

from glassgrad import Value, backward, dependency_safe_order, trace_dependency_safe_order  # noqa: E402
from glassgrad.examples import linear_loss, sigmoid_neuron  # noqa: E402
from glassgrad.viz import draw_graph, fmt  # noqa: E402
from glassgrad.viz.animate import (  # noqa: E402
    animate_backward,
    animate_order,
    frames_json,
    script_text,
    side_by_side,
)


def shared_graph() -> Value:
    """A graph where one value feeds two operations and one operation uses a value twice (w * w)."""
    w, x = Value(2.0, "w"), Value(3.0, "x")
    r = w * w
    r.label = "r"
    a = r + x
    a.label = "a"
    L = a * r
    L.label = "L"
    return L


GRAPHS = {
    "linear": lambda: linear_loss()["L"],
    "fused": lambda: sigmoid_neuron(True)["L"],
    "atomic": lambda: sigmoid_neuron(False)["L"],
    "shared": shared_graph,
}


class ScriptReader(HTMLParser):
    """Collects element ids and the text of every JSON script, as a browser's parser splits them."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.json_scripts: list[str] = []
        self._in_json = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if "id" in attributes:
            self.ids.add(attributes["id"] or "")
        self._in_json = tag == "script" and attributes.get("type") == "application/json"
        if self._in_json:
            self.json_scripts.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_json = False

    def handle_data(self, data: str) -> None:
        if self._in_json:
            self.json_scripts[-1] += data


def parse(html: str) -> ScriptReader:
    reader = ScriptReader()
    reader.feed(html)
    reader.close()
    return reader


@pytest.mark.parametrize("name", GRAPHS)
def test_order_frames_replay_the_engine_trace(name: str) -> None:
    root = GRAPHS[name]()
    player = animate_order(root)
    frames = player.data["frames"]
    events = trace_dependency_safe_order(root)
    ids = {node: f"{player_prefix(player)}-node-{i}" for i, node in enumerate(dependency_safe_order(root))}

    assert [f["event"] for f in frames] == ["start", *[e.kind for e in events], "reverse"]
    assert [(f["node"], f["depth"]) for f in frames[1:-1]] == [(ids[e.node], e.depth) for e in events]
    order = [ids[node] for node in dependency_safe_order(root)]
    assert frames[-1]["order"] == order
    for frame, event in zip(frames[1:-1], events):
        if event.kind == "enter":
            assert frame["path"][-1] == ids[event.node] and len(frame["path"]) == event.depth + 1
        elif event.kind == "append":
            assert frame["order"][-1] == ids[event.node] and len(frame["path"]) == event.depth
        else:
            assert ids[event.node] in frame["order"] and ids[event.node] not in frame["path"]
        # The highlighted edge is a stored link from the innermost open visit to this node.
        if event.kind != "append" and event.depth > 0:
            edge = frame["edges"][0]
            i, k = map(int, edge.rsplit("-", 2)[1:])
            output = dependency_safe_order(root)[i]
            assert output.parents[k].value is event.node
            assert ids[output] == frame["path"][event.depth - 1 if event.kind == "enter" else -1]


def player_prefix(player) -> str:
    return re.search(r'data-gg-prefix="([^"]+)"', str(player)).group(1)


def test_the_shared_graph_has_skips_and_both_w_links() -> None:
    root = shared_graph()
    frames = animate_order(root).data["frames"]
    skipped = [f for f in frames if f["event"] == "skip"]
    assert len(skipped) == sum(1 for e in trace_dependency_safe_order(root) if e.kind == "skip") >= 2
    assert all("already in the list" in f["text"] for f in skipped)


@pytest.mark.parametrize("name", GRAPHS)
def test_backward_frames_replay_the_engine_steps(name: str) -> None:
    root = GRAPHS[name]()
    steps = backward(root)
    player = animate_backward(root, steps)
    frames = player.data["frames"]
    order = dependency_safe_order(root)
    ids = {node: f"{player_prefix(player)}-node-{i}" for i, node in enumerate(order)}

    assert [f["event"] for f in frames] == ["start", "seed", *["step"] * len(steps)]
    assert set(frames[0]["grads"].values()) == {"—"}
    assert frames[1]["grads"][ids[root]] == "1"
    for number, (frame, step) in enumerate(zip(frames[2:], steps), start=1):
        assert frame["step"] == number
        assert (frame["output"], frame["parent"]) == (ids[step.output], ids[step.parent])
        numbers = (step.upstream, step.local, step.contribution, step.before, step.after)
        assert [frame[key] for key in ("upstream", "local", "contribution", "before", "after")] == [fmt(n) for n in numbers]
        assert frame["exact"] == list(numbers)
        assert frame["grads"] == {ids[step.parent]: fmt(step.after)}
    # Folding the per-frame grads, as the script does, ends on every node's gradient.
    shown: dict[str, str] = {}
    for frame in frames:
        shown.update(frame["grads"])
    assert shown == {ids[node]: fmt(node.grad) for node in order}


@pytest.mark.parametrize("make", [animate_order, animate_backward])
@pytest.mark.parametrize("name", GRAPHS)
def test_every_frame_id_exists_in_the_figure(make, name: str) -> None:
    player = make(GRAPHS[name]())
    page = parse(str(player))
    referenced = set()
    for frame in player.data["frames"]:
        referenced.update(filter(None, [frame.get("node"), frame.get("edge"), frame.get("output"), frame.get("parent")]))
        referenced.update(frame.get("edges", []), frame.get("path", []), frame.get("grads", {}))
    assert referenced and referenced <= page.ids
    assert json.loads(page.json_scripts[0]) == player.data


def test_backward_steps_are_checked_against_the_root() -> None:
    nodes = linear_loss()
    steps = backward(nodes["L"])
    with pytest.raises(ValueError, match="not root"):
        animate_backward(nodes["e"], steps)
    other = sigmoid_neuron(True)["L"]
    with pytest.raises(ValueError):
        animate_backward(other, backward(sigmoid_neuron(False)["L"]))


def test_labels_cannot_close_the_script_element() -> None:
    hostile = "</script><script>alert(1)</script><!--\u2028\u2029&amp;"
    w, x = Value(2.0, hostile), Value(3.0, "x")
    L = w * x
    L.label = "L"
    for player in (animate_order(L), animate_backward(L)):
        html = str(player)
        payload = html[html.index('class="gg-frames">') :]
        assert payload.count("</script") == 1  # only the element's own end tag
        assert not re.search("[<>&\u2028\u2029]", payload[len('class="gg-frames">') : payload.index("</script")])
        page = parse(html)
        assert len(page.json_scripts) == 1
        assert json.loads(page.json_scripts[0]) == player.data
        assert hostile in player.data["labels"].values()
        assert "<script>alert" not in html


def test_frames_json_round_trips_and_refuses_nan() -> None:
    data = {"text": "a < b && c > d \u2028 \u2029", "n": [0.1, -0.0, 1e-300]}
    text = frames_json(data)
    assert json.loads(text) == data and not re.search("[<>&\u2028\u2029]", text)
    with pytest.raises(ValueError):
        frames_json({"n": math.nan})


def test_non_finite_gradients_are_named_not_dropped() -> None:
    x = Value(0.0, "x")
    L = x.log()
    L.label = "L"
    steps = backward(L)
    frame = animate_backward(L, steps).data["frames"][-1]
    assert frame["exact"][1] == repr(steps[0].local) == "inf"
    assert frame["local"] == fmt(steps[0].local)


def figure_ids(html: str) -> set[str]:
    """The ids `draw_graph` assigns (its prefix scheme), leaving out Graphviz's own ``graph0``."""
    return {element_id for element_id in parse(html).ids if element_id.startswith("gg")}


def test_players_are_deterministic_and_do_not_collide_with_draw_graph() -> None:
    first, second = animate_order(linear_loss()["L"]), animate_order(linear_loss()["L"])
    assert str(first) == str(second)
    plain = draw_graph(linear_loss()["L"], show_grad=False)
    assert not figure_ids(str(first)) & figure_ids(str(plain))
    L = linear_loss()["L"]
    backward(L)
    assert not figure_ids(str(animate_backward(L))) & figure_ids(str(draw_graph(L)))


def test_static_html_is_complete_without_javascript() -> None:
    root = linear_loss()["L"]
    order_html = str(animate_order(root))
    names = [node.label for node in dependency_safe_order(root)]
    chips = re.findall(r'<span class="gg-chip" data-gg-node="[^"]+">([^<]+)</span>', order_html)
    assert chips == names + names[::-1]
    steps = backward(root)
    backward_html = str(animate_backward(root, steps))
    assert len(re.findall(r'<li class="gg-step[^"]*" data-gg-step="', backward_html)) == len(steps)
    # Controls and the card appear only once the script runs.
    assert re.search(r'class="gg-player-controls"[^>]*hidden', backward_html)
    assert re.search(r'class="gg-player-card" hidden', backward_html)


def test_jupyter_display_inlines_the_script_once_per_fragment() -> None:
    root = linear_loss()["L"]
    pair = side_by_side(animate_order(root), animate_backward(root))
    html = pair._repr_html_()
    assert html.count("<script>") == 1 and "window.glassgrad" in html
    assert str(pair).count("<script>") == 0  # the site links the script instead
    assert "</" not in script_text()
    assert [player["kind"] for player in pair.data["players"]] == ["order", "backward"]


def test_backward_player_without_trace_keeps_graph_and_card_only() -> None:
    root = linear_loss()["L"]
    steps = backward(root)
    html = str(animate_backward(root, steps, trace=False, min_width=900))
    assert "gg-player-trace" not in html and 'data-gg-step="' not in html
    assert "min-width:900px" in html and 'class="gg-player-card" hidden' in html
    assert html != str(animate_backward(root, steps, trace=False))  # another width, other ids
