"""The mutation-time planner hook from Python: a callable receives the engine's plan request
as a dict and answers with a plan; the engine validates it, and falls back to its own
deterministic resolution when the planner fails or proposes something invalid."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import oubli_db as oubli

CAR = "Dmitri drives a Honda Civic."
ROW = "Dmitri lives in Riga and works at a bakery."


def test_a_valid_plan_from_a_python_callable_is_followed(tmp_path: Path) -> None:
    asked: list[dict[str, Any]] = []

    def planner(request: dict[str, Any]) -> dict[str, Any]:
        asked.append(request)
        row = next(c for c in request["candidates"] if "bakery" in c["text"])
        return {
            "targets": [{"id": row["id"], "clauses": [1], "rewrite": "Dmitri lives in Riga."}],
            "reason": "the job is the second clause",
        }

    with oubli.Store(tmp_path / "p.oubli", planner=planner) as store:
        store.inscribe(CAR)
        rid = store.inscribe(ROW)
        plan = store.plan("supersede", "Dmitri's job")
        assert plan.planner == {"outcome": "accepted", "detail": "the job is the second clause"}
        store.supersede("Dmitri's job", text="Dmitri now teaches piano.")
        assert store.get(rid).text == "Dmitri lives in Riga."
    assert asked[0]["format"] == "oubli-plan-request-1"
    assert asked[0]["op"] == "supersede"
    assert ROW in [c["text"] for c in asked[0]["candidates"]]


@pytest.mark.parametrize(
    "answer",
    [
        RuntimeError("the model is offline"),
        "{not json",
        {"targets": [{"id": 999}]},
        # A rewrite that drops a word of the kept clause is refused.
        {"targets": [{"id": 2, "clauses": [1], "rewrite": "Dmitri lives somewhere."}]},
    ],
)
def test_a_failing_or_invalid_planner_falls_back_to_the_deterministic_path(
    tmp_path: Path, answer: object
) -> None:
    def planner(request: dict[str, Any]) -> object:
        if isinstance(answer, Exception):
            raise answer
        return answer

    with oubli.Store(tmp_path / "p.oubli", planner=planner) as store:
        car = store.inscribe(CAR)
        store.inscribe(ROW)
        plan = store.plan("purge", "Honda Civic")
        assert plan.planner is not None and plan.planner["outcome"] == "rejected"
        assert plan.rows == [car]
        if isinstance(answer, Exception):
            assert "the model is offline" in plan.planner["detail"]


def test_a_planner_must_be_callable_and_is_not_shared(tmp_path: Path) -> None:
    with pytest.raises(TypeError):
        oubli.Store(tmp_path / "a.oubli", planner=42)  # type: ignore[arg-type]
    with oubli.Store(tmp_path / "b.oubli", planner=lambda r: {"targets": []}):
        # The file is open with this Store's own planner: a second handle cannot share it.
        with pytest.raises(oubli.LockedError):
            oubli.Store(tmp_path / "b.oubli")


def test_plan_names_the_nearest_candidates_of_a_no_match(tmp_path: Path) -> None:
    with oubli.Store(tmp_path / "n.oubli") as store:
        store.inscribe("Anna's phone number is 0612 345 678.")
        plan = store.plan("purge", "Priya's phone number")
        assert plan.rows == []
        assert plan.planner is None
        assert all({"id", "coverage", "reason"} <= set(r) for r in plan.rejected)
