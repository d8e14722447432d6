# Turn a TorchGraph into boxes and arrows for glassgrad.viz.boxes, and tabulate it against glassgrad.
from glassgrad import dependency_safe_order
from glassgrad.torch_graph import FREED, walk
from glassgrad.viz.boxes import Arrow, Box, draw_boxes
from glassgrad.viz.html import escape, fmt


def shown(value):
    """A saved value as text: numbers in the tutorial's format."""
    if value is FREED:
        return "freed"
    if value is None:
        return "None (not needed)"
    if isinstance(value, float):
        return fmt(value)
    return str(value)


def torch_boxes(graph):
    """One box per PyTorch node: its class, what it produces, what it saved."""
    edges_from = {node.id: 0 for node in graph.nodes}
    for edge in graph.edges:
        edges_from[edge.output] += 1
    boxes = []
    for node in graph.nodes:
        lines = [(node.kind, "label")]
        if node.variable is not None:
            name = f"{node.label} " if node.label else ""
            lines.append((f"leaf {name}= {fmt(node.variable.item())}", "value"))
        elif node.label:
            lines.append((f"produces {node.label}", "value"))
        lines += [(f"saved {name} = {shown(value)}", "local") for name, value in node.saved]
        no_grad = node.inputs - edges_from[node.id]
        if no_grad:
            lines.append((f"+{no_grad} input{'s' * (no_grad > 1)} without grad", "data"))
        css = "gg-value gg-leaf" if node.variable is not None else "gg-value"
        boxes.append(Box(node.id, tuple(lines), css))
    return boxes


def draw_torch(graph, prefix, caption):
    """PyTorch's graph, leaves on top and the loss at the bottom, as draw_graph(..., rankdir="TB") draws
    glassgrad's; each arrow is one next_functions entry, pointing the way the gradient travels."""
    arrows = [Arrow(edge.parent, edge.output, f"[{edge.slot}]") for edge in graph.edges]
    title = f"PyTorch's backward graph: {len(graph.nodes)} nodes"
    return draw_boxes(torch_boxes(graph), arrows, title=title, id_prefix=prefix,
                      caption_text=caption, rankdir="TB", arrowheads_back=True)


def correspondence(glassgrad_nodes, graph):
    """Rows (name, glassgrad op, links, PyTorch node, next_functions entries, saved) per named value."""
    rows = []
    for name, value in glassgrad_nodes.items():
        node = graph.node(name)
        links = len(value.parents)
        entries = len(graph.parents(node.id))
        saved = ", ".join(f"{key} = {shown(item)}" for key, item in node.saved)
        rows.append((name, value.op or "leaf", links, node.kind, entries, saved))
    return rows


def correspondence_table(glassgrad_nodes, graph):
    """The rows of `correspondence` as a Markdown table."""
    lines = ["| value | glassgrad op · links | PyTorch node · edges | what PyTorch saved |",
             "| --- | --- | --- | --- |"]
    for name, op, links, kind, entries, saved in correspondence(glassgrad_nodes, graph):
        lines.append(f"| `{escape(name)}` | {escape(op)} · {links} | `{escape(kind)}` · {entries} | "
                     f"{escape(saved) or '—'} |")
    return "\n".join(lines)
