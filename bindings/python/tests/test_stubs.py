"""The type stubs (_oubli.pyi) match the compiled module: mypy's stubtest compares every class,
method, parameter and default. Skipped when mypy is not installed."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytest.importorskip("mypy", reason="mypy is not installed (pip install mypy)")


def test_stubs_match_the_extension_module(tmp_path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "oubli_db._oubli"],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tmp_path,
    )
    assert out.returncode == 0, out.stdout + out.stderr


def test_package_type_checks_strictly(tmp_path) -> None:
    """The package's Python modules (adapter, LangGraph store, embeddings, errors) pass
    `mypy --strict` against the stubs."""
    out = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", "--cache-dir", os.devnull, "--strict", "-p", "oubli_db"],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tmp_path,
    )
    assert out.returncode == 0, out.stdout + out.stderr


def test_typed_use_of_the_api_checks(tmp_path) -> None:
    code = """
import oubli_db as oubli
from oubli_db.adapter import Adapter, OubliAdapter
with oubli.Store("x.oubli") as s:
    rid: int = s.inscribe("text", metadata={"a": "b"})
    hits: list[oubli.Hit] = s.recall("text", k=3)
    report: oubli.PurgeReport = s.purge(rid)
    ok: bool = report.receipt.verify(s.public_key)
adapter: Adapter = OubliAdapter()
bad: str = s.inscribe("text")
"""
    out = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", "--cache-dir", os.devnull, "--strict", "-c", code],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tmp_path,
    )
    # Exactly the one deliberate error: inscribe returns int, not str.
    assert out.returncode == 1, out.stdout + out.stderr
    errors = [line for line in out.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 1 and "Incompatible types" in errors[0], out.stdout
