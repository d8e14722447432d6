"""`scripts/bench.py` runs and prints well-formed tables for every engine (no timing assertions)."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCH_PATH = ROOT / "scripts" / "bench.py"


def load_bench():
    """Import scripts/bench.py as a module (it is a script, not part of the package)."""
    spec = importlib.util.spec_from_file_location("glassgrad_bench", BENCH_PATH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


bench = load_bench()


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
def quick_report() -> str:
    """The stdout of one `bench.py --quick --no-readme` run (README.md must stay untouched)."""
    pytest.importorskip("micrograd")
    pytest.importorskip("torch")
    readme_before = (ROOT / "README.md").read_text(encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, str(BENCH_PATH), "--quick", "--no-readme"],
        capture_output=True, text=True, timeout=600, cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr
    assert (ROOT / "README.md").read_text(encoding="utf-8") == readme_before
    return proc.stdout


def test_every_table_is_rectangular(quick_report: str) -> None:
    tables = markdown_tables(quick_report)
    assert len(tables) == 4  # MLP, chains, memory, targets
    for table in tables:
        header = table[0]
        assert all(len(row) == len(header) for row in table), table


def test_mlp_table_has_every_engine_with_positive_times(quick_report: str) -> None:
    mlp = markdown_tables(quick_report)[0]
    header, rows = mlp[0], {row[0]: row for row in mlp[1:]}
    assert list(rows) == list(bench.ENGINES.values())
    for name, row in rows.items():
        for column in ("forward ms", "backward ms", "total ms"):
            assert float(row[header.index(column)].replace(",", "")) > 0, (name, column)
    assert rows[bench.ENGINES["glassgrad"]][header.index("× glassgrad")] == "1.00×"


def test_mlp_node_counts_are_the_engines_own(quick_report: str) -> None:
    """glassgrad and micrograd build the same graph from the same code, so their node counts agree."""
    mlp = markdown_tables(quick_report)[0]
    rows = {row[0]: row for row in mlp[1:]}
    glassgrad_nodes = rows[bench.ENGINES["glassgrad"]][1]
    assert glassgrad_nodes == rows[bench.ENGINES["micrograd"]][1]
    sizes = bench.QUICK
    n_params = sizes.n_hidden * (sizes.n_in + 1) + sizes.n_hidden + 1
    assert int(glassgrad_nodes.replace(",", "")) > n_params + sizes.n_points * sizes.n_in


def test_engines_agree_on_loss_and_gradients(quick_report: str) -> None:
    assert "agree across engines: yes" in quick_report


def test_chain_table_has_every_length_and_engine(quick_report: str) -> None:
    chains = markdown_tables(quick_report)[1]
    header = chains[0]
    for engine in ("glassgrad", "micrograd", "PyTorch", "plain Python"):
        assert f"{engine} ms" in header and f"{engine} peak MiB" in header
    assert [row[0] for row in chains[1:]] == [bench.fmt_count(n) for n in bench.QUICK.chains]
    glassgrad_column = header.index("glassgrad ms")
    assert all(float(row[glassgrad_column].replace(",", "")) > 0 for row in chains[1:])


def test_plain_python_baseline_growth_is_reported_from_its_own_column(quick_report: str) -> None:
    chains = markdown_tables(quick_report)[1]
    column = chains[0].index("plain Python ms")
    shorter, longest = (float(row[column].replace(",", "")) for row in chains[-2:])
    growth = float(re.search(r"the plain-Python baseline chain grows ([0-9.]+)×", quick_report).group(1))
    column_growth = float(chains[-1][chains[0].index("plain Python time ÷ previous")].rstrip("×"))
    assert abs(column_growth - growth) <= 0.051  # the same ratio, to 1 and to 2 decimals (8.65 shows as 8.6 or 8.7)
    assert growth == pytest.approx(longest / shorter, rel=0.1)  # the cells are rounded for display


def test_micrograd_recursion_limit_is_a_failure_cell_not_a_crash(quick_report: str) -> None:
    chains = markdown_tables(quick_report)[1]
    longest = chains[-1]  # 2,000 nodes: deeper than micrograd's recursive topological sort can go
    assert longest[chains[0].index("micrograd ms")] == "fails: RecursionError"
    shortest = chains[1]  # 200 nodes: every round runs it, even after the 2,000 chain failed in round one
    assert float(shortest[chains[0].index("micrograd ms")]) > 0
    assert "fails" not in longest[chains[0].index("glassgrad ms")]


def test_memory_table_reports_bytes_per_node(quick_report: str) -> None:
    memory = markdown_tables(quick_report)[2]
    rows = {row[0]: row for row in memory[1:]}
    assert set(rows) == {bench.ENGINES["glassgrad"], bench.ENGINES["micrograd"]}
    assert all(float(row[2]) > 0 and float(row[3]) >= 1 for row in rows.values())  # bytes, tracked objects


def test_every_target_reports_pass_or_fail(quick_report: str) -> None:
    targets = markdown_tables(quick_report)[3]
    assert targets[0] == ["target", "measured", "result"]
    assert len(targets) == 1 + 5
    assert all(row[2] in ("PASS", "FAIL") and row[1].endswith("×") for row in targets[1:])


def test_readme_section_is_replaced_between_the_markers_only() -> None:
    text = f"intro\n{bench.START_MARKER}\nold table\n{bench.END_MARKER}\noutro\n"
    replaced = bench.replace_readme_section(text, "new table")
    assert replaced == f"intro\n{bench.START_MARKER}\nnew table\n{bench.END_MARKER}\noutro\n"
    assert bench.replace_readme_section(replaced, "new table") == replaced


def test_readme_section_without_markers_is_an_error() -> None:
    with pytest.raises(ValueError, match="bench:start"):
        bench.replace_readme_section("no markers here", "table")


def test_readme_has_one_bench_section() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert readme.count(bench.START_MARKER) == 1 and readme.count(bench.END_MARKER) == 1
    assert readme.index("## Benchmark") < readme.index(bench.START_MARKER) < readme.index(bench.END_MARKER)


def test_chain_table_counts_glassgrads_full_collections(quick_report: str) -> None:
    chains = markdown_tables(quick_report)[1]
    column = chains[0].index("glassgrad full collections")
    assert all(row[column].isdigit() for row in chains[1:])


def test_time_chain_counts_the_full_collections_of_each_run() -> None:
    """200,000 tracked objects are past Python's threshold for a full collection in any process."""
    result = bench.time_chain("plain", 200_000, 1)
    assert len(result["times_ms"]) == 1 and result["times_ms"][0] > 0
    assert result["full_collections"][0] >= 1
    assert bench.time_chain("plain", 10, 2)["full_collections"] == [0, 0]


def test_chain_rounds_merge_into_the_median_run_and_the_highest_peak() -> None:
    rounds = [
        {"times_ms": [30.0, 10.0], "peak_mib": 5.0, "full_collections": [3, 1]},
        {"times_ms": [20.0], "peak_mib": 7.0, "full_collections": [2]},
    ]
    assert bench.merge_chain_rounds(rounds) == {"ms": 20.0, "peak_mib": 7.0, "full_collections": 2}
    error = {"error": "RecursionError"}
    assert bench.merge_chain_rounds([rounds[0], error]) == error
