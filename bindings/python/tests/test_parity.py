"""The habits agent developers bring from LangGraph and mem0: tuple namespaces, typed metadata
values, clean reprs, times kept apart from log positions, one file opened twice in a process,
and an asyncio API."""

from __future__ import annotations

import asyncio
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

import oubli_db as oubli
from oubli_db.aio import AsyncStore


# -- tuple namespaces ------------------------------------------------------------------------


def test_tuple_namespaces_map_to_a_documented_string_and_back(store: oubli.Store) -> None:
    rid = store.inscribe("Ana's door code is 4417", namespace=("user", "ana"), key="door")
    row = store.get(rid)
    assert row.namespace == "user:ana"
    assert row.namespace_tuple == ("user", "ana")
    # Every call that takes a namespace takes the tuple, and the string names the same place.
    assert store.get_by_key("door", namespace=("user", "ana")).id == rid
    assert store.get_by_key("door", namespace="user:ana").id == rid
    assert [r.id for r in store.list(namespace=("user", "ana"))] == [rid]
    assert [h.id for h in store.recall("door code", namespace=("user", "ana"))] == [rid]
    assert store.list(namespace=("user", "ben")) == []
    assert oubli.Target.by_key("door", namespace=("user", "ana")) == oubli.Target.by_key(
        "door", namespace="user:ana"
    )
    report = store.purge(key="door", namespace=("user", "ana"))
    assert report.erased == [rid]


@pytest.mark.parametrize(
    "labels",
    [
        ("user", "ana"),
        ("org", "acme", "user", "ana"),
        ("a:b", "c\\d", ":", "\\"),
        ("single",),
        ("émile", "日本"),
    ],
)
def test_namespace_labels_round_trip(store: oubli.Store, labels: tuple[str, ...]) -> None:
    ns = oubli.join_namespace(labels)
    assert oubli.split_namespace(ns) == labels
    rid = store.inscribe("a memory", namespace=labels)
    assert store.get(rid).namespace == ns
    assert store.get(rid).namespace_tuple == labels


def test_bad_tuple_namespaces_are_refused(store: oubli.Store) -> None:
    with pytest.raises(oubli.InvalidInputError):
        store.inscribe("x", namespace=())
    with pytest.raises(oubli.InvalidInputError):
        store.inscribe("x", namespace=("user", ""))
    with pytest.raises(TypeError):
        store.inscribe("x", namespace=("user", 5))
    with pytest.raises(TypeError):
        store.inscribe("x", namespace=5)
    with pytest.raises(TypeError):
        oubli.join_namespace("user")
    assert store.list() == []


# -- metadata values -------------------------------------------------------------------------


def test_metadata_keeps_its_python_types(store: oubli.Store) -> None:
    meta = {"qty": 7, "price": 2.5, "paid": True, "note": "blue", "tiny": 1e-7, "tags": ["a", 1, False]}
    rid = store.inscribe("7 pens at $2 each", metadata=meta)
    got = store.get(rid).metadata
    assert got == meta
    # bool stays bool, int stays int (True == 1 in Python, so check the types too).
    assert type(got["paid"]) is bool and type(got["qty"]) is int and type(got["price"]) is float
    assert [type(x) for x in got["tags"]] == [str, int, bool]
    assert store.get(rid).to_dict()["metadata"] == meta
    # Typed filters find typed values; a bool is never taken for an int, nor text for a number.
    assert [r.id for r in store.list(filters={"qty": 7, "paid": True})] == [rid]
    assert [r.id for r in store.list(filters={"qty": 7.0})] == [rid]
    assert store.list(filters={"qty": 8}) == []
    assert store.list(filters={"qty": "7"}) == []
    assert store.list(filters={"paid": 1}) == []
    for bad in (float("nan"), float("inf"), 2**63):
        with pytest.raises(oubli.InvalidInputError):
            store.inscribe("x", metadata={"v": bad})
    for bad in (None, [[1]], {"a": 1}, b"x", [None]):
        with pytest.raises(TypeError):
            store.inscribe("x", metadata={"v": bad})


# -- reprs -----------------------------------------------------------------------------------


def test_reprs_are_python_not_rust(store: oubli.Store) -> None:
    a = store.inscribe("Ana's door code is 4417", key="door")
    b = store.inscribe('A "quoted" memory')
    reprs = [
        repr(store.get(a)),
        repr(store.get(b)),
        repr(store.recall("door code")[0]),
        repr(store.supersede(key="door", text="Ana's door code is 9051")),
        repr(oubli.Target.by_key("door")),
        repr(store.events()[0]),
        repr(store),
    ]
    report = store.purge(b)
    reprs += [repr(report), repr(store.get(b))]
    joined = "\n".join(reprs)
    for artefact in ("Some(", "\\\"", "Level("):
        assert artefact not in joined, joined
    assert "key='door'" in reprs[0]
    assert "text='A \"quoted\" memory'" in reprs[1]
    assert repr(store.get(b)).endswith("text=None)")
    # A completed purge names its completion seq as a number.
    assert f"completion_seq={report.completion_seq}" in repr(report)


# -- times and log positions -----------------------------------------------------------------


def test_valid_until_is_a_time_and_as_of_a_time_or_log_position(store: oubli.Store) -> None:
    in_a_day = store.inscribe("valid for a day", valid_until=timedelta(days=1))
    row = store.get(in_a_day)
    assert row.valid_until is not None
    assert abs(row.valid_until - (time.time() + 86_400) * 1000) < 60_000
    until = datetime(2099, 1, 1, tzinfo=timezone.utc)
    rid = store.inscribe("valid until 2099", valid_until=until)
    assert store.get(rid).valid_until == 4_070_908_800_000
    past = store.inscribe("expired", valid_until=timedelta(seconds=-1))
    assert past not in [r.id for r in store.list()]

    seq = store.get(rid).created_seq
    assert isinstance(seq, int) and oubli.LogSeq(seq) == seq
    # as_of takes the log position...
    at_seq = [r.id for r in store.list(as_of=oubli.LogSeq(seq))]
    assert at_seq == [in_a_day, rid]
    # ... or a time.
    before = [r.id for r in store.list(as_of=datetime(2001, 1, 1, tzinfo=timezone.utc))]
    assert before == []
    with pytest.raises(TypeError, match="valid_until must be datetime, timedelta or int"):
        store.inscribe("x", valid_until="2099-01-01")


# -- one file, two Store objects -------------------------------------------------------------


def test_a_second_store_on_the_same_file_shares_the_handle(path: Path) -> None:
    first = oubli.Store(path)
    second = oubli.Store(path)
    rid = first.inscribe("written through the first")
    assert second.get(rid).text == "written through the first"
    # The same file under another spelling of its path is the same file.
    third = oubli.Store(path.parent / "." / path.name)
    assert third.public_key == first.public_key
    third.close()
    # Closing one leaves the others open.
    first.close()
    with pytest.raises(oubli.StoreClosedError):
        first.get(rid)
    assert second.get(rid).id == rid
    second.inscribe("still writable")
    second.close()
    # Once every Store is closed the file is free: it opens again.
    with oubli.Store(path, create=False) as again:
        assert len(again.list()) == 2


def test_a_second_store_with_other_options_is_a_clear_error(path: Path) -> None:
    with oubli.Store(path):
        with pytest.raises(oubli.LockedError) as e:
            oubli.Store(path, signing_key=bytes(range(32)))
        assert e.value.code == "locked"
        assert "already open in this process" in str(e.value)
        with pytest.raises(oubli.ConflictError):
            oubli.Store(path, create=True)


def test_dropping_a_shared_store_without_closing_keeps_the_other(path: Path) -> None:
    keep = oubli.Store(path)
    other = oubli.Store(path)
    del other
    import gc

    gc.collect()
    keep.inscribe("fine")
    keep.close()
    with oubli.Store(path) as again:
        assert [r.text for r in again.list()] == ["fine"]


# -- asyncio ---------------------------------------------------------------------------------


def test_async_store_runs_every_call_off_the_event_loop(path: Path) -> None:
    async def main() -> None:
        async with await AsyncStore.open(path) as store:
            ids = await asyncio.gather(
                *(store.inscribe(f"memory number {i}", namespace=("user", "ana")) for i in range(8))
            )
            assert sorted(ids) == list(range(1, 9))
            hits = await store.recall("memory number 3", namespace=("user", "ana"), k=3)
            assert hits and hits[0].namespace == "user:ana"
            report = await store.purge(ids[0])
            assert report.erased == [ids[0]]
            assert (await store.verify_log()).events >= 9
            assert len(await store.list()) == 7
        assert store.closed

    asyncio.run(main())
