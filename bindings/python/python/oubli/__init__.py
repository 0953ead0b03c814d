"""oubli: an embedded memory database for AI agents that can forget, provably.

One file per store, opened in-process. Rows are short natural-language memories recalled by
hybrid search (BM25 fused with vector similarity) and forgotten on command: ``supersede``,
``release``, decay, ``pin``, ``purge``. Every state change is one event in an append-only,
hash-chained, signed log; every purge returns a signed receipt that anyone can verify offline.

>>> import oubli
>>> with oubli.Store("agent.oubli") as store:                      # doctest: +SKIP
...     store.inscribe("Ana's door code is 4417", namespace="user:ana")
...     store.supersede("Ana's door code", "Ana's door code is 9051")
...     hits = store.recall("door code", namespace="user:ana")
...     report = store.purge("Ana's door code")                     # both versions erased
...     oubli.verify_receipt(report.receipt.document, store.public_key)

Store calls release the GIL; one ``Store`` may be shared by many threads. Errors are the
classes of :mod:`oubli.errors`. :mod:`oubli.adapter` drives oubli from ForgetEval-style
harnesses; :mod:`oubli.langgraph` is a LangGraph ``BaseStore`` whose delete really forgets.
"""

from __future__ import annotations

from oubli.errors import (
    ConflictError,
    EmbedderError,
    IntegrityError,
    InvalidInputError,
    LockedError,
    NoMatchError,
    NotFoundError,
    OubliError,
    PurgedError,
    ReadOnlyError,
    StorageError,
    StoreClosedError,
    VerificationError,
)
from oubli._oubli import (
    DEFAULT_NAMESPACE,
    ENGINE_VERSION,
    MAX_TEXT_BYTES,
    Event,
    HashEmbedder,
    History,
    Hit,
    LogReport,
    MiniLmEmbedder,
    Opening,
    Plan,
    PurgeReport,
    Receipt,
    Row,
    Snapshot,
    Store,
    Superseded,
    SweepReport,
    Target,
    verify_receipt,
)
from oubli.embeddings import MINILM_PACKAGE, minilm, minilm_model_dir

__version__ = ENGINE_VERSION

__all__ = [
    "DEFAULT_NAMESPACE",
    "ENGINE_VERSION",
    "MAX_TEXT_BYTES",
    "MINILM_PACKAGE",
    "ConflictError",
    "EmbedderError",
    "Event",
    "HashEmbedder",
    "History",
    "Hit",
    "IntegrityError",
    "InvalidInputError",
    "LockedError",
    "LogReport",
    "MiniLmEmbedder",
    "NoMatchError",
    "NotFoundError",
    "Opening",
    "OubliError",
    "Plan",
    "PurgeReport",
    "PurgedError",
    "ReadOnlyError",
    "Receipt",
    "Row",
    "Snapshot",
    "StorageError",
    "Store",
    "StoreClosedError",
    "Superseded",
    "SweepReport",
    "Target",
    "VerificationError",
    "minilm",
    "minilm_model_dir",
    "verify_receipt",
]
