"""Shared fixtures. The tests import the installed `oubli_db` package (pip install ./bindings/python)."""

from __future__ import annotations

from pathlib import Path

import pytest

import oubli_db as oubli


@pytest.fixture
def path(tmp_path: Path) -> Path:
    """A path where no store exists yet."""
    return tmp_path / "test.oubli"


@pytest.fixture
def store(path: Path):
    """A fresh store, closed after the test."""
    s = oubli.Store(path, create=True)
    yield s
    s.close()


def raw_bytes(path: Path) -> bytes:
    """Every byte of the store file and any file beside it that the store owns."""
    data = path.read_bytes()
    for extra in path.parent.glob(path.name + "*"):
        if extra != path and extra.is_file():
            data += extra.read_bytes()
    return data
