"""Typed metadata filters pushed into the engine: the operators of mem0 and LangGraph
($eq, $ne, $in, $gt, $gte, $lt, $lte, $exists), list membership, and `limit` / `k` counting
only matching rows."""

from __future__ import annotations

import pytest

import oubli_db as oubli


@pytest.fixture
def tickets(store: oubli.Store) -> dict[str, int]:
    rows = {
        "a": {"priority": 3, "tags": ["ops", "hw"], "team": "core", "score": 0.9},
        "b": {"priority": 1, "tags": ["hw"], "team": "web", "archived": True},
        "c": {"priority": 2.5, "tags": [], "team": "core"},
        "d": {"team": "data", "priority": "high"},
    }
    return {
        name: store.inscribe(f"ticket {name} about the printer", namespace="t", metadata=meta)
        for name, meta in rows.items()
    }


def names(ids: dict[str, int], rows: list[oubli.Row]) -> list[str]:
    by_id = {v: k for k, v in ids.items()}
    return sorted(by_id[r.id] for r in rows)


@pytest.mark.parametrize(
    ("flt", "expected"),
    [
        ({"team": "core"}, ["a", "c"]),
        ({"team": {"$eq": "core"}}, ["a", "c"]),
        ({"team": {"$ne": "core"}}, ["b", "d"]),
        ({"team": {"$in": ["web", "data"]}}, ["b", "d"]),
        ({"priority": {"$gte": 2}}, ["a", "c"]),
        ({"priority": {"$gt": 2, "$lt": 3}}, ["c"]),
        ({"priority": {"$lte": 1}}, ["b"]),
        # Strings compare with strings only, lexicographically.
        ({"priority": {"$gte": "a"}}, ["d"]),
        ({"tags": "hw"}, ["a", "b"]),
        ({"tags": {"$in": ["ops", "nope"]}}, ["a"]),
        ({"tags": {"$ne": "hw"}}, ["c", "d"]),
        ({"archived": {"$exists": True}}, ["b"]),
        ({"archived": {"$exists": False}}, ["a", "c", "d"]),
        ({"team": "core", "score": {"$exists": True}}, ["a"]),
        ({"score": {"$gt": 0.5}, "tags": "ops"}, ["a"]),
    ],
)
def test_filter_operators_on_list_and_recall(
    store: oubli.Store, tickets: dict[str, int], flt: dict, expected: list[str]
) -> None:
    assert names(tickets, store.list(filters=flt)) == expected
    hits = store.recall("printer ticket", k=10, filters=flt)
    assert names(tickets, [h.row for h in hits]) == expected


def test_limit_and_k_count_only_matching_rows(store: oubli.Store) -> None:
    for i in range(30):
        store.inscribe(f"apple note {i}", metadata={"i": i, "even": i % 2 == 0})
    rows = store.list(filters={"i": {"$gte": 20}}, limit=3)
    assert [r.metadata["i"] for r in rows] == [20, 21, 22]
    hits = store.recall("apple note", k=4, filters={"even": False, "i": {"$lt": 10}})
    assert len(hits) == 4
    assert all(h.metadata["i"] % 2 == 1 and h.metadata["i"] < 10 for h in hits)


def test_bad_filters_raise_typed_errors(store: oubli.Store) -> None:
    for bad in (
        {"x": {"$near": 1}},
        {"x": {}},
        {"x": {"$gt": True}},
        {"x": {"$gt": float("nan")}},
    ):
        with pytest.raises(oubli.InvalidInputError):
            store.list(filters=bad)
    for bad in (
        {"x": ["a", "b"]},
        {"x": {"$in": "ab"}},
        {"x": {"$exists": 1}},
        {"x": None},
        {1: "a"},
        ["x"],
    ):
        with pytest.raises(TypeError):
            store.list(filters=bad)


def test_memory_facade_passes_typed_metadata_and_operators(tmp_path) -> None:
    m = oubli.Memory(tmp_path / "m.oubli")
    m.add("Ana likes green tea", user_id="ana", metadata={"priority": 2, "tags": ["food"]})
    m.add("Ana's door code is 4417", user_id="ana", metadata={"priority": 5})
    found = m.search("Ana", user_id="ana", filters={"priority": {"$gte": 3}})
    results = found["results"] if isinstance(found, dict) else found
    assert [r["memory"] for r in results] == ["Ana's door code is 4417"]
    every = m.get_all(user_id="ana", filters={"tags": {"$in": ["food"]}})
    every = every["results"] if isinstance(every, dict) else every
    assert [r["metadata"] for r in every] == [{"priority": 2, "tags": ["food"]}]
    m.close()
