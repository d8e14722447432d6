"""The training loop of `glassgrad.nn`: plain gradient descent over any parameters, and its progress bar.

`glassgrad.nn` re-exports both (`glassgrad.nn.train`, `glassgrad.nn.ProgressBar`): import them from there.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from glassgrad.autograd import backward
from glassgrad.value import Value, as_float

ProgressCallback = Callable[[int, int, float], None]
"""Called as ``progress(step, steps, loss)`` after each training step (``step`` counts from 1)."""


class ProgressBar:
    """A one-line text progress bar, redrawn in place: ``[######------] 30/50  loss 0.1234``.

    Usable as the ``progress`` callback of `train`. Writes to `stream` (stderr by default),
    so it never mixes with printed results.

    Args:
        stream: where to draw; `sys.stderr` at the time of each call if omitted.
        width: number of characters of the bar itself.

    Examples:
        >>> import io
        >>> out = io.StringIO()
        >>> bar = ProgressBar(out, width=10)
        >>> bar(5, 10, 0.5); bar(10, 10, 0.25)
        >>> out.getvalue().split("\\r")[-1]
        '[##########] 10/10  loss 0.25\\n'
    """

    def __init__(self, stream: TextIO | None = None, width: int = 30) -> None:
        self.stream = stream
        self.width = width

    def __call__(self, step: int, steps: int, loss: float) -> None:
        """Redraw the bar for `step` of `steps` with the current `loss`; end the line at the last step."""
        stream = self.stream if self.stream is not None else sys.stderr
        filled = self.width * step // steps if steps else self.width
        bar = "#" * filled + "-" * (self.width - filled)
        stream.write(f"\r[{bar}] {step}/{steps}  loss {loss:.4g}" + ("\n" if step >= steps else ""))
        stream.flush()


def _interactive() -> bool:
    """True in a terminal (stderr is a tty) or a Jupyter kernel; false in a build, a test or a pipe."""
    isatty = getattr(sys.stderr, "isatty", None)
    if isatty is not None and isatty():
        return True
    ipython = sys.modules.get("IPython")
    shell = getattr(ipython, "get_ipython", lambda: None)() if ipython else None
    return type(shell).__name__ == "ZMQInteractiveShell"


def train(
    parameters: Sequence[Value],
    loss_fn: Callable[[], Value],
    *,
    steps: int,
    learning_rate: float | Callable[[int], float],
    progress: bool | ProgressCallback | None = None,
) -> list[float]:
    """Plain gradient descent: `steps` times, build the loss, backward, move each parameter against its gradient.

    Each step is ``loss = loss_fn()``, ``backward(loss)`` (which clears the old gradients
    first), then ``p.data -= learning_rate * p.grad`` for every parameter.

    Args:
        parameters: the `Value`s to update (for a model, ``model.parameters()``).
        loss_fn: builds and returns the scalar loss from the current parameters.
        steps: number of updates.
        learning_rate: a step size, or a function of the step index (from 0) returning one.
        progress: ``None`` (default) shows a `ProgressBar` on stderr only when interactive
            (a terminal or a notebook), so builds and tests stay quiet; ``True`` always shows it,
            ``False`` never; a callable is called as ``progress(step, steps, loss)``.

    Returns:
        The loss before each update, one float per step.

    Raises:
        TypeError: if `loss_fn` does not return a `Value`, or `learning_rate` (or what it returns) is not a number.

    Examples:
        >>> w = Value(0.0, "w")
        >>> losses = train([w], lambda: (w - 3.0) ** 2, steps=40, learning_rate=0.25, progress=False)
        >>> losses[0], round(w.data, 6)
        (9.0, 3.0)
    """
    if progress is None:
        progress = _interactive()
    report: ProgressCallback | None = ProgressBar() if progress is True else (progress or None)
    schedule = learning_rate if callable(learning_rate) else None
    fixed = 0.0 if schedule is not None else as_float(learning_rate, "train: learning_rate")  # 0.0: unused
    losses: list[float] = []
    for step in range(steps):
        loss = loss_fn()
        if not isinstance(loss, Value):
            raise TypeError(f"train: loss_fn must return a Value, got {type(loss).__name__} {loss!r:.60}")
        backward(loss, record=False)
        rate = fixed if schedule is None else as_float(schedule(step), f"train: learning_rate({step})")
        for parameter in parameters:
            parameter.data -= rate * parameter.grad
        losses.append(loss.data)
        if report is not None:
            report(step + 1, steps, loss.data)
    return losses
