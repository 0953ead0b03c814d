"""Per-user scoping: the user rule, Store.forget_user, the Memory facade (mem0's verbs), and
aliases / compaction / recompute reached from Python."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

import oubli_db as oubli
from conftest import raw_bytes


def _layout(store: oubli.Store) -> dict[str, list[int]]:
    rows: dict[str, list[int]] = {"ana": [], "others": []}
    for text, ns, mine in [
        ("Ana's door code is QZX-4417", ("user", "ana"), True),
        ("Ana prefers green tea in the morning", ("user", "ana", "notes"), True),
        ("Bob's door code is QZX-9051", ("user", "bob"), False),
        ("Anastasia keeps locker 12", ("user", "anastasia"), False),
        ("Ana X keeps bees", ("user", "ana:x"), False),
        ("The rota changes on Monday", "team:support", False),
    ]:
        rows["ana" if mine else "others"].append(store.inscribe(text, namespace=ns))
    return rows


def test_the_user_rule_matches_the_mcp_server() -> None:
    assert oubli.user_namespace("ana") == "user:ana"
    assert oubli.user_namespace("a:b") == "user:a\\:b"
    s = oubli.Scope(user_id="ana", agent_id="planner", run_id="r1")
    assert s.namespace == "user:ana"
    assert s.inscribe_kwargs({"topic": "food"}) == {
        "namespace": "user:ana",
        "metadata": {"topic": "food", "agent_id": "planner", "run_id": "r1"},
    }
    assert s.recall_kwargs() == {"namespace": "user:ana", "filters": {"agent_id": "planner", "run_id": "r1"}}
    assert oubli.Scope(user_id="ana", namespace_override=("team", "x")).namespace == "team:x"
    assert oubli.Scope().namespace is None
    with pytest.raises(TypeError):
        oubli.user_namespace(7)  # type: ignore[arg-type]


def test_forget_user_erases_one_user_across_namespaces(store: oubli.Store, path: Path) -> None:
    rows = _layout(store)
    assert store.plan_forget_user("ana") == rows["ana"]
    report = store.forget_user("ana")
    assert report.erased == rows["ana"]
    assert report.opening.selector == "user:ana"
    assert report.receipt.verify(store.public_key)
    assert report.receipt.check_opening(report.opening)
    assert oubli.verify_receipt(report.receipt.document, store.public_key)
    assert len(store.receipts()) == 1
    for i in rows["others"]:
        assert store.get(i).text is not None
    for i in rows["ana"]:
        assert store.get(i).state == "void"
    data = raw_bytes(path)
    assert b"QZX-4417" not in data and b"green tea" not in data
    assert b"QZX-9051" in data
    with pytest.raises(oubli.NoMatchError):
        store.forget_user("ana")
    with pytest.raises(oubli.NoMatchError):
        store.forget_user("carol")
    assert len(store.receipts()) == 1


def test_async_forget_user(store: oubli.Store) -> None:
    rows = _layout(store)

    async def go() -> list[int]:
        a = oubli.AsyncStore(store)
        assert await a.plan_forget_user("ana") == rows["ana"]
        return (await a.forget_user("ana")).erased

    assert asyncio.run(go()) == rows["ana"]


def test_aliases_compaction_and_recompute_from_python(store: oubli.Store) -> None:
    g = store.declare_alias(("user", "ana"), ["Ana Lopez", "ana.lopez@example.com"])
    assert g["namespace"] == "user:ana" and g["kind"] == "person"
    assert g["forms"] == ["Ana Lopez", "ana.lopez@example.com"]
    store.inscribe("Ana Lopez lives in Lyon", namespace=("user", "ana"))
    shared = store.inscribe("Ticket opened by ana.lopez@example.com", namespace="crm")
    namesake = store.inscribe("Ana Lopez from accounting approved it", namespace="crm")
    assert [a["id"] for a in store.aliases(("user", "ana"))] == [g["id"]]
    with pytest.raises(oubli.InvalidInputError):
        store.declare_alias("crm", ["x"], kind="planet")
    report = store.forget_user("ana")
    assert shared in report.erased and namesake not in report.erased
    assert store.aliases() == []
    g2 = store.declare_alias("crm", ["Bob", "bob@example.com"], kind="account")
    store.remove_alias(g2["id"])
    assert store.aliases() == []

    a = store.inscribe("Flight AF123 departs at 09:40", namespace="trip")
    store.inscribe("Hotel check-in is after 15:00", namespace="trip")
    dry = store.compact(400, namespace="trip", dry_run=True)
    # No query: no row is answer-determining; both rows are kept as other sources.
    assert dry["id"] is None and dry["complete"] is True and dry["kept"] == dry["total"] == 0
    assert "AF123" in dry["text"] and "15:00" in dry["text"] and dry["dropped"] == []
    note = store.compact(400, namespace="trip")
    assert note["id"] is not None and "AF123" in store.get(note["id"]).text
    with pytest.raises(oubli.OubliError):
        store.recompute(a)  # a source row has no derivation to recompute


def test_memory_facade_speaks_mem0(path: Path) -> None:
    with oubli.Memory(path) as m:
        added = m.add(
            [
                {"role": "system", "content": "You are helpful"},
                {"role": "user", "content": "I'm vegetarian and allergic to peanuts"},
            ],
            user_id="ana",
            agent_id="chef",
            metadata={"topic": "food"},
        )
        assert [r["event"] for r in added["results"]] == ["ADD"]
        mid = added["results"][0]["id"]
        m.add("Bob likes spicy food", user_id="bob")
        with pytest.raises(ValueError):
            m.add("nobody's")

        found = m.search("what does she eat", user_id="ana")["results"]
        assert [r["memory"] for r in found] == ["I'm vegetarian and allergic to peanuts"]
        item = found[0]
        assert item["user_id"] == "ana" and item["agent_id"] == "chef"
        assert item["metadata"] == {"topic": "food"} and 0 < item["score"] <= 1
        assert m.search("food", user_id="ana", agent_id="other")["results"] == []
        assert [r["id"] for r in m.get_all(user_id="ana")["results"]] == [mid]

        up = m.update(mid, "I'm vegan and allergic to peanuts")
        new_id = up["id"]
        assert new_id != mid
        assert m.get(mid)["memory"] == "I'm vegan and allergic to peanuts"  # follows the update
        assert [h["event"] for h in m.history(mid)] == ["ADD", "UPDATE"]
        assert m.history(mid)[1]["old_memory"] == "I'm vegetarian and allergic to peanuts"

        gone = m.delete(mid)
        assert sorted(gone["erased"]) == sorted([mid, new_id])
        assert gone["receipt"].verify(m.store.public_key)
        assert m.get(mid) is None and m.get(new_id) is None
        with pytest.raises(oubli.NotFoundError):
            m.delete(mid)

        m.add("Ana runs on Sundays", user_id="ana", run_id="s1")
        m.add("Ana swims on Fridays", user_id="ana", run_id="s2")
        by_run = m.delete_all(user_id="ana", run_id="s1")
        assert len(by_run["erased"]) == 1
        everything = m.delete_all(user_id="ana")
        assert len(everything["erased"]) == 1 and len(everything["receipts"]) == 1
        assert m.get_all(user_id="ana")["results"] == []
        assert m.delete_all(user_id="ana")["erased"] == []
        assert [r["memory"] for r in m.get_all(user_id="bob")["results"]] == ["Bob likes spicy food"]
