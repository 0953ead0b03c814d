"""oubli as a LangGraph store, tested with the real `langgraph` package: the BaseStore API
(sync, batch, async), parity with LangGraph's InMemoryStore, and a graph whose nodes write,
read, search and forget memories, where forgetting erases the bytes from the file."""

from __future__ import annotations

import asyncio
import operator
from pathlib import Path
from typing import Annotated, TypedDict

import pytest

langgraph = pytest.importorskip("langgraph", reason="langgraph is not installed (pip install langgraph)")

from langgraph.graph import END, START, StateGraph  # noqa: E402
from langgraph.store.base import (  # noqa: E402
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    MatchCondition,
    PutOp,
    SearchItem,
    SearchOp,
)
from langgraph.store.memory import InMemoryStore  # noqa: E402

import oubli_db as oubli  # noqa: E402
from conftest import raw_bytes  # noqa: E402
from oubli_db.langgraph import OubliStore  # noqa: E402


@pytest.fixture
def lg(path: Path):
    with OubliStore(path) as s:
        yield s


def test_is_a_base_store(lg: OubliStore) -> None:
    assert isinstance(lg, BaseStore)
    assert isinstance(lg.store, oubli.Store)
    assert lg.supports_ttl is True


def test_put_get_update_delete(lg: OubliStore, path: Path) -> None:
    ns = ("users", "ana")
    assert lg.get(ns, "diet") is None
    lg.put(ns, "diet", {"text": "Ana is vegetarian", "confidence": 0.9})
    item = lg.get(ns, "diet")
    assert isinstance(item, Item)
    assert (item.namespace, item.key, item.value) == (ns, "diet", {"text": "Ana is vegetarian", "confidence": 0.9})
    assert item.created_at == item.updated_at and item.created_at.tzinfo is not None

    lg.put(ns, "diet", {"text": "Ana is vegan"})
    updated = lg.get(ns, "diet")
    assert updated.value == {"text": "Ana is vegan"}
    assert updated.created_at == item.created_at and updated.updated_at >= item.updated_at
    # The earlier version is kept (submerged) until a forget erases the chain.
    row = lg.store.get_by_key("diet", namespace="lg:users.ana")
    assert [r.state for r in lg.store.history(row.id).chain] == ["submerged", "surface"]

    lg.delete(ns, "diet")
    assert lg.get(ns, "diet") is None
    data = raw_bytes(path)
    assert b"vegetarian" not in data and b"vegan" not in data
    lg.delete(ns, "diet")  # deleting a missing item is a no-op
    lg.put(ns, "diet", {"text": "Ana eats fish again"})
    assert lg.get(ns, "diet").value["text"] == "Ana eats fish again"


def test_put_none_deletes(lg: OubliStore) -> None:
    lg.put(("a",), "k", {"v": 1})
    lg.batch([PutOp(("a",), "k", None)])
    assert lg.get(("a",), "k") is None


def test_release_mode_keeps_history(path: Path) -> None:
    forgotten = []
    with OubliStore(path, forget="release", on_forget=lambda ns, k, r: forgotten.append((ns, k, r))) as lg:
        lg.put(("notes",), "n1", {"text": "temporary note about the offsite"})
        row_id = lg.store.get_by_key("n1", namespace="lg:notes").id
        lg.delete(("notes",), "n1")
        assert lg.get(("notes",), "n1") is None
        assert lg.search(("notes",), query="offsite") == []
        assert lg.store.get(row_id).state == "submerged"
        assert lg.store.get(row_id).text is not None
        assert forgotten == [(("notes",), "n1", [row_id])]


def test_purge_mode_reports_receipts(path: Path) -> None:
    reports = []
    with OubliStore(path, on_forget=lambda ns, k, r: reports.append(r)) as lg:
        lg.put(("crm",), "maria", {"phone": "+49 30 1234567"})
        lg.put(("crm",), "maria", {"phone": "+49 30 7654321"})
        lg.delete(("crm",), "maria")
        (report,) = reports
        assert isinstance(report, oubli.PurgeReport)
        assert len(report.erased) == 2  # both versions
        assert oubli.verify_receipt(report.receipt.document, lg.store.public_key).erased == report.erased


def test_search_with_query_prefix_filter_and_paging(lg: OubliStore) -> None:
    lg.put(("users", "ana", "prefs"), "food", {"text": "Ana loves spicy ramen", "kind": "food", "stars": 5})
    lg.put(("users", "ana", "prefs"), "music", {"text": "Ana listens to jazz", "kind": "music", "stars": 3})
    lg.put(("users", "ana", "facts"), "city", {"text": "Ana lives in Lisbon", "kind": "fact", "stars": 4})
    lg.put(("users", "bob", "prefs"), "food", {"text": "Bob loves ramen too", "kind": "food", "stars": 2})

    hits = lg.search(("users", "ana"), query="ramen")
    assert hits and isinstance(hits[0], SearchItem)
    assert hits[0].key == "food" and hits[0].namespace == ("users", "ana", "prefs")
    assert hits[0].score is not None and hits[0].score > 0
    assert all(h.namespace[:2] == ("users", "ana") for h in hits)

    everyone = lg.search(("users",), query="ramen", limit=10)
    assert {(h.namespace[1], h.key) for h in everyone[:2]} == {("ana", "food"), ("bob", "food")}

    assert [h.key for h in lg.search(("users",), filter={"kind": "food"})] == ["food", "food"]
    assert {h.key for h in lg.search(("users",), filter={"stars": {"$gte": 4}})} == {"food", "city"}
    assert [h.key for h in lg.search(("users",), query="Ana", filter={"kind": {"$ne": "food"}}, limit=1)] in (
        ["music"],
        ["city"],
    )
    listed = lg.search(("users", "ana"))
    assert [h.key for h in listed] == ["city", "music", "food"]  # newest first
    assert [h.key for h in lg.search(("users", "ana"), limit=1, offset=1)] == ["music"]
    assert lg.search(("nobody",), query="ramen") == []
    assert lg.search((), limit=100) and len(lg.search((), limit=100)) == 4


def test_list_namespaces(lg: OubliStore) -> None:
    for ns in [("a", "b", "c"), ("a", "b", "d"), ("a", "x"), ("z", "b")]:
        lg.put(ns, "k", {"v": 1})
    assert lg.list_namespaces() == [("a", "b", "c"), ("a", "b", "d"), ("a", "x"), ("z", "b")]
    assert lg.list_namespaces(prefix=("a", "b")) == [("a", "b", "c"), ("a", "b", "d")]
    assert lg.list_namespaces(suffix=("b",)) == [("z", "b")]
    assert lg.list_namespaces(prefix=("a", "*", "d")) == [("a", "b", "d")]
    assert lg.list_namespaces(max_depth=2) == [("a", "b"), ("a", "x"), ("z", "b")]
    assert lg.list_namespaces(limit=1, offset=1) == [("a", "b", "d")]
    lg.delete(("a", "x"), "k")
    assert ("a", "x") not in lg.list_namespaces()


def test_batch_runs_in_order(lg: OubliStore) -> None:
    results = lg.batch(
        [
            PutOp(("b",), "k1", {"text": "first"}),
            GetOp(("b",), "k1"),
            PutOp(("b",), "k1", {"text": "second"}),
            GetOp(("b",), "k1"),
            SearchOp(("b",), query="second"),
            ListNamespacesOp(match_conditions=(MatchCondition("prefix", ("b",)),)),
            GetOp(("b",), "missing"),
        ]
    )
    assert results[0] is None and results[2] is None
    assert results[1].value == {"text": "first"} and results[3].value == {"text": "second"}
    assert [h.key for h in results[4]] == ["k1"]
    assert results[5] == [("b",)]
    assert results[6] is None


def test_async_variants(lg: OubliStore) -> None:
    async def main() -> None:
        await lg.aput(("async",), "k", {"text": "async memory about sailing"})
        item = await lg.aget(("async",), "k")
        assert item.value["text"] == "async memory about sailing"
        found = await lg.asearch(("async",), query="sailing")
        assert [h.key for h in found] == ["k"]
        assert await lg.alist_namespaces() == [("async",)]
        results = await asyncio.gather(*(lg.aput(("async", "many"), f"k{i}", {"i": i}) for i in range(8)))
        assert results == [None] * 8
        assert len(await lg.asearch(("async", "many"), limit=20)) == 8
        await lg.adelete(("async",), "k")
        assert await lg.aget(("async",), "k") is None

    asyncio.run(main())


def test_invalid_namespaces_and_values(lg: OubliStore) -> None:
    with pytest.raises(InvalidNamespaceError):
        lg.put((), "k", {"v": 1})
    with pytest.raises(InvalidNamespaceError):
        lg.put(("a.b",), "k", {"v": 1})
    with pytest.raises(InvalidNamespaceError):
        lg.batch([GetOp(("a.b",), "k")])
    with pytest.raises(oubli.InvalidInputError):
        lg.put(("a",), "", {"v": 1})
    with pytest.raises(TypeError):
        lg.put(("a",), "k", {"v": object()})
    with pytest.raises(oubli.InvalidInputError):
        lg.put(("a",), "k", {"v": "x" * (70 * 1024)})
    with pytest.raises(oubli.InvalidInputError):
        lg.put(("a",), "k", {"v": 1}, ttl=-5)


def test_index_config_with_custom_embeddings(path: Path) -> None:
    calls = []

    def embed(texts: list[str]) -> list[list[float]]:
        calls.append(list(texts))
        out = []
        for t in texts:
            v = [0.0] * 8
            v[0 if "cat" in t else 1] = 1.0
            v[7] = 0.1
            out.append(v)
        return out

    with _store_with_dim(path, 8) as s:
        lg = OubliStore(s, index={"dims": 8, "embed": embed, "fields": ["body"]})
        lg.put(("pets",), "a", {"body": "a cat sleeps", "title": "zzz"})
        lg.put(("pets",), "b", {"body": "a dog barks", "title": "zzz"})
        assert ["a cat sleeps"] in calls and ["a dog barks"] in calls
        hits = lg.search(("pets",), query="cat")
        assert hits[0].key == "a"
        with pytest.raises(ValueError):
            OubliStore(s, index={"dims": 9, "embed": embed})


def _store_with_dim(path: Path, dim: int) -> oubli.Store:
    class Dummy:
        id = f"dummy-{dim}"

        def __init__(self) -> None:
            self.dim = dim

        def embed(self, text: str) -> list[float]:
            return [1.0] + [0.0] * (dim - 1)

    return oubli.Store(path, embedder=Dummy())


def test_parity_with_in_memory_store(path: Path) -> None:
    """The same calls give the same items (values, keys, namespaces) as LangGraph's own store."""
    ops = [
        ("put", ("docs", "a"), "1", {"title": "alpha", "n": 1}),
        ("put", ("docs", "a"), "2", {"title": "beta", "n": 2}),
        ("put", ("docs", "b"), "1", {"title": "gamma", "n": 3}),
        ("put", ("docs", "a"), "1", {"title": "alpha v2", "n": 4}),
        ("delete", ("docs", "a"), "2", None),
        ("put", ("other",), "x", {"title": "delta", "n": 5}),
    ]
    mem = InMemoryStore()
    with OubliStore(path) as ours:
        for store in (mem, ours):
            for op, ns, key, value in ops:
                store.put(ns, key, value) if op == "put" else store.delete(ns, key)

        def view(items):
            return sorted((i.namespace, i.key, tuple(sorted(i.value.items()))) for i in items)

        for prefix, flt in [(("docs",), None), (("docs", "a"), None), ((), {"n": {"$gt": 2}}), (("docs",), {"title": "gamma"})]:
            assert view(ours.search(prefix, filter=flt, limit=50)) == view(mem.search(prefix, filter=flt, limit=50))
        # (InMemoryStore's get creates empty namespaces, so list namespaces first.)
        assert ours.list_namespaces() == mem.list_namespaces()
        assert ours.list_namespaces(prefix=("docs",), max_depth=1) == mem.list_namespaces(prefix=("docs",), max_depth=1)
        for ns, key in [(("docs", "a"), "1"), (("docs", "a"), "2"), (("docs", "b"), "1"), (("nope",), "1")]:
            a, b = ours.get(ns, key), mem.get(ns, key)
            assert (a is None) == (b is None)
            if a is not None:
                assert (a.namespace, a.key, a.value) == (b.namespace, b.key, b.value)


# -- a real graph ---------------------------------------------------------------------------------


class State(TypedDict):
    user: str
    facts: list[str]
    question: str
    recalled: Annotated[list[str], operator.add]
    forget: str


def remember(state: State, *, store: BaseStore) -> dict:
    for i, fact in enumerate(state["facts"]):
        store.put(("memories", state["user"]), f"fact-{i}", {"text": fact})
    return {}


# --8<-- [start:langgraph_node]
def recall(state: State, *, store: BaseStore) -> dict:
    hits = store.search(("memories", state["user"]), query=state["question"], limit=3)
    return {"recalled": [h.value["text"] for h in hits]}
# --8<-- [end:langgraph_node]


def forget(state: State, *, store: BaseStore) -> dict:
    for item in store.search(("memories", state["user"]), query=state["forget"], limit=10):
        if state["forget"].lower() in item.value["text"].lower():
            store.delete(item.namespace, item.key)
    return {}


def test_graph_writes_reads_searches_and_forgets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    # --8<-- [start:langgraph]
    from langgraph.graph import StateGraph
    from oubli_db.langgraph import OubliStore

    store = OubliStore("memories.oubli", forget="purge")  # delete = erase + signed receipt
    builder = StateGraph(State)
    builder.add_node("remember", remember)  # nodes take `store: BaseStore`
    builder.add_node("recall", recall)
    builder.add_node("forget", forget)
    builder.add_edge(START, "remember")
    builder.add_edge("remember", "recall")
    builder.add_edge("recall", "forget")
    builder.add_edge("forget", END)
    graph = builder.compile(store=store)
    # --8<-- [end:langgraph]

    out = graph.invoke(
        {
            "user": "ana",
            "facts": [
                "Ana's passport number is X1234567",
                "Ana prefers window seats",
                "Ana is allergic to peanuts",
            ],
            "question": "What is Ana's passport number?",
            "recalled": [],
            "forget": "passport",
        }
    )
    assert out["recalled"][0] == "Ana's passport number is X1234567"
    remaining = store.search(("memories", "ana"), limit=10)
    assert sorted(i.value["text"] for i in remaining) == ["Ana is allergic to peanuts", "Ana prefers window seats"]
    assert all("passport" not in i.value["text"] for i in store.search(("memories", "ana"), query="passport number"))
    assert b"X1234567" not in raw_bytes(tmp_path / "memories.oubli")
    store.store.verify_log()

    # A second run on the same store recalls what is left.
    out2 = graph.invoke(
        {"user": "ana", "facts": [], "question": "window or aisle?", "recalled": [], "forget": "nothing-matches"}
    )
    assert "Ana prefers window seats" in out2["recalled"]
    store.close()


class _Clock:
    """A settable clock in epoch milliseconds (starts at the real time: the engine's own
    validity check uses the system clock, which never runs ahead of this one here)."""

    def __init__(self) -> None:
        import time

        self.ms = int(time.time() * 1000)

    def __call__(self) -> int:
        return self.ms


def test_ttl_expires_items_and_reads_refresh_them(path: Path) -> None:
    clock = _Clock()
    with OubliStore(path, clock=clock) as lg:
        ns = ("users", "ana")
        lg.put(ns, "plan", {"text": "Ana flies to Lyon"}, ttl=10)
        lg.put(ns, "diet", {"text": "Ana is vegetarian"})  # no TTL: never expires
        t0 = clock.ms
        row = lg.store.get_by_key("plan", namespace="lg:users.ana")
        assert row.valid_until == t0 + 10 * 60_000

        # A read without refresh leaves the expiry; a read with refresh pushes it back.
        clock.ms = t0 + 5 * 60_000
        assert lg.get(ns, "plan", refresh_ttl=False) is not None
        assert lg.store.get_by_key("plan", namespace="lg:users.ana").valid_until == t0 + 10 * 60_000
        item = lg.get(ns, "plan")
        assert item is not None and item.value == {"text": "Ana flies to Lyon"}
        refreshed = lg.store.get_by_key("plan", namespace="lg:users.ana")
        assert refreshed.valid_until == clock.ms + 10 * 60_000
        assert refreshed.text == row.text

        # Past the expiry, get, search and list_namespaces no longer see it.
        clock.ms = t0 + 16 * 60_000
        assert lg.get(ns, "plan") is None
        assert [i.key for i in lg.search(ns)] == ["diet"]
        assert "plan" not in [i.key for i in lg.search(ns, query="Ana flies to Lyon")]
        assert lg.get(ns, "diet") is not None

        # A put on an expired key makes a new item.
        lg.put(ns, "plan", {"text": "Ana flies to Nice"}, ttl=1)
        again = lg.get(ns, "plan", refresh_ttl=False)
        assert again is not None and again.value == {"text": "Ana flies to Nice"}
        assert again.created_at == again.updated_at


def test_ttl_config_default_and_refresh_on_read(path: Path) -> None:
    clock = _Clock()
    with OubliStore(path, clock=clock, ttl={"default_ttl": 2, "refresh_on_read": False}) as lg:
        lg.put(("a",), "k", {"v": 1})
        row = lg.store.get_by_key("k", namespace="lg:a")
        assert row.valid_until == clock.ms + 2 * 60_000
        clock.ms += 60_000
        assert lg.get(("a",), "k") is not None
        assert lg.store.get_by_key("k", namespace="lg:a").id == row.id  # not refreshed
        lg.put(("a",), "n", {"v": 2}, ttl=None)
        assert lg.store.get_by_key("n", namespace="lg:a").valid_until is None
