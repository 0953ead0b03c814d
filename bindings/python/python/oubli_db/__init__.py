"""oubli: an embedded memory database for AI agents that can forget, provably.

One file per store, opened in-process. Rows are short natural-language memories recalled by
hybrid search (BM25 fused with vector similarity) and forgotten on command: ``supersede``,
``release``, decay, ``pin``, ``purge``. Every state change is one event in an append-only,
hash-chained, signed log; every purge returns a signed receipt that anyone can verify offline.

>>> import oubli_db
>>> with oubli_db.Store("agent.oubli") as store:                      # doctest: +SKIP
...     store.inscribe("Ana's door code is 4417", namespace="user:ana")
...     store.supersede("Ana's door code", "Ana's door code is 9051")
...     hits = store.recall("door code", namespace="user:ana")
...     report = store.purge("Ana's door code")                     # both versions erased
...     oubli_db.verify_receipt(report.receipt.document, store.public_key)

Namespaces are strings or tuples of labels: ``("user", "ana")`` is the namespace
``"user:ana"`` (labels joined by ``:``, a ``:`` or ``\\`` inside a label escaped by a
backslash; :func:`join_namespace` and :func:`split_namespace` convert, ``Row.namespace_tuple``
reads it back). Metadata and filter values may be ``str``, ``int``, ``float`` or ``bool``; the
engine stores them as text and gives them back as ``str``. Times and log positions are kept
apart (:mod:`oubli_db.times`): ``valid_until=`` is a time, ``as_of=`` a time or a log sequence
number. Opening a file this process already has open shares the handle.
:class:`oubli_db.aio.AsyncStore` offers every call as a coroutine.

Per-user scoping (:mod:`oubli_db.scope`): ``user_id`` maps onto the namespace ``("user", user_id)``,
``agent_id`` and ``run_id`` onto metadata, as in the MCP server and ``oubli forget-user``.

Store calls release the GIL; one ``Store`` may be shared by many threads. Errors are the
classes of :mod:`oubli_db.errors`. :mod:`oubli_db.adapter` drives oubli from ForgetEval-style
harnesses; :mod:`oubli_db.langgraph` is a LangGraph ``BaseStore`` whose delete really forgets.
"""

from __future__ import annotations

from oubli_db.errors import (
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
from oubli_db._oubli import (
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
    join_namespace,
    split_namespace,
    verify_receipt,
)
from oubli_db.aio import AsyncStore
from oubli_db.scope import Scope, user_namespace
from oubli_db.memory import Memory
from oubli_db.embeddings import MINILM_PACKAGE, minilm, minilm_model_dir
from oubli_db.times import EpochMillis, LogSeq

__version__ = ENGINE_VERSION

__all__ = [
    "AsyncStore",
    "Memory",
    "Scope",
    "user_namespace",
    "EpochMillis",
    "LogSeq",
    "join_namespace",
    "split_namespace",
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
