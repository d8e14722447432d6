"""Every public name of glassgrad has a docstring, and that docstring mentions each of its parameters.

The API reference page is generated from these docstrings, so a missing one is a hole in the docs.
A parameter counts as mentioned when its name appears as a word in the docstring of the function
(for a class: the class or its ``__init__``), or, for the shared conventions listed in
`MODULE_CONVENTIONS`, in the module docstring that states the convention once for every function.
"""

from __future__ import annotations

import importlib
import inspect
import re
from collections.abc import Iterator
from types import ModuleType

import pytest
from helpers import public_names

PUBLIC_MODULES = [
    "glassgrad",
    "glassgrad.value",
    "glassgrad.ops",
    "glassgrad.autograd",
    "glassgrad.checks",
    "glassgrad.examples",
    "glassgrad.nn",
    "glassgrad.data",
    "glassgrad.torch_reference",
    "glassgrad.viz",
    "glassgrad.viz.forward",
    "glassgrad.exercises",
]
"""Modules whose public names the API reference documents."""

MODULE_CONVENTIONS = {"label"}
"""Parameters that a module docstring may document once for all its functions (every op's display `label`)."""

SKIPPED_METHODS = {"__init__", "__call__"}
"""Dunder methods that are documented like public ones (the rest are Python protocol, not API)."""


def load(name: str) -> ModuleType:
    """Import a public module (the test group, with the torch and viz extras, installs every optional package)."""
    return importlib.import_module(name)


def documented_callables(module: ModuleType) -> Iterator[tuple[str, object, str]]:
    """Yield ``(qualified name, callable, docstring to search)`` for each public function, class and method."""
    for name in public_names(module):
        obj = getattr(module, name)
        if inspect.isfunction(obj):
            yield f"{module.__name__}.{name}", obj, inspect.getdoc(obj) or ""
        elif inspect.isclass(obj):
            class_doc = inspect.getdoc(obj) or ""
            if "__init__" in vars(obj) and not _is_namedtuple(obj):
                init_doc = inspect.getdoc(vars(obj)["__init__"]) if vars(obj)["__init__"].__doc__ else ""
                yield f"{module.__name__}.{name}", vars(obj)["__init__"], class_doc + "\n" + (init_doc or "")
            for method_name, method in vars(obj).items():
                if not inspect.isfunction(method) or method_name == "__init__":
                    continue
                if method_name.startswith("_") and method_name not in SKIPPED_METHODS:
                    continue
                yield f"{module.__name__}.{name}.{method_name}", method, inspect.getdoc(method) or ""


def _is_namedtuple(cls: type) -> bool:
    """NamedTuple fields are documented in the class docstring; their generated `__new__` is not ours."""
    return issubclass(cls, tuple) and hasattr(cls, "_fields")


def undocumented_parameters(function: object, docstring: str, module_doc: str) -> list[str]:
    """Names of the parameters of `function` that neither `docstring` nor a module convention mentions."""
    missing = []
    for parameter in inspect.signature(function).parameters.values():
        if parameter.name in ("self", "cls"):
            continue
        if re.search(rf"\b{re.escape(parameter.name)}\b", docstring):
            continue
        if parameter.kind is inspect.Parameter.VAR_KEYWORD and "keyword argument" in docstring.lower():
            continue
        if parameter.name in MODULE_CONVENTIONS and re.search(rf"\b{parameter.name}\b", module_doc):
            continue
        missing.append(parameter.name)
    return missing


@pytest.mark.parametrize("module_name", PUBLIC_MODULES)
def test_module_has_a_docstring(module_name: str) -> None:
    """Each module opens with a docstring (it heads its section of the API reference)."""
    module = load(module_name)
    assert (module.__doc__ or "").strip(), f"{module_name} has no module docstring"


@pytest.mark.parametrize("module_name", PUBLIC_MODULES)
def test_every_public_name_has_a_docstring(module_name: str) -> None:
    """No public function, class, method or constant of the module is undocumented."""
    module = load(module_name)
    names = public_names(module)
    assert names, f"{module_name} exports nothing"
    bare = [qualified for qualified, _, docstring in documented_callables(module) if not docstring.strip()]
    assert bare == [], f"public names without a docstring: {bare}"


@pytest.mark.parametrize("module_name", PUBLIC_MODULES)
def test_every_parameter_is_mentioned(module_name: str) -> None:
    """Each parameter of each public callable is named in its docstring (or by a module-wide convention)."""
    module = load(module_name)
    problems = []
    for qualified, function, docstring in documented_callables(module):
        home = inspect.getmodule(function) or module
        missing = undocumented_parameters(function, docstring, inspect.getdoc(home) or "")
        if missing:
            problems.append(f"{qualified}: {', '.join(missing)}")
    assert problems == [], "parameters missing from docstrings:\n  " + "\n  ".join(problems)


def test_the_walk_finds_the_api() -> None:
    """The walk above really reaches classes, methods and functions (so an empty walk cannot pass)."""
    import glassgrad.nn

    names = {qualified for qualified, _, _ in documented_callables(glassgrad.nn)}
    assert {
        "glassgrad.nn.MLP",
        "glassgrad.nn.MLP.parameters",
        "glassgrad.nn.Neuron.__call__",
        "glassgrad.nn.train",
    } <= names


def test_an_undocumented_parameter_is_caught() -> None:
    """The parameter check flags a name the docstring never mentions and accepts one it does."""

    def scale(value: float, factor: float) -> float:
        """Multiply `value` by two."""
        return value * factor

    assert undocumented_parameters(scale, inspect.getdoc(scale) or "", "") == ["factor"]
    assert undocumented_parameters(scale, "Multiply value by factor.", "") == []


def test_reference_shows_every_example_as_code() -> None:
    """Every ``>>>`` example sits in an ``Examples:`` section, which the API reference renders as code.

    Anywhere else in a docstring, Markdown would read ``>>>`` as nested quotes and ``[1, 2]`` as a link.
    """
    griffe = pytest.importorskip("griffe")
    from helpers import REPO

    package = griffe.load("glassgrad", search_paths=[str(REPO / "src")])
    bare, examples = [], 0

    def visit(obj: object) -> None:
        nonlocal examples
        if obj.is_alias:
            return
        if obj.docstring is not None and ">>>" in obj.docstring.value:
            for section in obj.docstring.parse("google"):
                if section.kind.value == "examples":
                    examples += 1
                elif ">>>" in str(section.value):
                    bare.append(obj.path)
        for member in obj.members.values():
            visit(member)

    visit(package)
    assert bare == [], f"examples outside an Examples: section: {bare}"
    assert examples >= 20  # the walk reached the docstrings
