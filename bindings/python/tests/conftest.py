"""Shared fixtures. The tests import the installed `oubli_db` package (pip install ./bindings/python)."""

from __future__ import annotations

import re
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


def holds_token(data: bytes, needle: bytes) -> bool:
    """True if `needle` occurs in `data` as a whole token, not inside a run of ASCII letters and
    digits. A short number such as a PIN occurs by chance inside the hex digests of receipts,
    hashes and index file names; as a token of its own it would be the erased text."""
    return re.search(rb"(?<![0-9A-Za-z])" + re.escape(needle) + rb"(?![0-9A-Za-z])", data) is not None


def raw_bytes(path: Path) -> bytes:
    """Every byte of the store file and any file beside it that the store owns."""
    data = path.read_bytes()
    for extra in path.parent.glob(path.name + "*"):
        if extra != path and extra.is_file():
            data += extra.read_bytes()
    return data
