"""MkDocs hook: a block that raises never publishes; while serving, its failure shows on its page.

markdown-exec catches a block's exception, logs a warning and puts the traceback in the page. Whether
that warning fails the build depends on ``--strict`` and on the log level (``-q`` hides it from the
count), so this hook follows the blocks through markdown-exec's public API instead:

- ``markdown_exec.patch_loggers`` (its documented way to route its logging) reports a failed block,
  with the ``ExecutionError`` being handled;
- each formatter in ``markdown_exec.formatters`` is wrapped to number a page's executed blocks, to give
  the page's sessions a name of their own in each build (a page never sees another page's variables,
  nor those of the previous build under ``mkdocs serve``), and to frame a failed block on the page.

``mkdocs build`` and ``gh-deploy``, whatever their flags, stop with a PluginError naming the page, the
block and the exception (a notebook cell that raises stops the build by itself, and MkDocs names
the page). ``mkdocs serve`` shows the failure on the page and keeps serving.
"""

from __future__ import annotations

import functools
import html
import itertools
import logging
import re
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import markdown_exec
from mkdocs.exceptions import PluginError

log = logging.getLogger("mkdocs.hooks.exec_errors")

FENCE = re.compile(r"^[ \t]*(?:`{3,}|~{3,})[ \t]*\{?\.?(?P<language>[\w-]+)(?P<options>[^\n]*)$", re.MULTILINE)
EXEC_OPTION = re.compile(r"""\bexec=["']?(?!(?:no|off|false|0)?["'\s}]|$)""", re.IGNORECASE)
ALWAYS_RUN = {"tree", "pyodide"}  # markdown-exec renders these without exec="1"


@dataclass
class Failure:
    """One executed block that failed, and where."""

    page: str  # "docs/chapters/1-pytorch.md"
    block: int  # 1 for the page's first executed block
    language: str
    session: str
    exception: str  # "RuntimeError: the message"
    block_line: int | None  # line of the block's code that raised (Python blocks)
    details: str  # the traceback (Python) or the output (shell), as markdown-exec shows it
    page_line: int | None = None  # line of the block's opening fence in the page, when it is found there
    raised: bool = True  # False for a shell block that exited with an error code

    def where(self) -> str:
        at = f"line {self.page_line}, " if self.page_line else ""
        session = f", session {self.session}" if self.session else ""
        inside = f", at line {self.block_line} of the block" if self.block_line else ""
        return f"{self.page}: executed block {self.block} ({at}{self.language}{session}{inside})"

    def headline(self) -> str:
        return f"{self.where()} {'raised' if self.raised else 'failed with'} {self.exception}"


class _State:
    command = "build"  # mkdocs serve sets "serve" (on_startup); anything else fails on a failed block
    build = 0
    builds = itertools.count(1)
    page = "<no page>"
    fences: list[int] = []  # line of each executed fence in the page's file
    blocks = 0
    reports: list[tuple[BaseException | None, str]] | None = None  # markdown-exec's warnings in the running block
    failures: list[Failure] = []


# ---- what markdown-exec reports --------------------------------------------------------------------


class _Logger(logging.LoggerAdapter):
    """markdown-exec's logger as its MkDocs plugin sets it up (``mkdocs.plugins.*``), noting each failure."""

    def __init__(self, name: str) -> None:
        super().__init__(logging.getLogger(f"mkdocs.plugins.{name}"), {})
        self.prefix = name.split(".", 1)[0]

    def process(self, msg: Any, kwargs: Any) -> tuple[str, Any]:
        return f"{self.prefix}: {msg}", kwargs

    def log(self, level: int, msg: Any, *args: Any, **kwargs: Any) -> None:
        # Noted whatever the log level: `-q` must not hide a failure.
        if level >= logging.WARNING and _State.reports is not None:
            _State.reports.append((sys.exc_info()[1], str(msg) % args if args else str(msg)))
        super().log(level, msg, *args, **kwargs)


def _failure(language: str, session: str, error: BaseException | None, message: str) -> Failure:
    """What went wrong in the running block, from the ExecutionError markdown-exec was handling (or its message)."""
    cause = error.__cause__ if error is not None else None
    block_line = None
    if cause is not None:
        exception = "".join(traceback.format_exception_only(type(cause), cause)).strip()
        frames = [frame for frame in traceback.extract_tb(cause.__traceback__) if frame.filename.startswith("<code block")]
        block_line = frames[-1].lineno if frames else None
    elif isinstance(error, markdown_exec.ExecutionError):
        exception = "errors" if error.returncode is None else f"exit code {error.returncode}"
    else:
        exception = message.strip().splitlines()[0] if message.strip() else "an error"
    lines = (str(error) if error is not None else message).strip("\n").split("\n")
    if len(lines) > 1 and lines[0].startswith("```") and lines[-1].startswith("```"):
        lines = lines[1:-1]  # markdown-exec wraps the traceback in a code fence
    first_block_frame = next((i for i, line in enumerate(lines) if line.lstrip().startswith('File "<code block')), None)
    if first_block_frame is not None and lines[0].startswith("Traceback"):
        lines = lines[:1] + lines[first_block_frame:]  # from the block's own frame on, without markdown-exec's
    details = "\n".join(lines)
    page_line = _State.fences[_State.blocks - 1] if _State.blocks <= len(_State.fences) else None
    return Failure(_State.page, _State.blocks, language, session, exception, block_line, details, page_line, cause is not None)


def _framed(failure: Failure) -> str:
    """The failed block on the page (while serving): a failure box naming it, with its traceback or output."""
    return (
        '<div class="admonition failure gg-exec-failure" role="alert">'
        f'<p class="admonition-title">Executed block {failure.block} failed: {html.escape(failure.exception)}</p>'
        f"<p>{html.escape(failure.where())}. <code>mkdocs build</code> fails until it is fixed.</p>"
        f"<pre><code>{html.escape(failure.details)}</code></pre></div>"
    )


def _watch(language: str, format_block: Callable[..., str]) -> Callable[..., str]:
    """`format_block` (one of markdown-exec's formatters), numbering blocks and noting failures."""
    if getattr(format_block, "watched_by_exec_errors", False):
        return format_block

    @functools.wraps(format_block)
    def watched(*, session: str = "", **options: Any) -> str:
        _State.blocks += 1
        reports = _State.reports = []
        try:  # in the page's own session, new in each build
            output = format_block(session=session and f"{session} ({_State.page}, build {_State.build})", **options)
        finally:
            _State.reports = None
        if not reports:
            return output
        _State.failures.append(_failure(language, session, *reports[0]))
        return _framed(_State.failures[-1])

    watched.watched_by_exec_errors = True  # type: ignore[attr-defined]
    return watched


markdown_exec.patch_loggers(_Logger)
for _language, _format in list(markdown_exec.formatters.items()):
    markdown_exec.formatters[_language] = _watch(_language, _format)


# ---- MkDocs events ---------------------------------------------------------------------------------


def _fence_lines(source: str) -> list[int]:
    """Line numbers of the page's executed fences, in order."""
    lines = []
    for match in FENCE.finditer(source):
        language = match["language"]
        runs = language in ALWAYS_RUN or language in markdown_exec.MARKDOWN_EXEC_AUTO or EXEC_OPTION.search(match["options"])
        if language in markdown_exec.formatters and runs:
            lines.append(source.count("\n", 0, match.start()) + 1)
    return lines


def on_startup(command: str, dirty: bool) -> None:
    """`mkdocs serve` shows failures on their pages; every other command fails."""
    _State.command = command


def on_pre_build(config: Any) -> None:
    """A new build: new session names."""
    _State.build = next(_State.builds)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """Remember the page whose blocks are about to run."""
    root = Path(config.config_file_path).resolve().parent if config.config_file_path else None
    source = Path(page.file.abs_src_path).resolve() if page.file.abs_src_path else None
    _State.page = source.relative_to(root).as_posix() if source and root and source.is_relative_to(root) else page.file.src_uri
    _State.fences = _fence_lines(page.file.content_string)  # the file as written, front matter included
    _State.blocks = 0
    _State.failures = []
    return markdown


def on_page_content(content: str, page: Any, config: Any, files: Any) -> str:
    """After the page's blocks ran: fail the build on a failed block (serving: say so in the terminal)."""
    failures, _State.failures = _State.failures, []
    if not failures:
        return content
    if _State.command == "serve":
        for failure in failures:
            log.warning("%s (shown on the page)", failure.headline())
        return content
    report = "\n\n".join(f"{failure.headline()}\n" + "\n".join(f"    {line}" for line in failure.details.splitlines()) for failure in failures)
    raise PluginError(f"{len(failures)} executed block(s) failed; the site is not published.\n{report}")

