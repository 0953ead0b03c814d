"""Bad input: wrong types, invalid UTF-8 (lone surrogates), closed stores, typed engine errors."""

from __future__ import annotations

from pathlib import Path

import pytest

import oubli_db as oubli

SURROGATE = "door code \ud800 4417"


# -- the hierarchy -------------------------------------------------------------------------------


def test_hierarchy() -> None:
    e = oubli.errors
    assert issubclass(e.InvalidInputError, ValueError)
    assert issubclass(e.NotFoundError, LookupError)
    assert issubclass(e.StorageError, OSError)
    assert issubclass(e.NoMatchError, e.NotFoundError)
    assert issubclass(e.PurgedError, e.ConflictError)
    assert issubclass(e.VerificationError, e.IntegrityError)
    for name in e.__all__:
        assert issubclass(getattr(e, name), e.OubliError)
        assert getattr(oubli, name) is getattr(e, name)


# -- wrong types ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda s: s.inscribe(42),
        lambda s: s.inscribe(b"bytes are not text"),
        lambda s: s.inscribe(None),
        lambda s: s.inscribe("x", namespace=7),
        lambda s: s.inscribe("x", key=["k"]),
        lambda s: s.inscribe("x", metadata=["a", "b"]),
        lambda s: s.inscribe("x", metadata={"a": None}),
        lambda s: s.inscribe("x", metadata={1: "a"}),
        lambda s: s.inscribe("x", kind=3),
        lambda s: s.inscribe("x", valid_until="tomorrow"),
        lambda s: s.inscribe("x", valid_until=True),
        lambda s: s.inscribe("x", derived_from="1"),
        lambda s: s.inscribe("x", derived_from=[1.5]),
        lambda s: s.inscribe("x", vector="0.1 0.2"),
        lambda s: s.inscribe("x", vector=[0.1, "a"]),
        lambda s: s.inscribe("x", vector=[True] * 384),
        lambda s: s.inscribe("x", vector=5),
        lambda s: s.recall(3),
        lambda s: s.recall("x", k="10"),
        lambda s: s.recall("x", k=2.5),
        lambda s: s.recall("x", k=True),
        lambda s: s.recall("x", filters="a=b"),
        lambda s: s.recall("x", kinds=[1]),
        lambda s: s.recall("x", as_of="yesterday"),
        lambda s: s.recall("x", as_of=1.5),
        lambda s: s.recall("x", legs=1),
        lambda s: s.recall("x", include_submerged="yes"),
        lambda s: s.list(limit="5"),
        lambda s: s.list(after=-1.0),
        lambda s: s.release(3.5),
        lambda s: s.release(True),
        lambda s: s.release(["x"]),
        lambda s: s.release(),
        lambda s: s.release("x", key="k"),
        lambda s: s.release(1, namespace="ns"),
        lambda s: s.purge(oubli.Target.by_id(1), namespace="ns"),
        lambda s: s.supersede(None, "new text"),
        lambda s: s.get("1"),
        lambda s: s.get(None),
        lambda s: s.get_by_key(5),
        lambda s: s.history("1"),
        lambda s: s.events("1"),
        lambda s: s.verify_log("key"),
        lambda s: s.embed(1),
        lambda s: s.set_decay_policy("ns", ttl_ms="1"),
        lambda s: s.as_of("now"),
    ],
)
def test_wrong_types_raise_type_error(store: oubli.Store, call) -> None:
    before = store.head()
    with pytest.raises(TypeError):
        call(store)
    assert store.head() == before


def test_wrong_types_at_open(path: Path) -> None:
    with pytest.raises(TypeError):
        oubli.Store(42)
    with pytest.raises(TypeError):
        oubli.Store(path, create="yes")
    with pytest.raises(TypeError):
        oubli.Store(path, seed="x" * 32)
    with pytest.raises(oubli.InvalidInputError):
        oubli.Store(path, seed=b"short")
    with pytest.raises(TypeError):
        oubli.Store(path, embedder="minilm")
    with pytest.raises(TypeError):
        oubli.verify_receipt(12)
    assert not path.exists()


# -- invalid UTF-8 -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda s: s.inscribe(SURROGATE),
        lambda s: s.inscribe("x", namespace=SURROGATE),
        lambda s: s.inscribe("x", key=SURROGATE),
        lambda s: s.inscribe("x", metadata={SURROGATE: "v"}),
        lambda s: s.inscribe("x", metadata={"k": SURROGATE}),
        lambda s: s.inscribe("x", kind=SURROGATE),
        lambda s: s.inscribe_many([SURROGATE]),
        lambda s: s.inscribe_many([{"text": SURROGATE}]),
        lambda s: s.upsert(SURROGATE, key="k"),
        lambda s: s.recall(SURROGATE),
        lambda s: s.recall("door", namespace=SURROGATE),
        lambda s: s.recall("door", filters={"k": SURROGATE}),
        lambda s: s.list(namespace=SURROGATE),
        lambda s: s.supersede(SURROGATE, "new"),
        lambda s: s.supersede("door", SURROGATE),
        lambda s: s.release(SURROGATE),
        lambda s: s.purge(key=SURROGATE),
        lambda s: s.pin("door", namespace=SURROGATE),
        lambda s: s.get_by_key(SURROGATE),
        lambda s: s.embed(SURROGATE),
        lambda s: oubli.Target.by_query(SURROGATE),
    ],
)
def test_lone_surrogates_are_invalid_input(store: oubli.Store, call) -> None:
    store.inscribe("door code 4417")
    before = store.head()
    with pytest.raises(oubli.InvalidInputError) as e:
        call(store)
    assert e.value.code == "invalid_utf8"
    assert isinstance(e.value, ValueError)
    assert isinstance(e.value.__cause__, UnicodeEncodeError)
    assert store.head() == before


def test_valid_non_ascii_round_trips(store: oubli.Store) -> None:
    text = "Zoë's café code is ４４１７ — 東京 🚀"
    rid = store.inscribe(text, namespace="ünïcode", key="κλειδί", metadata={"ключ": "значение"})
    row = store.get(rid)
    assert (row.text, row.namespace, row.key, row.metadata) == (text, "ünïcode", "κλειδί", {"ключ": "значение"})
    assert store.recall("café code")[0].id == rid


# -- closed store ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda s: s.inscribe("x"),
        lambda s: s.inscribe_many(["x"]),
        lambda s: s.upsert("x", key="k"),
        lambda s: s.get(1),
        lambda s: s.get_by_key("k"),
        lambda s: s.recall("x"),
        lambda s: s.list(),
        lambda s: s.supersede(1, "y"),
        lambda s: s.release(1),
        lambda s: s.pin(1),
        lambda s: s.resurface(1),
        lambda s: s.purge(1),
        lambda s: s.plan("purge", 1),
        lambda s: s.scrub(),
        lambda s: s.set_decay_policy("ns", ttl_ms=5),
        lambda s: s.decay_policy("ns"),
        lambda s: s.sweep(),
        lambda s: s.history(1),
        lambda s: s.events(),
        lambda s: s.head(),
        lambda s: s.verify_log(),
        lambda s: s.receipts(),
        lambda s: s.receipt(1),
        lambda s: s.as_of(1),
        lambda s: s.public_key,
    ],
)
def test_closed_store_raises(path: Path, call) -> None:
    store = oubli.Store(path)
    store.inscribe("x y z")
    store.close()
    with pytest.raises(oubli.StoreClosedError) as e:
        call(store)
    assert e.value.code == "closed"


def test_snapshot_of_a_closed_store_raises(store: oubli.Store) -> None:
    store.inscribe("x y z")
    snap = store.as_of(1)
    store.close()
    with pytest.raises(oubli.StoreClosedError):
        snap.recall("x")


# -- typed engine errors -------------------------------------------------------------------------------


def test_bad_text(store: oubli.Store) -> None:
    for text, code in [("", "empty_text"), ("   \n\t", "empty_text"), ("a\0b", "invalid_field")]:
        with pytest.raises(oubli.InvalidInputError) as e:
            store.inscribe(text)
        assert e.value.code == code
    with pytest.raises(oubli.InvalidInputError) as e:
        store.inscribe("x" * (oubli.MAX_TEXT_BYTES + 1))
    assert (e.value.code, e.value.length, e.value.limit) == ("text_too_large", oubli.MAX_TEXT_BYTES + 1, oubli.MAX_TEXT_BYTES)
    store.inscribe("x" * oubli.MAX_TEXT_BYTES)


def test_bad_fields(store: oubli.Store) -> None:
    cases = [
        dict(namespace=""),
        dict(namespace="a" * 513),
        dict(key="line\nbreak"),
        dict(metadata={"": "v"}),
        dict(metadata={"k": "v" * 513}),
        dict(metadata={str(i): "v" for i in range(65)}),
        dict(kind="opinion"),
    ]
    for kwargs in cases:
        with pytest.raises(oubli.InvalidInputError) as e:
            store.inscribe("valid text", **kwargs)
        assert e.value.code == "invalid_field", kwargs
    assert store.list() == []


def test_lookup_errors(store: oubli.Store) -> None:
    with pytest.raises(oubli.NotFoundError) as e:
        store.get(99)
    assert (e.value.code, e.value.row) == ("unknown_row", 99)
    assert isinstance(e.value, LookupError)
    with pytest.raises(oubli.NotFoundError) as e:
        store.get_by_key("missing", namespace="ns")
    assert (e.value.code, e.value.namespace, e.value.key) == ("unknown_key", "ns", "missing")
    with pytest.raises(oubli.NoMatchError) as e:
        store.release("nothing like this exists")
    assert e.value.code == "no_match"
    with pytest.raises(oubli.InvalidInputError):
        store.get(-1)
    with pytest.raises(oubli.InvalidInputError):
        store.get(2**64)


def test_duplicate_key_and_purged_rows(store: oubli.Store) -> None:
    a = store.inscribe("first", key="k")
    with pytest.raises(oubli.ConflictError) as e:
        store.inscribe("second", key="k")
    assert (e.value.code, e.value.row, e.value.key, e.value.namespace) == ("duplicate_key", a, "k", "default")
    store.purge(a)
    with pytest.raises(oubli.PurgedError) as e:
        store.resurface(a)
    assert (e.value.code, e.value.row) == ("purged", a)
    with pytest.raises(oubli.PurgedError):
        store.purge(a)


def test_embedder_mismatch(path: Path) -> None:
    oubli.Store(path).close()
    with pytest.raises(oubli.IntegrityError) as e:
        oubli.Store(path, embedder=oubli.HashEmbedder(128))
    assert e.value.code == "embedder_mismatch"


def test_corrupt_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.oubli"
    bad.write_bytes(b"this is not a database" * 100)
    with pytest.raises(oubli.OubliError) as e:
        oubli.Store(bad)
    assert isinstance(e.value, (oubli.IntegrityError, oubli.StorageError))


def test_failing_python_embedder_is_an_embedder_error(path: Path) -> None:
    class Broken:
        id = "broken-v1"
        dim = 8

        def embed(self, text: str) -> list[float]:
            raise RuntimeError("model offline")

    with oubli.Store(path, embedder=Broken()) as store:
        with pytest.raises(oubli.EmbedderError) as e:
            store.inscribe("anything")
        assert "model offline" in str(e.value)
        assert store.list() == []
