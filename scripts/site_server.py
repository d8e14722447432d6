"""A built site served on 127.0.0.1 for a browser to visit, as GitHub Pages serves it: under the path of its
``site_url``, quietly. The benchmarks (``scripts/bench_*.py``) and the tests' browsers use it."""

from __future__ import annotations

import contextlib
import functools
import http.server
import re
import threading
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit


def published_path(site: Path) -> str:
    """The path of the address the site was built for (``/glassgrad/``), from Home's canonical link; ``/`` if none."""
    canonical = re.search(r'<link rel="canonical" href="([^"]+)"', (site / "index.html").read_text(encoding="utf-8"))
    return urlsplit(canonical[1]).path if canonical else "/"


class _SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Serves the built site at `mount` (the path of its ``site_url``) with `extra_headers`; quietly."""

    mount = "/"
    extra_headers: Mapping[str, str] = {}  # (not `headers`: the base class keeps a request's headers there)

    def translate_path(self, path: str) -> str:
        if not path.startswith(self.mount):
            return str(Path(self.directory) / "outside-the-site")  # not found: the site lives under its path
        return super().translate_path("/" + path[len(self.mount) :])

    def end_headers(self) -> None:
        for name, value in self.extra_headers.items():
            self.send_header(name, value)
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        pass


class _QuietServer(http.server.ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a download cut short by a worker the page ended (a stopped Run, the next visit) is not news


@contextlib.contextmanager
def serving(site: Path, headers: Mapping[str, str] | None = None) -> Iterator[str]:
    """`site` served on 127.0.0.1 (a free port) under the path it was built for, each response with `headers`
    (Python's plain server: no compression); yields its address."""
    mount = published_path(site)
    handler_type = type("Handler", (_SiteHandler,), {"mount": mount, "extra_headers": dict(headers or {})})
    server = _QuietServer(("127.0.0.1", 0), functools.partial(handler_type, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_port}{mount}"
    finally:
        server.shutdown()
        server.server_close()
