"""`scripts/bench.py` runs every engine under pyperf and prints well-formed tables (no timing assertions)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from helpers import REPO as ROOT


def markdown_tables(text: str) -> list[list[list[str]]]:
    """Every markdown table in `text`, as rows of stripped cells (separator rows dropped)."""
    tables: list[list[list[str]]] = []
    current: list[list[str]] = []
    for line in text.splitlines() + [""]:
        if line.startswith("|"):
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            if not all(set(cell) <= set("-: ") for cell in cells):
                current.append(cells)
        elif current:
            tables.append(current)
            current = []
    return tables


@pytest.fixture(scope="module")
def quick_tables() -> list[list[list[str]]]:
    pytest.importorskip("micrograd")
    pytest.importorskip("torch")
    pytest.importorskip("pyperf")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "scripts/bench.py", "--quick"], capture_output=True, text=True, timeout=300, cwd=ROOT
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert (ROOT / "README.md").read_text(encoding="utf-8") == readme  # the script never edits files
    return markdown_tables(run.stdout)


def test_tables_name_every_engine_with_a_number_or_the_failure(quick_tables) -> None:
    mlp, moons, chain, targets = quick_tables
    assert [row[0] for row in mlp[1:]] == [
        "glassgrad `L.backward()`",
        "glassgrad `backward(L)` (steps recorded)",
        "micrograd 0.1.0",
        "PyTorch scalar tensors (float64)",
    ]
    assert mlp[1][2] == "1.00×" and all(float(row[1].replace(",", "")) > 0 for row in mlp[1:])
    assert [row[0] for row in moons[1:]] == ["glassgrad `nn.MLP`", "micrograd 0.1.0 `nn.MLP`"]
    assert moons[1][2] == "1.00×" and all(float(row[1].replace(",", "")) > 0 for row in moons[1:])
    assert float(mlp[1][3]) < float(mlp[3][3])  # glassgrad gives the collector fewer objects than micrograd
    assert chain[-1][:2] == ["micrograd 0.1.0", "fails: RecursionError"]  # its recursive sort, 2,000 deep
    assert len(targets) == 4 and all(row[2] in ("PASS", "FAIL") for row in targets[1:])
    assert all(len(row) == len(table[0]) for table in quick_tables for row in table)
