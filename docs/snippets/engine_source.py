# Shared by chapters 2 and 3: show glassgrad's own code, read from the package as the page builds.
import inspect
import textwrap


def engine_source(obj) -> str:
    """The current source of `obj` from src/glassgrad, dedented, as a Markdown code fence titled with its file."""
    path = inspect.getsourcefile(obj).replace("\\", "/")
    path = "src/glassgrad/" + path.rsplit("/glassgrad/", 1)[1]
    return f'````python title="{path}"\n{textwrap.dedent(inspect.getsource(obj)).rstrip()}\n````\n'
