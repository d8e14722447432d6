"""The sdist: the project's source with the whole of tests/. The wheel: built from the unpacked sdist (a packager's
route), installed alone into a fresh venv, and the engine works there; the sdist's engine tests pass against it.

`pip install glassgrad` promises an engine with no dependencies: this installs the wheel with
``--no-deps --no-index`` next to nothing else and checks that glassgrad imports, computes the
README's example, and loads only the standard library (no torch, no graphviz). Then the sdist's tests of the
engine and its figures, and the installed package's doctests, run against the wheel installed in another venv
(``--import-mode=importlib``, no PYTHONPATH): what CONTRIBUTING.md tells a packager to run.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import textwrap
import venv
import zipfile
from pathlib import Path

import pytest
from helpers import REPO

pytestmark = pytest.mark.packaging

CLEAN_ENVIRONMENT = {name: value for name, value in os.environ.items() if not name.startswith("PYTHON")}
"""The environment of the build and install: nothing (no PYTHONPATH) may lead them to this checkout's packages."""

CHECK_IN_FRESH_VENV = textwrap.dedent(
    """
    import importlib, importlib.util, json, pkgutil, sys

    import glassgrad
    from glassgrad import Value, backward

    core_modules = sorted({name.split(".")[0] for name in sys.modules})
    w, x, b, y = Value(2.0, "w"), Value(3.0, "x"), Value(1.0, "b"), Value(10.0, "y")
    L = (w * x + b - y) ** 2
    steps = backward(L)

    # Every module either imports here, or fails naming the optional package it needs.
    needs = {}
    for module in pkgutil.walk_packages(glassgrad.__path__, "glassgrad."):
        try:
            importlib.import_module(module.name)
        except ModuleNotFoundError as error:
            needs[module.name] = error.name

    print(json.dumps({
        "file": glassgrad.__file__,
        "prefix": sys.prefix,
        "version": glassgrad.__version__,
        "grads": [w.grad, x.grad, b.grad, y.grad],
        "steps": len(steps),
        "core_modules": core_modules,
        "stdlib": sorted(sys.stdlib_module_names),
        "needs": needs,
        "torch_found": importlib.util.find_spec("torch") is not None,
        "graphviz_found": importlib.util.find_spec("graphviz") is not None,
    }))
    """
)


def project_files() -> list[str]:
    """The project's files as git sees them (tracked, and new ones not ignored): what a fresh clone would hold."""
    listed = subprocess.run(
        ["git", "ls-files", "-coz", "--exclude-standard"], cwd=REPO, check=True, capture_output=True, timeout=60
    )
    return [name for name in listed.stdout.decode().split("\0") if name and (REPO / name).is_file()]


@pytest.fixture(scope="module")
def sdist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sdist built with ``python -m build --sdist`` from a copy of the project's files, unpacked: its folder."""
    pytest.importorskip("build")
    project = tmp_path_factory.mktemp("project")
    for name in project_files():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, project / name)
    dist = tmp_path_factory.mktemp("dist")
    command = [sys.executable, "-m", "build", "--sdist", "--no-isolation", "--outdir", str(dist), str(project)]
    finished = subprocess.run(command, capture_output=True, text=True, timeout=120, env=CLEAN_ENVIRONMENT)
    assert finished.returncode == 0, finished.stdout + finished.stderr
    (built,) = dist.glob("glassgrad-*.tar.gz")
    unpacked = tmp_path_factory.mktemp("unpacked")
    with tarfile.open(built) as archive:
        archive.extractall(unpacked, filter="data")
    (folder,) = unpacked.iterdir()
    return folder


@pytest.fixture(scope="module")
def wheel(sdist: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel built with ``python -m build --wheel`` from the unpacked sdist, as a packager builds it."""
    dist = tmp_path_factory.mktemp("dist")
    # --no-isolation: reuse this environment's setuptools instead of downloading one.
    command = [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(dist), str(sdist)]
    finished = subprocess.run(command, capture_output=True, text=True, timeout=120, env=CLEAN_ENVIRONMENT)
    assert finished.returncode == 0, finished.stdout + finished.stderr
    (built,) = dist.glob("glassgrad-*.whl")
    return built


def fresh_venv(wheel: Path, folder: Path) -> Path:
    """A new venv in `folder` holding the wheel alone (no dependency, no index); its Python."""
    venv.create(folder, with_pip=False, system_site_packages=False)
    python = folder / "bin" / "python"
    install = [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps", "--no-index"]
    finished = subprocess.run(
        [*install, str(wheel)], capture_output=True, text=True, timeout=120, env=CLEAN_ENVIRONMENT
    )
    assert finished.returncode == 0, finished.stdout + finished.stderr
    return python


@pytest.fixture(scope="module")
def fresh_install(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> dict:
    """What `CHECK_IN_FRESH_VENV` reports from a new venv holding only the wheel."""
    environment = tmp_path_factory.mktemp("venv") / "env"
    python = fresh_venv(wheel, environment)
    # -I: isolated mode, so neither PYTHONPATH nor the current folder can supply a glassgrad.
    run = subprocess.run(
        [str(python), "-I", "-c", CHECK_IN_FRESH_VENV],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=environment,
        env=CLEAN_ENVIRONMENT,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    return json.loads(run.stdout)


def test_wheel_holds_the_package_and_declares_no_dependency(wheel: Path) -> None:
    """The wheel ships the engine and py.typed (not the site's runtime); every Requires-Dist belongs to an extra."""
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        (metadata_name,) = [name for name in names if name.endswith(".dist-info/METADATA")]
        metadata = archive.read(metadata_name).decode()
    for module in ("__init__", "value", "ops", "autograd", "checks", "examples", "torch_reference"):
        assert f"glassgrad/{module}.py" in names
    assert "glassgrad/py.typed" in names
    tops = {name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")}
    assert tops == {"glassgrad"}, tops  # the runtime, the site package, tests and docs stay out
    requirements = [line for line in metadata.splitlines() if line.startswith("Requires-Dist:")]
    assert requirements and all("extra ==" in line for line in requirements), requirements
    assert "Name: glassgrad" in metadata


def test_glassgrad_imports_from_the_fresh_venv(fresh_install: dict) -> None:
    """glassgrad is imported from the fresh venv, not from the checkout."""
    assert fresh_install["file"].startswith(fresh_install["prefix"])
    assert fresh_install["version"] == __import__("glassgrad").__version__


def test_the_readme_example_runs_there(fresh_install: dict) -> None:
    """The README's example gives its grads, -18 and -12 for w and x."""
    assert fresh_install["grads"] == [-18.0, -12.0, -6.0, 6.0]
    assert fresh_install["steps"] == 7


def test_neither_torch_nor_graphviz_is_there_or_imported(fresh_install: dict) -> None:
    """Importing glassgrad loads only the standard library."""
    assert not fresh_install["torch_found"] and not fresh_install["graphviz_found"]
    outside_stdlib = set(fresh_install["core_modules"]) - set(fresh_install["stdlib"]) - {"glassgrad", "__main__"}
    assert {name for name in outside_stdlib if not name.startswith("_")} == set()


def test_optional_modules_fail_naming_their_extra(fresh_install: dict) -> None:
    """Only modules that need an extra fail to import, and each names torch, graphviz or numpy (a declared extra)."""
    needs = fresh_install["needs"]
    assert needs.get("glassgrad.torch_reference") == "torch"
    assert set(needs.values()) <= {"torch", "graphviz", "numpy"}, needs
    for core in ("glassgrad.value", "glassgrad.ops", "glassgrad.autograd", "glassgrad.checks", "glassgrad.examples"):
        assert core not in needs


def test_the_sdist_ships_the_whole_tests_folder(sdist: Path) -> None:
    """Every file of tests/ (the helpers and conftest.py included), and no generated file of docs/."""
    tests = {name for name in project_files() if name.startswith("tests/")}
    assert {"tests/conftest.py", "tests/helpers.py", "tests/strategies.py"} <= tests
    shipped = {path.relative_to(sdist).as_posix() for path in (sdist / "tests").rglob("*") if path.is_file()}
    assert shipped == tests
    assert not (sdist / "docs" / "assets" / "playground").exists()


ENGINE_TESTS = ["tests/engine", "tests/viz", "tests/site/test_check_version.py"]
"""The sdist's tests of what the wheel holds: the engine, its figures, and the version it reports."""

RUN_ONCE = [
    "test_deep_chain_beyond_the_recursion_limit_matches_torch",
    "test_a_million_node_chain_runs_forward_order_and_backward",
    "test_100_000_deep_chain_needs_no_recursion",
    "test_pickle_and_deepcopy_a_20_000_deep_chain_keep_numbers_and_identities",
]
"""The slowest engine tests (two thirds of the run's CPU): the same code in the wheel as in the checkout, which
`make test` runs them on, so they are not run again here."""


@pytest.mark.timeout(600)  # a test run in a test: pyproject.toml's 120 s is for one test
def test_the_sdists_engine_tests_pass_against_the_installed_wheel(sdist: Path, wheel: Path, tmp_path: Path) -> None:
    """The engine's tests and the installed package's doctests, run from the unpacked sdist on the installed wheel.

    The venv holds the wheel alone; this environment's test tools (pytest, hypothesis, torch, graphviz, ...) come
    after it on its path (a ``.pth`` line: the editable install of this checkout, itself a ``.pth`` file there, is
    not read), so the glassgrad under test is the wheel's, and no test may need the source tree's.
    """
    python = fresh_venv(wheel, tmp_path / "env")
    where = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True,
        text=True,
        timeout=60,
        env=CLEAN_ENVIRONMENT,
        check=True,
    )
    installed = Path(where.stdout.strip())
    (installed / "test-tools.pth").write_text(sysconfig.get_path("purelib") + "\n", encoding="utf-8")
    environment = {name: value for name, value in CLEAN_ENVIRONMENT.items() if not name.startswith("PYTEST")}
    # -I: neither PYTHONPATH nor the current folder on the path, as in the run below.
    imported = subprocess.run(
        [str(python), "-I", "-c", "import glassgrad; print(glassgrad.__file__)"],
        cwd=sdist,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert imported.stdout.strip() == str(installed / "glassgrad" / "__init__.py"), imported.stdout + imported.stderr
    # -n 0: one process (make test runs this on one core).
    command = [str(python), "-I", "-m", "pytest", *ENGINE_TESTS, "--pyargs", "glassgrad", "--import-mode=importlib"]
    command += ["-p", "no:cacheprovider", "-n", "0", "-v", "-m", "not site and not browser and not packaging"]
    command += ["-k", " and ".join(f"not {name}" for name in RUN_ONCE)]
    finished = subprocess.run(command, cwd=sdist, env=environment, capture_output=True, text=True, timeout=600)
    assert finished.returncode == 0, finished.stdout[-5000:] + finished.stderr[-3000:]
    lines = finished.stdout.splitlines()
    # The installed package's doctests (--pyargs: named from its folder in the venv, `autograd.py::glassgrad...`).
    assert sum(re.match(r"\S+\.py::glassgrad\.\S+ PASSED", line) is not None for line in lines) >= 20
    assert any(line.startswith("tests/engine/test_scratch.py::") for line in lines)
    summary = lines[-1]
    assert int(re.search(r"(\d+) passed", summary)[1]) >= 400 and "error" not in summary, summary


def _group_requirements(groups: dict[str, list[object]], name: str) -> list[str]:
    """The requirement strings of one dependency group, its `include-group`s followed (PEP 735)."""
    requirements: list[str] = []
    for entry in groups[name]:
        if isinstance(entry, dict):
            requirements += _group_requirements(groups, entry["include-group"])
        else:
            requirements.append(str(entry))
    return requirements


def test_the_lock_pins_every_package_the_dev_group_and_the_extras_name() -> None:
    """`make setup` installs requirements/dev.lock alone (hashed, no resolver): a package added to pyproject.toml but
    not to the lock is missing on a fresh machine (this is how `lint-imports` once went missing in CI)."""
    import tomllib

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    wanted = _group_requirements(pyproject["dependency-groups"], "dev")
    wanted += [req for extra in ("torch", "viz") for req in pyproject["project"]["optional-dependencies"][extra]]
    lock = (REPO / "requirements" / "dev.lock").read_text(encoding="utf-8")
    pinned = {
        canonicalize_name(name): version for name, version in re.findall(r"^([A-Za-z0-9_.-]+)==(\S+)", lock, re.M)
    }
    missing = []
    for text in wanted:
        requirement = Requirement(text)
        name = canonicalize_name(requirement.name)
        if name == "torch":  # installed alone from the CPU wheels (scripts/setup.sh), pinned in constraints.txt
            continue
        if name not in pinned or pinned[name] not in requirement.specifier:
            missing.append(f"{text} (lock: {pinned.get(name, 'absent')})")
    assert not missing, "run `bash scripts/lock.sh`: the lock lacks " + ", ".join(missing)
