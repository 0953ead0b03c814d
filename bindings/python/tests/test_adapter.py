"""The ForgetEval Adapter Protocol: a harness written against the six methods drives oubli
unchanged, and scores the conformance bank's adversarial cases exactly as the Rust runner does
(the failures listed in benches/ratchet.txt, no more, no fewer)."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest

import oubli_db as oubli
from conftest import holds_token
from oubli_db.adapter import Adapter, OubliAdapter

ROOT = Path(__file__).resolve().parents[3]
CASES = ROOT / "benches" / "cases"
RATCHET = ROOT / "benches" / "ratchet.txt"


def run_case(adapter: Adapter, case: dict, k: int = 10) -> tuple[list[str], list[str]]:
    """ForgetEval's scoring: every must_contain is a case-insensitive substring of the top-k
    texts joined, and no must_not_contain is. Returns (missing, leaked). Uses only the six
    protocol methods."""
    adapter.reset()
    for fact in case["setup_facts"]:
        adapter.inscribe(fact)
    for m in case["mutations"]:
        if m["op"] == "supersede":
            adapter.supersede(m["old_q"], m["new"])
        elif m["op"] == "release":
            adapter.release(m["q"])
        elif m["op"] == "purge":
            adapter.purge(m["q"])
        else:
            raise ValueError(m["op"])
    blob = "\n".join(adapter.recall_texts(case["final_query"], k)).lower()
    missing = [s for s in case["must_contain"] if s.lower() not in blob]
    leaked = [s for s in case["must_not_contain"] if s.lower() in blob]
    return missing, leaked


@pytest.fixture
def adapter():
    with OubliAdapter() as a:
        yield a


def test_implements_the_protocol(adapter: OubliAdapter) -> None:
    assert isinstance(adapter, Adapter)
    assert adapter.name == "oubli"


def test_six_methods(adapter: OubliAdapter) -> None:
    adapter.reset()
    a = adapter.inscribe("The staging password is tulip-4417")
    b = adapter.inscribe("Hannah likes green tea")
    adapter.inscribe("Hannah lives in Oslo")
    adapter.inscribe("Tom's bank PIN is 4821")
    assert isinstance(a, int) and b == a + 1
    assert adapter.recall_texts("staging password", 1) == ["The staging password is tulip-4417"]

    assert adapter.supersede("staging password", "The staging password is orchid-9051") is None
    joined = " ".join(adapter.recall_texts("staging password", 10))
    assert "orchid-9051" in joined and "tulip-4417" not in joined

    assert adapter.release("Hannah") == 2
    assert not any("Hannah" in t for t in adapter.recall_texts("Hannah", 10))
    assert adapter.release("Hannah") == 0  # nothing live matches any more

    path = Path(adapter.store.path)
    assert adapter.purge("Tom's bank PIN") == 1
    assert adapter.last_purge is not None and adapter.last_purge.receipt.verify()
    # As a token of its own: a bare "4821" turns up now and then inside a receipt's hex digests.
    assert not holds_token(path.read_bytes(), b"4821")
    assert adapter.purge("Tom's bank PIN") == 0

    # A supersede that matches nothing still records the new fact.
    adapter.supersede("the office wifi password", "The office wifi password is kiwi-77")
    assert "kiwi-77" in " ".join(adapter.recall_texts("office wifi password", 10))

    adapter.reset()
    assert adapter.recall_texts("staging password", 10) == []
    assert not path.exists()


def test_reset_gives_a_fresh_store_each_time(adapter: OubliAdapter) -> None:
    paths = set()
    for _ in range(3):
        adapter.reset()
        adapter.inscribe("one fact")
        paths.add(adapter.store.path)
        assert len(adapter.store.list()) == 1
    assert len(paths) == 3


def test_adapter_options(tmp_path: Path) -> None:
    with OubliAdapter(
        embedder=oubli.HashEmbedder(64), directory=tmp_path, store_options={"scrub_on_purge": False}
    ) as a:
        a.inscribe("Tom's bank PIN is 4821")
        assert a.store.dim == 64
        assert a.purge("Tom's bank PIN") == 1
        assert a.last_purge.completion_seq is None
    assert tmp_path.exists()  # a caller's directory is left in place


def _ratchet_failures() -> set[str]:
    failing, section = set(), None
    for line in RATCHET.read_text().splitlines():
        line = line.strip()
        if line.startswith("["):
            section = line.strip("[]")
        elif line and not line.startswith("#") and section == "adversarial":
            failing.add(line.split()[0])
    return failing


@pytest.fixture
def fast_adapter(tmp_path: Path):
    """An adapter whose store files live in memory (/dev/shm) when the machine has it: the
    bank commits thousands of times, and fsync on a disk dominates its running time."""
    shm = Path("/dev/shm")
    base = shm if shm.is_dir() and os.access(shm, os.W_OK) else tmp_path
    directory = Path(tempfile.mkdtemp(prefix="oubli-bank-", dir=base))
    try:
        with OubliAdapter(directory=directory) as a:
            yield a
    finally:
        shutil.rmtree(directory, ignore_errors=True)


@pytest.mark.skipif(not CASES.is_dir() or not RATCHET.is_file(), reason="the conformance bank is not in this checkout")
def test_adversarial_bank_scores_like_the_rust_runner(fast_adapter: OubliAdapter) -> None:
    adapter = fast_adapter
    cases = [json.loads(line) for f in sorted(CASES.glob("*.jsonl")) for line in f.read_text().splitlines() if line.strip()]
    assert len(cases) > 300
    failed = set()
    for case in cases:
        missing, leaked = run_case(adapter, case)
        if missing or leaked:
            failed.add(case["id"])
    expected = _ratchet_failures()
    assert failed == expected, {
        "fail here, pass in Rust": sorted(failed - expected),
        "pass here, fail in Rust": sorted(expected - failed),
    }
    passed = len(cases) - len(failed)
    print(f"ForgetEval adversarial through the Python adapter: {passed}/{len(cases)} passed")
