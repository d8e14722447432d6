"""The animation frames are the engine's own traces, addressed to ids that exist in the figure,
and the embedded JSON cannot break out of its script element."""

from __future__ import annotations

import json
import math
import re

import pytest

pytest.importorskip("graphviz")

from graphs import GRAPHS, replay, shared_graph  # noqa: E402
from helpers import parse  # noqa: E402

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


def marked(marks: dict[str, set[str]], css: str, kind: str = "-node-") -> list[str]:
    return sorted(i for i, classes in marks.items() if css in classes and kind in i)


def player_prefix(player) -> str:
    return re.search(r'data-gg-prefix="([^"]+)"', str(player)).group(1)


@pytest.mark.parametrize("name", GRAPHS)
def test_order_frames_replay_the_engine_trace(name: str) -> None:
    root = GRAPHS[name]()
    player = animate_order(root)
    p = player_prefix(player)
    order = dependency_safe_order(root)
    ids = {node: f"{p}-node-{i}" for i, node in enumerate(order)}
    events = trace_dependency_safe_order(root)
    states = replay(player.data)
    assert len(states) == len(events) + 2
    path: list[Value] = []
    done: list[Value] = []
    for (marks, texts), event in zip(states[1:-1], events):
        if event.kind == "enter":
            path.append(event.node)
        elif event.kind == "append":
            path.pop()
            done.append(event.node)
        for kind, css in (("enter", "gg-current"), ("skip", "gg-skipped"), ("append", "gg-appended")):
            assert marked(marks, css) == ([ids[event.node]] if event.kind == kind else [])
        assert marked(marks, "gg-on-path") == sorted(ids[node] for node in path)
        assert marked(marks, "gg-done") == sorted(ids[node] for node in done)
        shown = [j for j in range(len(order)) if "gg-pending" not in marks.get(f"{p}-order-{j}", set())]
        assert shown == list(range(len(done))) and order[: len(done)] == done
        assert texts[f"{p}-path"] == (" → ".join(node.label for node in path) or "none")
        # The highlighted edge is a stored link from the innermost open visit to this node.
        edges = marked(marks, "gg-active", "-edge-")
        if event.kind != "append" and event.depth > 0:
            output = path[event.depth - 1]
            i, k = map(int, edges[0].rsplit("-", 2)[1:])
            assert edges == [f"{p}-edge-{order.index(output)}-{k}"] and output.parents[k].value is event.node
            assert marked(marks, "gg-active", "-op-") == [f"{p}-op-{order.index(output)}"]
        else:
            assert edges == []
    schedule = states[-1][0]
    assert not any("gg-pending" in classes for classes in schedule.values())
    assert all("gg-pending" in states[-2][0][f"{p}-schedule-{j}"] for j in range(len(order)))


def test_the_shared_graph_has_skips_and_both_w_links() -> None:
    root = shared_graph()
    frames = animate_order(root).data["frames"]
    skipped = [f for f in frames if "already in the list" in f["text"]]
    assert len(skipped) == sum(1 for e in trace_dependency_safe_order(root) if e.kind == "skip") >= 2


@pytest.mark.parametrize("name", GRAPHS)
def test_backward_frames_replay_the_engine_steps(name: str) -> None:
    root = GRAPHS[name]()
    steps = backward(root)
    player = animate_backward(root, steps)
    p = player_prefix(player)
    order = dependency_safe_order(root)
    ids = {node: f"{p}-node-{i}" for i, node in enumerate(order)}
    states = replay(player.data)
    assert len(states) == len(steps) + 2
    assert {texts[ids[node] + "-grad"] for node in order for texts in [states[0][1]]} == {"grad —"}
    assert marked(states[1][0], "gg-current") == [ids[root]] and states[1][1][ids[root] + "-grad"] == "grad 1"
    assert marked(states[1][0], "gg-current", "-step-") == [f"{p}-step-0"]
    used: dict[Value, int] = {}
    for number, ((marks, texts), step) in enumerate(zip(states[2:], steps), start=1):
        k = used.get(step.output, 0)
        used[step.output] = k + 1
        assert marked(marks, "gg-active", "-edge-") == [f"{p}-edge-{order.index(step.output)}-{k}"]
        assert marked(marks, "gg-current") == [ids[step.output]] and marked(marks, "gg-appended") == [ids[step.parent]]
        assert marked(marks, "gg-current", "-step-") == [f"{p}-step-{number}"] and "gg-shown" in marks[f"{p}-card"]
        card = re.sub("<[^>]+>", "", texts[f"{p}-card"])
        upstream, local, contribution, before, after = (
            fmt(x) for x in (step.upstream, step.local, step.contribution, step.before, step.after)
        )
        assert f"{number}.{step.output.label} → {step.parent.label}" in card
        assert (
            f"= {upstream} ×" in card
            and f"= {local} =" in card
            and f"= {contribution}" in card
            and f"{before} → {after}" in card
        )
    # The grads shown at the end are every node's gradient.
    assert {node: states[-1][1][ids[node] + "-grad"] for node in order} == {
        node: f"grad {fmt(node.grad)}" for node in order
    }


@pytest.mark.parametrize("make", [animate_order, animate_backward, lambda root: animate_backward(root, trace=False)])
@pytest.mark.parametrize("name", GRAPHS)
def test_every_frame_id_exists_in_the_figure(make, name: str) -> None:
    player = make(GRAPHS[name]())
    page = parse(str(player))
    referenced = set()
    for frame in player.data["frames"]:
        referenced.update(frame["marks"], frame["texts"], filter(None, [frame["focus"]]))
    assert referenced and referenced <= set(page.ids)
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
    hostile = "</script><script>alert(1)<!--\u2028\u2029&amp;"  # within the 40 characters figures show
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
        assert any(hostile in frame["text"] for frame in player.data["frames"])
        assert "<script>alert" not in html


def test_frames_json_round_trips_and_refuses_nan() -> None:
    data = {"text": "a < b && c > d \u2028 \u2029", "n": [0.1, -0.0, 1e-300]}
    text = frames_json(data)
    assert json.loads(text) == data and not re.search("[<>&\u2028\u2029]", text)
    with pytest.raises(ValueError):
        frames_json({"n": math.nan})


def test_non_finite_gradients_are_shown_not_dropped() -> None:
    x = Value(0.0, "x")
    L = x.log()
    L.label = "L"
    steps = backward(L)
    frame = animate_backward(L, steps).data["frames"][-1]
    assert f"= {fmt(steps[0].local)}" in frame["texts"][next(i for i in frame["texts"] if i.endswith("-card"))]
    assert f"grad {fmt(x.grad)}" in frame["texts"].values()


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
    chips = re.findall(r'<span class="gg-chip"[^>]*>([^<]+)</span>', order_html)
    assert chips == names + names[::-1]
    steps = backward(root)
    backward_html = str(animate_backward(root, steps))
    assert len(re.findall(r'<li class="gg-step[^"]*"[^>]* data-gg-step="', backward_html)) == len(steps)
    # Controls and the card appear only once the script runs.
    assert re.search(r'class="gg-player-controls[^>]*hidden', backward_html)
    assert re.search(r'class="gg-player-card[^"]*"[^>]* hidden', backward_html)


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
    assert "min-width:900px" in html and re.search(r'class="gg-player-card[^"]*"[^>]* hidden', html)
    assert html != str(animate_backward(root, steps, trace=False))  # another width, other ids
