# State tables: glassgrad and PyTorch side by side after each event, asserted equal when recorded.
from glassgrad.viz.html import escape, fmt

history = {}  # event -> (glassgrad state, PyTorch state), in the order the events happened


def shown(grad):
    return "None" if grad is None else fmt(grad)


def agree(mine, theirs):
    """Equal gradients; PyTorch's None (no buffer yet, or set_to_none) counts as 0."""
    return all(mine[name] == (0.0 if theirs[name] is None else theirs[name]) for name in mine)


def record(event, mine, theirs):
    """Check that both engines hold the same gradients after `event`, and keep them."""
    assert agree(mine, theirs), (event, mine, theirs)
    history[event] = (dict(mine), dict(theirs))


def state_table(*events):
    """Markdown: one row per value, a glassgrad and a PyTorch column per event."""
    header = "| `.grad` | " + " | ".join(f"{escape(event)}: glassgrad | PyTorch" for event in events) + " |"
    rule = "| --- |" + " ---: | ---: |" * len(events)
    rows = [header, rule]
    for name in history[events[0]][0]:
        cells = [escape(shown(history[event][side][name])) for event in events for side in (0, 1)]
        rows.append(f"| `{escape(name)}` | " + " | ".join(cells) + " |")
    return "\n".join(rows)
