from glassgrad.viz.plot import Series, line_plot

FLOOR = 0.1  # a log axis needs a floor; a tenth of an ulp is "exact" here
BLOCK = 5  # one plotted point per 5 consecutive z: the worst error among them


def worst_per_block(errors):
    """(first z of block, worst error in block); nan if any point in the block is nan."""
    points = []
    for start in range(0, len(Z_GRID), BLOCK):
        block = errors[start : start + BLOCK]
        worst = math.nan if any(e != e for e in block) else max(max(block), FLOOR)
        points.append((Z_GRID[start], worst))
    return points


def error_plot(errors, which, forms):
    """Error in ulps against z, log y, one line per form."""
    return line_plot(
        [Series(form, worst_per_block(errors[form]), nan_marks=True) for form in forms],
        x_label="z",
        y_label=f"error of {which} (ulps)",
        log_y=True,
        x_range=(Z_GRID[0], Z_GRID[-1]),
        x_ticks=[-800, -400, 0, 400, 800],
        y_range=(FLOOR, 1e17),
        title=f"Error of {which} against the {mpmath.mp.dps}-digit reference",
        note=f"Each point is the worst of {BLOCK} consecutive z; errors below {FLOOR:g} ulp "
        f"are drawn at {FLOOR:g}.",
    )
