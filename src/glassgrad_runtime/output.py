"""A program's stdout and stderr, together and in order, sent in batches and capped in characters."""

from __future__ import annotations

import contextlib
import io
import sys
import time
from collections.abc import Callable, Iterator

MAX_CHARACTERS = 200_000
"""Characters of one run's output sent to the page; the rest is counted (lines and characters), not sent."""

BATCH_SECONDS = 0.1
"""At most one batch per this many seconds (and one at the end)."""

Emit = Callable[[list[list[str]], int, int], None]
"""``emit(chunks, dropped_lines, dropped_characters)``: chunks are ``[["stdout" | "stderr", text], ...]``; the
two counts say what was left out since the previous batch (past `MAX_CHARACTERS`)."""


class Output:
    """Collects what a program writes and hands it to `emit` in batches (see `Emit`)."""

    def __init__(self, emit: Emit, limit: int = MAX_CHARACTERS) -> None:
        self.emit = emit
        self.room = limit  # characters that may still be sent
        self.chunks: list[list[str]] = []
        self.dropped_lines = 0
        self.dropped_characters = 0
        self.open_line = False  # the text dropped last ends inside a line
        self.sent = time.monotonic()

    def write(self, stream: str, text: str) -> None:
        kept, cut = text[: self.room], text[self.room :]
        self.room -= len(kept)
        if kept:
            if self.chunks and self.chunks[-1][0] == stream:
                self.chunks[-1][1] += kept
            else:
                self.chunks.append([stream, kept])
        if cut:
            self.dropped_characters += len(cut)
            self.dropped_lines += cut.count("\n")  # a line is counted when its end is dropped (see `close`)
            self.open_line = not cut.endswith("\n")
        if time.monotonic() - self.sent > BATCH_SECONDS:
            self.flush()

    def flush(self) -> None:
        """Send what was collected since the last batch (nothing is sent when nothing was written)."""
        if self.chunks or self.dropped_characters:
            chunks, lines, characters = self.chunks, self.dropped_lines, self.dropped_characters
            self.chunks, self.dropped_lines, self.dropped_characters = [], 0, 0
            self.emit(chunks, lines, characters)
        self.sent = time.monotonic()

    def close(self) -> None:
        """Send the last batch; a dropped last line without its newline counts as a line too."""
        if self.open_line:
            self.dropped_lines += 1
            self.open_line = False
        self.flush()


class _Stream(io.TextIOBase):
    """``sys.stdout`` or ``sys.stderr`` while a program runs: what is written goes to one `Output`."""

    def __init__(self, output: Output, name: str) -> None:
        self.output, self.name = output, name

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        self.output.write(self.name, text)
        return len(text)


@contextlib.contextmanager
def captured(output: Output) -> Iterator[None]:
    """stdout and stderr go to `output` inside the block (stdin reads nothing); the last batch is sent at its end."""
    saved = sys.stdout, sys.stderr, sys.stdin
    sys.stdout, sys.stderr, sys.stdin = _Stream(output, "stdout"), _Stream(output, "stderr"), io.StringIO()
    try:
        yield
    finally:
        sys.stdout, sys.stderr, sys.stdin = saved
        output.close()
