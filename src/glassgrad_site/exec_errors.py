"""A block that raises never publishes; while serving, its failure shows on its page (`docs/hooks/exec_errors.py`).

markdown-exec logs a failed block as a warning, which fails a build only under ``--strict`` and not with
``-q``. So `install` follows the blocks through markdown-exec's public API: ``patch_loggers`` reports each
failure; each formatter is wrapped to number the page's blocks, to name the page's sessions afresh in every
build (no page sees another's variables, nor the previous build's) and to frame a failure on the page.
Every command but ``serve`` then stops with a PluginError naming the page, the block and the exception.
The state lives in this module, so `docs/hooks/fresh_modules.py` keeps it loaded across builds.
"""

from __future__ import annotations

import functools
import html
import itertools
import logging
import re
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple, cast

import markdown_exec
from mkdocs.exceptions import PluginError

log = logging.getLogger("mkdocs.hooks.exec_errors")  # the hook's name in the log, as before

FENCE = re.compile(r"^[ \t]*(?:`{3,}|~{3,})[ \t]*\{?\.?(?P<language>[\w-]+)(?P<options>[^\n]*)$", re.MULTILINE)
EXEC_OPTION = re.compile(r"""\bexec=["']?(?!(?:no|off|false|0)?["'\s}]|$)""", re.IGNORECASE)
ALWAYS_RUN = {"tree", "pyodide"}  # markdown-exec renders these without exec="1"


class Failure(NamedTuple):
    where: str  # "docs/chapters/1-pytorch.md: executed block 3 (line 40, python, session ch1, at line 2 of the block)"
    exception: str  # "RuntimeError: the message", or "exit code 1" for a shell block
    details: str  # the traceback or the output, as markdown-exec shows it
    raised: bool

    def headline(self) -> str:
        return f"{self.where} {'raised' if self.raised else 'failed with'} {self.exception}"


class _State:
    command = "build"  # set by on_startup; only "serve" shows failures instead of failing
    builds = itertools.count(1)
    build = 0
    page = "<no page>"
    fences: list[int] = []  # line of each executed fence in the page's file
    blocks = 0
    reports: list[tuple[BaseException | None, str]] | None = None  # markdown-exec's warnings in the running block
    failures: list[Failure] = []


class _Logger(logging.LoggerAdapter):
    """markdown-exec's logger as its MkDocs plugin sets it up (``mkdocs.plugins.*``), noting each failure."""

    def __init__(self, name: str) -> None:
        super().__init__(logging.getLogger(f"mkdocs.plugins.{name}"), {})
        self.prefix = name.split(".", 1)[0]

    def process(self, msg: Any, kwargs: Any) -> tuple[str, Any]:
        return f"{self.prefix}: {msg}", kwargs

    def log(self, level: int, msg: Any, *args: Any, **kwargs: Any) -> None:
        if level >= logging.WARNING and _State.reports is not None:  # whatever the log level: -q hides nothing
            _State.reports.append((sys.exc_info()[1], str(msg) % args if args else str(msg)))
        super().log(level, msg, *args, **kwargs)


def _failure(language: str, session: str, error: BaseException | None, message: str) -> Failure:
    """The running block's failure, from the ExecutionError markdown-exec was handling (or its message)."""
    cause = error.__cause__ if error is not None else None
    block_line = None
    if cause is not None:
        exception = "".join(traceback.format_exception_only(type(cause), cause)).strip()
        frames = [
            frame for frame in traceback.extract_tb(cause.__traceback__) if frame.filename.startswith("<code block")
        ]
        block_line = frames[-1].lineno if frames else None
    elif isinstance(error, markdown_exec.ExecutionError):
        exception = "errors" if error.returncode is None else f"exit code {error.returncode}"
    else:
        exception = message.strip().splitlines()[0] if message.strip() else "an error"
    lines = (str(error) if error is not None else message).strip("\n").split("\n")
    if len(lines) > 1 and lines[0].startswith("```") and lines[-1].startswith("```"):
        lines = lines[1:-1]  # markdown-exec fences the traceback
    first = next((i for i, line in enumerate(lines) if line.lstrip().startswith('File "<code block')), None)
    if first is not None and lines[0].startswith("Traceback"):
        lines = lines[:1] + lines[first:]  # from the block's own frame on, without markdown-exec's
    page_line = _State.fences[_State.blocks - 1] if _State.blocks <= len(_State.fences) else None
    parts = [
        page_line and f"line {page_line}",
        language,
        session and f"session {session}",
        block_line and f"at line {block_line} of the block",
    ]
    where = f"{_State.page}: executed block {_State.blocks} ({', '.join(str(part) for part in parts if part)})"
    return Failure(where, exception, "\n".join(lines), cause is not None)


def _watch(language: str, format_block: Callable[..., str]) -> Callable[..., str]:
    """`format_block` (one of markdown-exec's formatters), numbering blocks and framing failures."""
    if getattr(format_block, "watched_by_exec_errors", False):
        return format_block

    @functools.wraps(format_block)
    def watched(*, session: str = "", **options: Any) -> str:
        _State.blocks += 1
        reports = _State.reports = []
        try:
            output = format_block(session=session and f"{session} ({_State.page}, build {_State.build})", **options)
        finally:
            _State.reports = None
        if not reports:
            return output
        failure = _failure(language, session, *reports[0])
        _State.failures.append(failure)
        return (
            '<div class="admonition failure gg-exec-failure" role="alert">'
            f'<p class="admonition-title">Executed block {_State.blocks} failed: {html.escape(failure.exception)}</p>'
            f"<p>{html.escape(failure.where)}. <code>mkdocs build</code> fails until it is fixed.</p>"
            f"<pre><code>{html.escape(failure.details)}</code></pre></div>"
        )

    watched.watched_by_exec_errors = True  # type: ignore[attr-defined]
    return watched


def install() -> None:
    """Watch every markdown-exec block from now on: its logger notes failures, its formatters frame them."""
    markdown_exec.patch_loggers(_Logger)
    markdown_exec.formatters.update(
        {
            language: _watch(language, cast(Callable[..., str], block))
            for language, block in markdown_exec.formatters.items()
        }
    )


def on_startup(command: str, dirty: bool) -> None:
    _State.command = command


def on_pre_build(config: Any) -> None:
    _State.build = next(_State.builds)  # new session names


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """Note the page whose blocks are about to run, and the line of each of its executed fences."""
    root = Path(config.config_file_path).resolve().parent
    source = Path(page.file.abs_src_path).resolve() if page.file.abs_src_path else None
    _State.page = source.relative_to(root).as_posix() if source and source.is_relative_to(root) else page.file.src_uri
    text = page.file.content_string  # the file as written, front matter included
    _State.fences = [
        text.count("\n", 0, match.start()) + 1
        for match in FENCE.finditer(text)
        if match["language"] in markdown_exec.formatters
        and (
            match["language"] in ALWAYS_RUN
            or match["language"] in markdown_exec.MARKDOWN_EXEC_AUTO
            or EXEC_OPTION.search(match["options"])
        )
    ]
    _State.blocks = 0
    _State.failures = []
    return markdown


def on_page_content(content: str, page: Any, config: Any, files: Any) -> str:
    """After the page's blocks ran: fail the build on a failed block (serving: say so in the terminal)."""
    failures, _State.failures = _State.failures, []
    if _State.command == "serve":
        for failure in failures:
            log.warning("%s (shown on the page)", failure.headline())
    elif failures:
        report = "\n\n".join(
            failure.headline() + "\n" + "\n".join(f"    {line}" for line in failure.details.splitlines())
            for failure in failures
        )
        raise PluginError(f"{len(failures)} executed block(s) failed; the site is not published.\n{report}")
    return content
