"""Every call of oubli.Store, through the installed extension module."""

from __future__ import annotations

import json
import math
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

import oubli_db as oubli
from conftest import holds_token, raw_bytes


def texts(hits) -> list[str]:
    return [h.text for h in hits]


# -- opening and closing ---------------------------------------------------------------------


def test_store_is_a_context_manager_and_reopens(path: Path) -> None:
    with oubli.Store(path) as store:
        assert not store.closed
        assert Path(store.path) == path
        row_id = store.inscribe("Ana's door code is 4417", namespace="user:ana")
        key = store.public_key
        assert isinstance(key, bytes) and len(key) == 32
    assert store.closed
    assert path.exists()
    with oubli.Store(path, create=False) as again:
        assert again.get(row_id).text == "Ana's door code is 4417"
        assert again.public_key == key
        # No embedder chosen: the built-in static table (256 dimensions), kept on reopen.
        assert again.embedder_id.startswith("oubli-minilm-static-v1-256:")
        assert again.dim == 256
    assert "closed=True" in repr(again)


def test_create_flags(path: Path) -> None:
    with pytest.raises(oubli.NotFoundError) as e:
        oubli.Store(path, create=False)
    assert e.value.code == "store_not_found"
    oubli.Store(path, create=True).close()
    with pytest.raises(oubli.ConflictError) as e:
        oubli.Store(path, create=True)
    assert e.value.code == "already_exists"


def test_close_is_idempotent_and_exit_does_not_swallow(path: Path) -> None:
    store = oubli.Store(path)
    store.close()
    store.close()
    with pytest.raises(KeyError):
        with oubli.Store(path):
            raise KeyError("boom")


def test_read_only_handles_share_the_file_and_refuse_writes(path: Path) -> None:
    with oubli.Store(path) as w:
        w.inscribe("The staging password is tulip-4417")
    with oubli.Store(path, read_only=True) as r1, oubli.Store(path, read_only=True) as r2:
        assert texts(r1.recall("staging password")) == ["The staging password is tulip-4417"]
        assert len(r2.list()) == 1
        with pytest.raises(oubli.ReadOnlyError) as e:
            r1.inscribe("x")
        assert e.value.code == "read_only"


def test_memory_path_makes_a_private_store_that_never_touches_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os

    monkeypatch.chdir(tmp_path)
    with oubli.Store(":memory:", seed=bytes(32)) as a, oubli.Store(":memory:") as b:
        assert a.in_memory and str(a.path) == ":memory:"
        a.inscribe("Ana's door code is 4417", namespace="user:ana", key="door")
        assert texts(a.recall("door code", namespace="user:ana")) == ["Ana's door code is 4417"]
        assert b.recall("door code") == []  # each ":memory:" store is its own
        image = a.memory_image()
        assert image is not None and b"4417" in image
        report = a.purge(key="door", namespace="user:ana")
        oubli.verify_receipt(report.receipt.document, a.public_key)
        a.verify_log()
        after = a.memory_image()
        assert after is not None and b"4417" not in after
    assert os.listdir(tmp_path) == []
    with oubli.Store(path_in := tmp_path / "f.oubli") as f:
        assert not f.in_memory and f.memory_image() is None and Path(f.path) == path_in
    with pytest.raises(oubli.InvalidInputError):
        oubli.Store(":memory:", create=False)


def test_a_second_writer_is_locked_out(path: Path) -> None:
    """Another process cannot open the file for writing (in this process a second Store
    shares the handle: test_parity.py)."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "import oubli_db as oubli\n"
        "try:\n"
        "    oubli.Store(sys.argv[1])\n"
        "except oubli.LockedError as e:\n"
        "    print(e.code)\n"
    )
    with oubli.Store(path):
        out = subprocess.run(
            [sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=120
        )
        assert out.stdout.strip() == "locked", out.stdout + out.stderr


def test_external_signing_key(path: Path) -> None:
    secret = bytes(range(32))
    with oubli.Store(path, signing_key=secret) as s:
        s.inscribe("signed with an external key")
        pk = s.public_key
    with pytest.raises(oubli.InvalidInputError):
        oubli.Store(path)  # the key is not in the file
    with pytest.raises(oubli.IntegrityError) as e:
        oubli.Store(path, signing_key=bytes(32))
    assert e.value.code == "key_mismatch"
    with oubli.Store(path, signing_key=secret) as s:
        assert s.public_key == pk
        assert s.verify_log().events == 1


def test_seeded_stores_write_the_same_commitments(tmp_path: Path) -> None:
    seed = b"s" * 32
    commitments = []
    for name in ("a.oubli", "b.oubli"):
        with oubli.Store(tmp_path / name, seed=seed, signing_key=b"k" * 32) as s:
            s.inscribe("Ana's door code is 4417")
            commitments.append(s.events()[0].commitments)
    assert commitments[0] == commitments[1]


# -- writing -----------------------------------------------------------------------------------


def test_inscribe_with_every_field_and_get(store: oubli.Store) -> None:
    src = store.inscribe("Ana ordered a bike", namespace="user:ana", key="order")
    until = datetime.now(timezone.utc) + timedelta(days=1)
    rid = store.inscribe(
        "Ana likes cycling",
        namespace="user:ana",
        key="hobby",
        metadata={"category": "preference", "source": "chat"},
        kind="derived",
        valid_until=until,
        derived_from=[src],
        vector=[1.0] + [0.0] * (store.dim - 1),
    )
    row = store.get(rid)
    assert isinstance(row, oubli.Row)
    assert (row.id, row.namespace, row.key, row.text) == (rid, "user:ana", "hobby", "Ana likes cycling")
    assert row.kind == "derived"
    assert row.metadata == {"category": "preference", "source": "chat"}
    assert row.valid_until == pytest.approx(until.timestamp() * 1000, abs=1)
    assert row.derived_from == [src]
    assert row.depth == 1.0 and row.state == "surface"
    assert row.superseded_by is None and row.supersedes is None
    assert row.created_seq == 2
    assert abs(row.created_at - time.time() * 1000) < 60_000
    assert row.surfaced_at == row.created_at
    d = row.to_dict()
    assert d["metadata"] == row.metadata and d["kind"] == "derived"
    assert store.get_by_key("hobby", namespace="user:ana").id == rid
    assert store.get(src).namespace == "user:ana"
    assert "hobby" in repr(row)
    # valid_until also takes milliseconds.
    r2 = store.inscribe("expires later", valid_until=4_000_000_000_000)
    assert store.get(r2).valid_until == 4_000_000_000_000


def test_default_namespace(store: oubli.Store) -> None:
    rid = store.inscribe("no namespace given", key="k")
    assert store.get(rid).namespace == oubli.DEFAULT_NAMESPACE == "default"
    assert store.get_by_key("k").id == rid


def test_inscribe_many_is_all_or_nothing(store: oubli.Store) -> None:
    ids = store.inscribe_many(
        [
            "plain text row",
            {"text": "a dict row", "namespace": "ns", "key": "k", "metadata": {"a": "b"}},
        ]
    )
    assert len(ids) == 2 and ids[1] == ids[0] + 1
    assert store.get(ids[1]).metadata == {"a": "b"}
    with pytest.raises(oubli.InvalidInputError):
        store.inscribe_many(["fine", {"text": "   "}])
    assert len(store.list()) == 2
    with pytest.raises(TypeError, match="unknown inscription field"):
        store.inscribe_many([{"text": "x", "colour": "red"}])
    with pytest.raises(TypeError):
        store.inscribe_many("not a list")


def test_upsert(store: oubli.Store) -> None:
    first = store.upsert("Ana's phone is 111", key="phone", namespace="ana")
    second = store.upsert("Ana's phone is 222", key="phone", namespace="ana")
    assert second != first
    assert store.get(first).state == "submerged"
    assert store.get(first).superseded_by == second
    assert store.get_by_key("phone", namespace="ana").text == "Ana's phone is 222"


def test_supersede_by_query_id_key_and_target(store: oubli.Store) -> None:
    a = store.inscribe("The staging password is tulip-4417", namespace="ops", key="pw")
    s = store.supersede("staging password", "The staging password is orchid-9051")
    assert isinstance(s, oubli.Superseded)
    assert s.replaced == [a] and s.seq == 2
    new = store.get(s.new_id)
    assert (new.namespace, new.key, new.supersedes) == ("ops", "pw", a)
    assert texts(store.recall("staging password")) == ["The staging password is orchid-9051"]
    s2 = store.supersede(s.new_id, "The staging password is lily-1")
    s3 = store.supersede(key="pw", namespace="ops", text="The staging password is rose-2")
    s4 = store.supersede(oubli.Target.by_key("pw", namespace="ops"), "The staging password is iris-3")
    assert [s2.replaced, s3.replaced, s4.replaced] == [[s.new_id], [s2.new_id], [s3.new_id]]
    h = store.history(a)
    assert isinstance(h, oubli.History)
    assert [r.id for r in h.chain] == [a, s.new_id, s2.new_id, s3.new_id, s4.new_id]
    assert [e.kind for e in h.events] == ["inscribe"] + ["supersede"] * 4
    assert "History(chain=5" in repr(h)


def test_supersede_needs_text(store: oubli.Store) -> None:
    store.inscribe("x y z")
    with pytest.raises(TypeError, match="text"):
        store.supersede("x y z")


def test_release_pin_resurface(store: oubli.Store) -> None:
    a = store.inscribe("Hannah likes tea", namespace="h")
    b = store.inscribe("Hannah lives in Oslo", namespace="h")
    store.inscribe("Bob likes coffee", namespace="b")
    released = store.release("Hannah", namespace="h")
    assert sorted(released) == [a, b]
    assert store.recall("Hannah", namespace="h") == []
    assert store.get(a).state == "submerged"
    # Submerged rows come back only when asked, weighted far below live rows.
    c = store.inscribe("Carla likes tea", namespace="c")
    hits = store.recall("likes tea", include_submerged=True)
    assert a in [h.id for h in hits]
    assert {h.state for h in hits if h.id in (a, b)} == {"submerged"}
    score = {h.id: h.score for h in hits}
    assert score[c] > 0 and score[a] < score[c] / 2
    with pytest.raises(oubli.ConflictError) as e:
        store.release(a)
    assert e.value.code == "invalid_transition" and e.value.row == a
    assert store.resurface(a) == [a]
    assert store.get(a).state == "surface"
    assert store.pin(b) == [b]
    assert store.get(b).state == "pinned" and math.isinf(store.get(b).depth)
    assert store.resurface(oubli.Target.by_id(b)) == []  # pinned stays pinned


def test_plan_is_a_dry_run(store: oubli.Store) -> None:
    a = store.inscribe("Maria Keller's phone is +49 30 1234567")
    b = store.supersede(a, "Maria Keller's phone is +49 30 7654321").new_id
    before = store.head()
    plan = store.plan("purge", "Maria Keller phone")
    assert isinstance(plan, oubli.Plan)
    assert plan.rows == [a, b]
    assert plan.matches[0]["id"] == b and plan.matches[0]["coverage"] == 1.0
    assert store.plan("release", b).rows == [b]
    with pytest.raises(oubli.NotFoundError) as e:
        store.plan("release", key="nope")
    assert (e.value.code, e.value.key, e.value.namespace) == ("unknown_key", "nope", "default")
    assert store.head() == before
    with pytest.raises(oubli.InvalidInputError):
        store.plan("explode", a)


# -- purge and receipts -----------------------------------------------------------------------


def test_purge_erases_every_byte_and_returns_a_verifiable_receipt(store: oubli.Store, path: Path) -> None:
    secret = "Maria Keller's phone number is +49 30 1234567"
    a = store.inscribe(secret, namespace="crm", key="maria")
    b = store.supersede(a, "Maria Keller's phone number is +49 30 7654321").new_id
    keep = store.inscribe("The standup moved to 9:30", namespace="crm")
    report = store.purge("Maria Keller phone number")
    assert isinstance(report, oubli.PurgeReport)
    assert sorted(report.targeted) == [a, b]  # purge reaches submerged versions too
    assert report.erased == [a, b]
    assert report.completion_seq is not None and report.completion_seq > report.seq
    assert report.audit["summary"]["clean"] is True
    assert "PurgeReport(seq=" in repr(report)

    for row_id in (a, b):
        row = store.get(row_id)
        assert row.text is None and row.state == "void" and math.isnan(row.depth)
    assert store.get(keep).text == "The standup moved to 9:30"
    data = raw_bytes(path)
    for needle in (b"Maria Keller", b"1234567", b"7654321", b"+49 30"):
        assert needle not in data, needle

    receipt = report.receipt
    assert isinstance(receipt, oubli.Receipt)
    assert receipt.purge_id == report.seq
    assert receipt.erased == [a, b]
    assert receipt.public_key == store.public_key
    assert receipt.namespace == "crm"
    assert receipt.completion_seq == report.completion_seq
    assert receipt.audit_clean
    assert len(receipt.signature) == 128
    assert receipt.verify() and receipt.verify(store.public_key)
    doc = receipt.document
    assert doc.endswith(b"\n") and b"Maria" not in doc
    assert receipt.to_dict()["body"]["purge_id"] == report.seq

    verified = oubli.verify_receipt(doc, store.public_key)
    assert verified.erased == [a, b]
    assert oubli.Receipt.from_document(doc.decode()).purge_id == report.seq

    opening = report.opening
    assert isinstance(opening, oubli.Opening)
    assert opening.purge_id == report.seq and opening.rows == [a, b]
    assert opening.selector == "Maria Keller phone number"
    assert receipt.check_opening(opening)
    assert receipt.covers(opening, secret) == a
    assert receipt.covers(opening, "Maria Keller") in (a, b)
    with pytest.raises(oubli.VerificationError) as e:
        receipt.covers(opening, "The standup moved to 9:30")
    assert e.value.code == "mismatch"
    reparsed = oubli.Opening.from_document(opening.document)
    assert reparsed.rows == opening.rows

    stored = store.receipt(report.seq)
    assert stored.document == doc
    assert [r.purge_id for r in store.receipts()] == [report.seq]
    with pytest.raises(oubli.InvalidInputError):
        store.receipt(999)


def test_tampered_or_foreign_receipts_fail(store: oubli.Store, tmp_path: Path) -> None:
    store.inscribe("Tom's PIN is 4821")
    doc = store.purge("Tom's PIN").receipt.document
    body = json.loads(doc)
    body["body"]["erased"][0]["row"] += 1
    forged = (json.dumps(body, separators=(",", ":"), sort_keys=True) + "\n").encode()
    with pytest.raises(oubli.VerificationError) as e:
        oubli.verify_receipt(forged)
    assert e.value.code in ("bad_signature", "not_canonical")
    flipped = doc.replace(b'"purge_id":', b'"purge_id": ')
    with pytest.raises(oubli.VerificationError) as e:
        oubli.verify_receipt(flipped)
    assert e.value.code == "not_canonical"
    with oubli.Store(tmp_path / "other.oubli") as other:
        with pytest.raises(oubli.VerificationError) as e:
            oubli.verify_receipt(doc, other.public_key)
        assert e.value.code == "bad_signature"
    with pytest.raises(oubli.VerificationError):
        oubli.verify_receipt(b"not json")
    with pytest.raises(oubli.InvalidInputError):
        oubli.verify_receipt(doc, b"short")
    assert isinstance(oubli.VerificationError(), oubli.IntegrityError)


def test_purge_cascades_through_the_supersede_chain_and_provenance(store: oubli.Store) -> None:
    old = store.inscribe("Ana's address is 12 Elm Street")
    new = store.supersede(old, "Ana's address is 9 Oak Avenue").new_id
    note = store.inscribe("Ana moved to Oak Avenue", kind="note", derived_from=[new])
    report = store.purge(new)
    assert report.targeted == [new]
    assert report.erased == [old, new, note]
    assert sorted((c["row"], c["via"], c["from"]) for c in report.cascade) == [
        (old, "supersede", new),
        (note, "note", new),
    ]
    assert report.opening.selector == '{"id":%d}' % new


def test_deferred_scrub(path: Path) -> None:
    with oubli.Store(path, scrub_on_purge=False) as store:
        store.inscribe("Ingrid's locker code is 5150")
        report = store.purge("Ingrid's locker code")
        assert report.completion_seq is None
        assert report.receipt.completion_seq is None
        seq = store.scrub()
        assert seq > report.seq
        data = raw_bytes(path)
        assert b"Ingrid" not in data
        assert not holds_token(data, b"5150")


def test_a_deferred_vector_graph_is_built_on_request(path: Path) -> None:
    with oubli.Store(path, defer_vector_graph=True) as store:
        store.inscribe_many([f"note {i} about the garden budget" for i in range(50)])
        status = store.vector_graph_status()
        assert status == {"linked": 0, "exact": 50, "building": False}
        # Below the ANN threshold (20,000 vectors) the exact scan is the index: nothing to build.
        assert store.build_vector_graph() == 0
        assert store.recall("note 17 garden", k=1)[0].text == "note 17 about the garden budget"
        # One file, one engine handle: a second opening must ask for the same growth.
        with pytest.raises(oubli.LockedError):
            oubli.Store(path, defer_vector_graph=False)


def test_the_vector_graph_builds_on_the_threads_asked_for(path: Path) -> None:
    with pytest.raises(oubli.InvalidInputError):
        oubli.Store(path, vector_build_threads=0)
    with oubli.Store(path, defer_vector_graph=True, vector_build_threads=2) as store:
        store.inscribe_many([f"note {i} about the garden budget" for i in range(50)])
        assert store.build_vector_graph() == 0
        assert store.recall("note 17 garden", k=1)[0].text == "note 17 about the garden budget"
        # The thread count is one of the options a second opening of the file must share.
        with pytest.raises(oubli.LockedError):
            oubli.Store(path, defer_vector_graph=True)


# -- recall and list ----------------------------------------------------------------------------


def test_recall_returns_hits_with_every_attribute(store: oubli.Store) -> None:
    store.inscribe("The user dislikes coriander", namespace="prefs", metadata={"cat": "food"})
    rid = store.inscribe(
        "Refund issued on TXN-88213 yesterday", namespace="billing", key="refund", metadata={"cat": "money"}
    )
    hits = store.recall("TXN-88213")
    assert hits and isinstance(hits[0], oubli.Hit)
    h = hits[0]
    assert (h.id, h.text, h.key, h.namespace) == (rid, "Refund issued on TXN-88213 yesterday", "refund", "billing")
    assert h.metadata == {"cat": "money"}
    assert h.depth == 1.0 and h.state == "surface"
    assert h.score > 0 and h.row.id == rid
    e = h.explain
    assert e["bm25_rank"] == 1 and e["vector_rank"] >= 1 and e["depth_weight"] == 1.0
    assert e["coverage"] == 1.0  # the row holds every term of the query
    assert "TXN-88213" in repr(h)


def test_recall_filters_k_kinds_and_legs(store: oubli.Store) -> None:
    for i in range(5):
        store.inscribe(f"note number {i} about apples", namespace="a", metadata={"i": str(i)})
    store.inscribe("derived summary about apples", namespace="a", kind="derived")
    store.inscribe("apples in another namespace", namespace="b")
    assert len(store.recall("apples", k=3)) == 3
    assert {h.namespace for h in store.recall("apples", namespace="b")} == {"b"}
    assert [h.metadata["i"] for h in store.recall("apples", filters={"i": "2"})] == ["2"]
    assert texts(store.recall("apples", kinds="derived")) == ["derived summary about apples"]
    assert len(store.recall("apples", kinds=["source", "note"], k=50)) == 6
    lexical = store.recall("apples", legs="lexical")
    assert all(h.explain["vector_rank"] is None for h in lexical)
    vec = store.recall("apples", legs="vector")
    assert all(h.explain["bm25_rank"] is None for h in vec)
    with pytest.raises(oubli.InvalidInputError):
        store.recall("apples", legs="sideways")
    with pytest.raises(oubli.InvalidInputError):
        store.recall("apples", k=0)


def test_caller_supplied_vectors(store: oubli.Store) -> None:
    def unit(i: int) -> list[float]:
        v = [0.0] * store.dim
        v[i] = 1.0
        return v

    a = store.inscribe("first opaque memory", vector=unit(0))
    b = store.inscribe("second opaque memory", vector=unit(1))
    hits = store.recall("", vector=unit(1), legs="vector", k=1)
    assert [h.id for h in hits] == [b]
    hits = store.recall("", vector=unit(0), legs="vector", k=1)
    assert [h.id for h in hits] == [a]
    with pytest.raises(oubli.InvalidInputError) as e:
        store.inscribe("wrong size", vector=[1.0, 2.0])
    assert (e.value.code, e.value.expected, e.value.got) == ("dimension_mismatch", store.dim, 2)
    with pytest.raises(oubli.InvalidInputError) as e:
        store.inscribe("nan", vector=[float("nan")] * store.dim)
    assert e.value.code == "invalid_vector"
    with pytest.raises(oubli.InvalidInputError):
        store.inscribe("zero", vector=[0.0] * store.dim)
    with pytest.raises(oubli.InvalidInputError):
        store.recall("", legs="lexical")


def test_expired_rows_are_left_out_until_asked(store: oubli.Store) -> None:
    store.inscribe("The one-time code is 553311", valid_until=int(time.time() * 1000) - 1000)
    assert store.recall("one-time code") == []
    assert texts(store.recall("one-time code", include_expired=True)) == ["The one-time code is 553311"]
    assert store.list() == []
    assert len(store.list(include_expired=True)) == 1


def test_list_pages_and_filters(store: oubli.Store) -> None:
    ids = [store.inscribe(f"todo {i}", namespace="todo", metadata={"done": str(i % 2)}) for i in range(6)]
    store.inscribe("elsewhere", namespace="other")
    assert [r.id for r in store.list(namespace="todo")] == ids
    assert [r.id for r in store.list(namespace="todo", limit=2)] == ids[:2]
    assert [r.id for r in store.list(namespace="todo", after=ids[1], limit=2)] == ids[2:4]
    assert [r.id for r in store.list(filters={"done": "1"})] == ids[1::2]
    store.release(ids[0])
    assert ids[0] not in [r.id for r in store.list()]
    assert ids[0] in [r.id for r in store.list(include_submerged=True)]
    assert store.list(kinds="note") == []


def test_time_travel(store: oubli.Store) -> None:
    store.inscribe("Ana works as a nurse", key="job")
    seq_before, _ = store.head()
    t_before = datetime.now(timezone.utc)
    time.sleep(0.01)
    store.supersede(key="job", text="Ana works as a chef")
    assert texts(store.recall("Ana works")) == ["Ana works as a chef"]
    assert texts(store.recall("Ana works", as_of=seq_before)) == ["Ana works as a nurse"]
    assert [r.text for r in store.list(as_of=seq_before)] == ["Ana works as a nurse"]
    snap = store.as_of(seq_before)
    assert isinstance(snap, oubli.Snapshot)
    assert snap.at == ("seq", seq_before)
    assert texts(snap.recall("Ana works")) == ["Ana works as a nurse"]
    assert [r.text for r in snap.list()] == ["Ana works as a nurse"]
    by_time = store.as_of(t_before)
    assert by_time.at[0] == "time"
    assert texts(by_time.recall("Ana works")) == ["Ana works as a nurse"]
    assert store.as_of(0).list() == []
    with pytest.raises(oubli.InvalidInputError):
        store.as_of(10_000)
    # A purge reaches into the past too: as_of never brings erased text back.
    store.purge("Ana works")
    assert [r.text for r in snap.list(include_submerged=True)] == []


# -- decay, log, events --------------------------------------------------------------------------


def test_decay_policy_and_sweep(store: oubli.Store) -> None:
    assert store.decay_policy("otp") is None
    store.set_decay_policy("otp", ttl_ms=1)
    assert store.decay_policy("otp") == {"half_life_ms": None, "ttl_ms": 1, "floor": 0.05}
    rid = store.inscribe("The login code is 998877", namespace="otp")
    time.sleep(0.01)
    report = store.sweep()
    assert isinstance(report, oubli.SweepReport)
    assert rid in report.expired + report.decayed
    assert store.get(rid).state == "submerged"
    store.clear_decay_policy("otp")
    assert store.decay_policy("otp") is None
    with pytest.raises(oubli.InvalidInputError):
        store.set_decay_policy("otp", half_life_ms=-5)


def test_events_head_and_verify_log(store: oubli.Store) -> None:
    a = store.inscribe("first")
    store.release(a)
    seq, head_hash = store.head()
    assert seq == 2 and len(head_hash) == 64
    events = store.events()
    assert [e.seq for e in events] == [1, 2]
    assert [e.kind for e in events] == ["inscribe", "release"]
    assert events[1].prev_hash == events[0].hash
    assert events[1].hash == head_hash
    t = events[1].transitions[0]
    assert (t["row"], t["before"], t["after"], t["before_state"], t["after_state"]) == (a, 1.0, 0.0, "surface", "submerged")
    assert events[0].transitions[0]["before"] is None
    assert len(events[0].commitments) == 1 and len(events[0].commitments[0]) == 64
    assert [e.seq for e in store.events(2)] == [2]
    assert store.events(2, 1) == []
    report = store.verify_log()
    assert isinstance(report, oubli.LogReport)
    assert (report.events, report.head_seq, report.head_hash) == (2, 2, head_hash)
    assert report.checkpoints >= 1
    assert store.verify_log(store.public_key).events == 2
    with pytest.raises(oubli.IntegrityError) as e:
        store.verify_log(bytes(32))
    assert e.value.code == "log_tampered"


def test_embed_uses_the_store_embedder(store: oubli.Store) -> None:
    v = store.embed("Ana's door code")
    assert len(v) == store.dim
    assert v == pytest.approx(store.embed("Ana's door code"))
    assert len(oubli.HashEmbedder().embed("Ana's door code")) != len(v)
    assert sum(x * x for x in v) == pytest.approx(1.0, abs=1e-4)


def test_module_metadata() -> None:
    assert oubli.__version__ == oubli.ENGINE_VERSION
    assert oubli.MAX_TEXT_BYTES == 64 * 1024
    assert set(oubli.__all__) <= set(dir(oubli))
    assert oubli.Store.__doc__ and oubli.Store.recall.__doc__ and oubli.Store.purge.__doc__


def test_target_objects() -> None:
    t = oubli.Target.by_key("pw", namespace="ops")
    assert t.kind == "key" and repr(t) == "Target.by_key('pw', namespace='ops')"
    assert t == oubli.Target.by_key("pw", namespace="ops")
    assert t != oubli.Target.by_key("pw")
    assert oubli.Target.by_key("pw") == oubli.Target.by_key("pw", namespace="default")
    assert oubli.Target.by_id(3).kind == "id" and repr(oubli.Target.by_id(3)) == "Target.by_id(3)"
    q = oubli.Target.by_query("Ana's phone", namespace="crm")
    assert q.kind == "query" and "crm" in repr(q)
    assert repr(oubli.Target.by_query("x")) == "Target.by_query('x')"


def test_numpy_vectors_are_accepted(store: oubli.Store) -> None:
    np = pytest.importorskip("numpy", reason="numpy is not installed")
    v = np.zeros(store.dim, dtype=np.float32)
    v[5] = 1.0
    rid = store.inscribe("numpy vector row", vector=v)
    assert [h.id for h in store.recall("", vector=v.astype(np.float64), legs="vector", k=1)] == [rid]
