"""MkDocs hook: a failing markdown-exec block fails the strict build, with the page and block named.

markdown-exec logs a warning that shows the code and the traceback but not the page it came from.
This hook rewrites that warning so its first line reads, for example,
``docs/chapters/1-pytorch.md: exec block 3 (session ch1) raised ZeroDivisionError: division by zero``.
The record stays a WARNING on a ``mkdocs.*`` logger, so ``mkdocs build --strict`` aborts on it.
"""

from __future__ import annotations

import logging
import re
from typing import Any

# markdown-exec names each executed block `<code block: session NAME; nN>` (or `<code block: nN>`).
BLOCK_NAME = re.compile(r'File "<code block: (?:session (?P<session>[^;>]+); )?n(?P<number>\d+)[^>]*>", line (?P<line>\d+)')
FAILURE = "Execution of "
EXEC_LOGGER_PREFIX = "mkdocs.plugins.markdown_exec"


class _CurrentPage:
    """The page whose Markdown is being converted (MkDocs renders pages one at a time)."""

    src_path: str = "<unknown page>"


def _exception_line(message: str) -> str:
    """Last line of the traceback in markdown-exec's message (`Error: text`), or '' when absent."""
    lines = [line.strip() for line in message.splitlines() if line.strip() and not line.strip().startswith("```")]
    candidates = [line for line in lines if re.match(r"^[A-Za-z_][\w.]*(Error|Exception|Interrupt|Exit)\b", line)]
    return candidates[-1] if candidates else ""


def describe_failure(message: str, page: str) -> str:
    """Headline naming the page, the block (number within its session, line) and the exception."""
    where = "exec block"
    match = None
    for match in BLOCK_NAME.finditer(message):
        pass  # the innermost frame inside a block is the last one
    if match:
        session = f", session {match['session']}" if match["session"] else ""
        where = f"exec block {match['number']} (line {match['line']} of the block{session})"
    error = _exception_line(message)
    return f"{page}: {where} failed" + (f" with {error}" if error else "")


class _NamePage(logging.Filter):
    """Prefix markdown-exec's failure warnings with a headline naming the page and the block."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if record.levelno >= logging.WARNING and FAILURE in message:
            record.msg = describe_failure(message, _CurrentPage.src_path) + "\n" + message
            record.args = ()
        return True


_FILTER = _NamePage()


def _install_filter() -> None:
    """Attach the filter to every markdown-exec logger (filters do not propagate to child loggers)."""
    names = [name for name in logging.Logger.manager.loggerDict if name.startswith(EXEC_LOGGER_PREFIX)]
    for name in names or [f"{EXEC_LOGGER_PREFIX}._internal.formatters.base"]:
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)


def on_pre_build(config: Any) -> None:
    """Install the filter once markdown-exec's loggers exist."""
    _install_filter()


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """Remember which page is about to run its blocks."""
    _CurrentPage.src_path = f"{config.docs_dir.rstrip('/').rsplit('/', 1)[-1]}/{page.file.src_uri}"
    return markdown
