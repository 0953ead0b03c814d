"""bindings/README.md shows code copied from these tests: the snippets between
`# --8<-- [start:NAME]` and `# --8<-- [end:NAME]` markers must appear verbatim (dedented) in
the README, so the README cannot drift from code that runs."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

import oubli_db as oubli

HERE = Path(__file__).resolve().parent
README = HERE.parents[1] / "README.md"


def test_quickstart(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    # --8<-- [start:quickstart]
    import oubli_db as oubli

    with oubli.Store("agent.oubli") as store:
        store.inscribe("Ana's door code is 4417", namespace="user:ana", key="door")
        store.supersede(key="door", namespace="user:ana", text="Ana's door code is 9051")
        hits = store.recall("Ana's door code", namespace="user:ana")
        assert hits[0].text == "Ana's door code is 9051"
        report = store.purge(key="door", namespace="user:ana")  # both versions, file scrubbed
        oubli.verify_receipt(report.receipt.document, store.public_key)  # signed receipt
        store.verify_log()  # hash chain + signatures
    # --8<-- [end:quickstart]
    data = (tmp_path / "agent.oubli").read_bytes()
    # Whole phrases: a bare "4417" also turns up now and then in a receipt's hex digests.
    assert b"code is 4417" not in data and b"code is 9051" not in data
    assert len(report.erased) == 2


def snippets() -> dict[str, str]:
    found = {}
    pattern = re.compile(r"# --8<-- \[start:(\w+)\]\n(.*?)\n\s*# --8<-- \[end:\1\]", re.S)
    for f in sorted(HERE.glob("test_*.py")):
        for name, body in pattern.findall(f.read_text()):
            found[name] = textwrap.dedent(body).strip()
    return found


def test_readme_shows_the_tested_snippets() -> None:
    found = snippets()
    assert set(found) >= {"quickstart", "langgraph"}
    readme = README.read_text()
    for name, body in found.items():
        assert body in readme, f"bindings/README.md does not show the tested {name!r} snippet:\n{body}"
    quickstart = found["quickstart"].splitlines()
    assert len(quickstart) <= 10, len(quickstart)
