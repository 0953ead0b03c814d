"""Confidence grades in plans, and a store's floor below which a forgetting call does not act
(``Store(..., min_confidence=...)``)."""

from __future__ import annotations

from pathlib import Path

import pytest

import oubli_db as oubli

PHONE = "Tom Hale's phone number is +44 7700 900123."
CITY = "Tom Hale lives in Bristol."


def test_a_plan_grades_each_match(tmp_path: Path) -> None:
    with oubli.Store(tmp_path / "c.oubli") as store:
        store.inscribe_many([PHONE, CITY])
        full = store.plan("purge", "Tom Hale's phone number")
        assert full.rows == [1]
        assert full.confidence == "high"
        assert [m["confidence"] for m in full.matches] == ["high"]
        partial = store.plan("purge", "Tom Hale's work phone number")
        assert partial.rows == [1]
        assert partial.confidence == "medium"
        nothing = store.plan("purge", "Priya's phone number")
        assert nothing.rows == [] and nothing.confidence is None


def test_a_floor_makes_a_weaker_match_a_no_match(tmp_path: Path) -> None:
    path = tmp_path / "f.oubli"
    with oubli.Store(path) as store:
        store.inscribe_many([PHONE, CITY])
    with oubli.Store(path, min_confidence="high") as store:
        assert store.plan("purge", "Tom Hale's work phone number").rows == []
        with pytest.raises(oubli.NoMatchError):
            store.purge("Tom Hale's work phone number")
        assert len(store.list()) == 2
        store.purge("Tom Hale's phone number")
        assert [r.text for r in store.list()] == [CITY]
    with pytest.raises(ValueError):
        oubli.Store(tmp_path / "g.oubli", min_confidence="sure")
