"""Type stubs for the extension module oubli_db._oubli (Rust, PyO3)."""

import builtins
import os
from pathlib import Path
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from types import TracebackType
from typing import Any, Literal, Protocol, SupportsFloat, final

__all__ = [
    "ENGINE_VERSION",
    "DEFAULT_NAMESPACE",
    "MAX_TEXT_BYTES",
    "Event",
    "HashEmbedder",
    "History",
    "Hit",
    "LogReport",
    "MiniLmEmbedder",
    "Opening",
    "Plan",
    "PurgeReport",
    "Receipt",
    "Row",
    "Snapshot",
    "Store",
    "Superseded",
    "SweepReport",
    "Target",
    "join_namespace",
    "split_namespace",
    "verify_receipt",
]

ENGINE_VERSION: str
DEFAULT_NAMESPACE: str
MAX_TEXT_BYTES: int

_Kind = Literal["source", "derived", "note"]
_State = Literal["pinned", "surface", "sinking", "submerged", "void"]
_Legs = Literal["hybrid", "lexical", "vector"]
_Op = Literal["supersede", "release", "pin", "resurface", "purge"]
from oubli_db.times import EpochMillis, LogSeq

# A namespace: a str, or a tuple of labels (("user", "ana") is "user:ana"; see join_namespace).
_Namespace = str | tuple[str, ...]
# Metadata values: str, int, float (finite), bool, or a list of those; read back as the same
# Python types (a bool is never taken as an int).
_MetaScalar = str | int | float | bool
_MetaValue = _MetaScalar | builtins.list[_MetaScalar]
_FilterOp = Mapping[
    Literal["$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$in", "$exists"],
    _MetaScalar | Sequence[_MetaScalar],
]
# Filters: {"team": "x", "priority": {"$gte": 2}, "tags": {"$in": ["a"]},
# "archived": {"$exists": False}}; every entry must hold.
_Filter = Mapping[str, _MetaScalar | _FilterOp]
# valid_until: a time (never a log sequence number).
_ValidUntil = datetime | timedelta | EpochMillis
# as_of: a time or a log sequence number (never epoch milliseconds as a bare int).
_AsOf = datetime | LogSeq
_TargetArg = int | str | Target | None
_Vector = Sequence[SupportsFloat]

class _EmbedderLike(Protocol):
    """Any object usable as ``Store(embedder=...)``."""

    @property
    def id(self) -> str: ...
    @property
    def dim(self) -> int: ...
    def embed(self, text: str) -> _Vector: ...

@final
class Target:
    """What a mutating call acts on. Mutating calls also accept an ``int`` (row id) or a
    ``str`` (query)."""

    @staticmethod
    def by_id(id: int) -> Target:
        """One row by id."""
    @staticmethod
    def by_key(key: str, namespace: _Namespace | None = None) -> Target:
        """The live row holding ``key`` in ``namespace`` (default ``"default"``)."""
    @staticmethod
    def by_query(text: str, namespace: _Namespace | None = None) -> Target:
        """The rows ``text`` describes, optionally within one namespace."""
    @property
    def kind(self) -> Literal["id", "key", "query"]: ...

@final
class Row:
    """One memory row."""

    @property
    def id(self) -> int: ...
    @property
    def namespace(self) -> str: ...
    @property
    def namespace_tuple(self) -> tuple[str, ...]:
        """The namespace's labels: "user:ana" gives ("user", "ana")."""
    @property
    def key(self) -> str | None: ...
    @property
    def text(self) -> str | None:
        """The text; None once purged."""
    @property
    def kind(self) -> _Kind: ...
    @property
    def metadata(self) -> dict[str, _MetaValue]: ...
    @property
    def created_at(self) -> EpochMillis:
        """Milliseconds since the Unix epoch."""
    @property
    def surfaced_at(self) -> EpochMillis: ...
    @property
    def valid_until(self) -> EpochMillis | None: ...
    @property
    def depth(self) -> float:
        """inf pinned, 1.0 surface, (0, 1) sinking, 0.0 submerged, nan void."""
    @property
    def state(self) -> _State: ...
    @property
    def derived_from(self) -> list[int]: ...
    @property
    def superseded_by(self) -> int | None: ...
    @property
    def supersedes(self) -> int | None: ...
    @property
    def created_seq(self) -> LogSeq: ...
    def to_dict(self) -> dict[str, Any]: ...

@final
class Hit:
    """One recalled row with its fused score."""

    @property
    def row(self) -> Row: ...
    @property
    def score(self) -> float: ...
    @property
    def text(self) -> str | None: ...
    @property
    def id(self) -> int: ...
    @property
    def key(self) -> str | None: ...
    @property
    def namespace(self) -> str: ...
    @property
    def metadata(self) -> dict[str, _MetaValue]: ...
    @property
    def depth(self) -> float: ...
    @property
    def state(self) -> _State: ...
    @property
    def explain(self) -> dict[str, Any]:
        """bm25_rank, bm25_score, vector_rank, vector_score, lexical, semantic, relevance, depth_weight."""

@final
class Superseded:
    @property
    def replaced(self) -> list[int]: ...
    @property
    def new_id(self) -> int: ...
    @property
    def seq(self) -> LogSeq: ...

@final
class Opening:
    """The data subject's opening of a receipt (the store keeps no copy)."""

    @staticmethod
    def from_document(document: bytes | str) -> Opening: ...
    @property
    def document(self) -> bytes: ...
    @property
    def purge_id(self) -> int: ...
    @property
    def selector(self) -> str: ...
    @property
    def rows(self) -> list[int]: ...

@final
class Receipt:
    """A signed purge receipt (canonical JSON; salted commitments only)."""

    @staticmethod
    def from_document(document: bytes | str, public_key: bytes | None = None) -> Receipt:
        """Parses and verifies a receipt document; raises VerificationError."""
    @property
    def document(self) -> bytes: ...
    @property
    def purge_id(self) -> int: ...
    @property
    def public_key(self) -> bytes: ...
    @property
    def namespace(self) -> str: ...
    @property
    def erased(self) -> list[int]: ...
    @property
    def completion_seq(self) -> LogSeq | None: ...
    @property
    def audit_clean(self) -> bool: ...
    @property
    def issued_at(self) -> int: ...
    @property
    def signature(self) -> str: ...
    def verify(self, public_key: bytes | None = None) -> bool: ...
    def check_opening(self, opening: Opening) -> bool: ...
    def covers(self, opening: Opening, content: str) -> int:
        """The erased row covering ``content``; raises VerificationError if none."""
    def to_dict(self) -> dict[str, Any]: ...

@final
class PurgeReport:
    @property
    def seq(self) -> LogSeq: ...
    @property
    def targeted(self) -> list[int]: ...
    @property
    def erased(self) -> list[int]: ...
    @property
    def completion_seq(self) -> LogSeq | None: ...
    @property
    def receipt(self) -> Receipt: ...
    @property
    def opening(self) -> Opening: ...
    @property
    def cascade(self) -> list[dict[str, Any]]: ...
    @property
    def audit(self) -> dict[str, Any]: ...

@final
class Event:
    @property
    def seq(self) -> LogSeq: ...
    @property
    def time(self) -> int: ...
    @property
    def namespace(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def transitions(self) -> list[dict[str, Any]]: ...
    @property
    def commitments(self) -> list[str]: ...
    @property
    def prev_hash(self) -> str: ...
    @property
    def hash(self) -> str: ...

@final
class History:
    @property
    def chain(self) -> list[Row]: ...
    @property
    def events(self) -> list[Event]: ...

@final
class LogReport:
    @property
    def events(self) -> int: ...
    @property
    def checkpoints(self) -> int: ...
    @property
    def head_seq(self) -> LogSeq: ...
    @property
    def head_hash(self) -> str: ...

@final
class Plan:
    @property
    def rows(self) -> list[int]: ...
    @property
    def matches(self) -> list[dict[str, Any]]: ...
    @property
    def rejected(self) -> list[dict[str, Any]]: ...
    @property
    def planner(self) -> dict[str, Any] | None: ...
    @property
    def confidence(self) -> Literal["low", "medium", "high"] | None: ...

@final
class SweepReport:
    @property
    def decayed(self) -> list[int]: ...
    @property
    def expired(self) -> list[int]: ...

@final
class HashEmbedder:
    """The built-in embedder (no model, no network)."""

    def __new__(cls, dim: int = 384) -> HashEmbedder: ...
    @property
    def id(self) -> str: ...
    @property
    def dim(self) -> int: ...
    def embed(self, text: str) -> list[float]: ...
    def embed_batch(self, texts: Sequence[str]) -> list[list[float]]: ...

@final
class MiniLmEmbedder:
    """all-MiniLM-L6-v2 (384 dimensions) run in-process from local files."""

    def __new__(cls, model_dir: str | os.PathLike[str]) -> MiniLmEmbedder: ...
    @property
    def id(self) -> str: ...
    @property
    def dim(self) -> int: ...
    @property
    def model_dir(self) -> Path | None: ...
    def embed(self, text: str) -> list[float]: ...
    def embed_batch(self, texts: Sequence[str]) -> list[list[float]]: ...

@final
class Snapshot:
    """The store as it stood at one point of its log."""

    @property
    def at(self) -> tuple[Literal["seq", "time"], int]: ...
    def recall(
        self,
        query: str,
        *,
        k: int | None = None,
        namespace: _Namespace | None = None,
        filters: _Filter | None = None,
        kinds: _Kind | Iterable[_Kind] | None = None,
        include_submerged: bool = False,
        include_expired: bool = False,
        vector: _Vector | None = None,
        legs: _Legs = "hybrid",
        min_score: float = 0.0,
    ) -> builtins.list[Hit]: ...
    def list(
        self,
        *,
        namespace: _Namespace | None = None,
        filters: _Filter | None = None,
        kinds: _Kind | Iterable[_Kind] | None = None,
        include_submerged: bool = False,
        include_expired: bool = False,
        after: int | None = None,
        limit: int | None = None,
    ) -> builtins.list[Row]: ...

@final
class Store:
    """An oubli store: one file, opened in-process; a context manager; thread-safe."""

    def __new__(
        cls,
        path: str | os.PathLike[str],
        *,
        create: bool | None = None,
        read_only: bool = False,
        embedder: HashEmbedder | MiniLmEmbedder | _EmbedderLike | None = None,
        seed: bytes | None = None,
        signing_key: bytes | None = None,
        scrub_on_purge: bool = True,
        planner: Callable[[dict[str, Any]], dict[str, Any] | str] | None = None,
        defer_vector_graph: bool = False,
        min_confidence: Literal["low", "medium", "high"] = "low",
        vector_build_threads: int = 1,
    ) -> Store: ...
    def __enter__(self) -> Store: ...
    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> bool: ...
    def close(self) -> None: ...
    @property
    def closed(self) -> bool: ...
    @property
    def path(self) -> Path: ...
    @property
    def in_memory(self) -> bool: ...
    def memory_image(self) -> bytes | None: ...
    @property
    def public_key(self) -> bytes: ...
    @property
    def embedder_id(self) -> str: ...
    @property
    def dim(self) -> int: ...
    def embed(self, text: str) -> builtins.list[float]: ...
    def inscribe(
        self,
        text: str,
        *,
        namespace: _Namespace | None = None,
        key: str | None = None,
        metadata: Mapping[str, _MetaValue] | None = None,
        kind: _Kind | None = None,
        valid_until: _ValidUntil | None = None,
        derived_from: Iterable[int] | None = None,
        vector: _Vector | None = None,
    ) -> int: ...
    def inscribe_many(self, items: Iterable[str | dict[str, Any]]) -> builtins.list[int]: ...
    def build_vector_graph(self) -> int: ...
    def vector_graph_status(self) -> dict[str, Any]: ...
    def upsert(
        self,
        text: str,
        *,
        key: str,
        namespace: _Namespace | None = None,
        metadata: Mapping[str, _MetaValue] | None = None,
        kind: _Kind | None = None,
        valid_until: _ValidUntil | None = None,
        derived_from: Iterable[int] | None = None,
        vector: _Vector | None = None,
    ) -> int: ...
    def get(self, id: int) -> Row: ...
    def get_by_key(self, key: str, *, namespace: _Namespace | None = None) -> Row: ...
    def recall(
        self,
        query: str,
        *,
        k: int | None = None,
        namespace: _Namespace | None = None,
        filters: _Filter | None = None,
        kinds: _Kind | Iterable[_Kind] | None = None,
        include_submerged: bool = False,
        include_expired: bool = False,
        as_of: _AsOf | None = None,
        vector: _Vector | None = None,
        legs: _Legs = "hybrid",
        min_score: float = 0.0,
    ) -> builtins.list[Hit]: ...
    def list(
        self,
        *,
        namespace: _Namespace | None = None,
        filters: _Filter | None = None,
        kinds: _Kind | Iterable[_Kind] | None = None,
        include_submerged: bool = False,
        include_expired: bool = False,
        after: int | None = None,
        limit: int | None = None,
        as_of: _AsOf | None = None,
    ) -> builtins.list[Row]: ...
    def supersede(
        self,
        target: _TargetArg = None,
        text: str | None = None,
        *,
        key: str | None = None,
        namespace: _Namespace | None = None,
        metadata: Mapping[str, _MetaValue] | None = None,
        kind: _Kind | None = None,
        valid_until: _ValidUntil | None = None,
        derived_from: Iterable[int] | None = None,
        vector: _Vector | None = None,
    ) -> Superseded: ...
    def release(
        self, target: _TargetArg = None, *, key: str | None = None, namespace: _Namespace | None = None
    ) -> builtins.list[int]: ...
    def pin(
        self, target: _TargetArg = None, *, key: str | None = None, namespace: _Namespace | None = None
    ) -> builtins.list[int]: ...
    def resurface(
        self, target: _TargetArg = None, *, key: str | None = None, namespace: _Namespace | None = None
    ) -> builtins.list[int]: ...
    def purge(
        self,
        target: _TargetArg = None,
        *,
        key: str | None = None,
        namespace: _Namespace | None = None,
        deliver: Callable[[Opening], object] | None = None,
    ) -> PurgeReport: ...
    def plan(
        self,
        op: _Op,
        target: _TargetArg = None,
        *,
        key: str | None = None,
        namespace: _Namespace | None = None,
    ) -> Plan: ...
    def forget_user(self, user_id: str) -> PurgeReport:
        """Erases everything of one user (namespaces ``("user", user_id, ...)``) in one purge."""
    def plan_forget_user(self, user_id: str) -> builtins.list[int]: ...
    def declare_alias(
        self, namespace: _Namespace, forms: builtins.list[str], *, kind: str = "person"
    ) -> dict[str, Any]: ...
    def aliases(self, namespace: _Namespace | None = None) -> builtins.list[dict[str, Any]]: ...
    def remove_alias(self, id: int) -> None: ...
    def compact(
        self,
        budget: int,
        *,
        namespace: _Namespace | None = None,
        ids: builtins.list[int] | None = None,
        query: str | None = None,
        include_derived: bool = False,
        strict: bool = False,
        key: str | None = None,
        note_namespace: _Namespace | None = None,
        dry_run: bool = False,
    ) -> dict[str, Any]: ...
    def recompute(self, id: int) -> Superseded: ...
    def scrub(self) -> int: ...
    def set_decay_policy(
        self,
        namespace: _Namespace,
        *,
        half_life_ms: int | None = None,
        ttl_ms: int | None = None,
        floor: float = 0.05,
    ) -> None: ...
    def clear_decay_policy(self, namespace: _Namespace) -> None: ...
    def decay_policy(self, namespace: _Namespace) -> dict[str, Any] | None: ...
    def sweep(self) -> SweepReport: ...
    def history(self, id: int) -> History: ...
    def events(self, start: int = 1, end: int | None = None) -> builtins.list[Event]: ...
    def head(self) -> tuple[int, str]: ...
    def verify_log(self, public_key: bytes | None = None) -> LogReport: ...
    def receipts(self) -> builtins.list[Receipt]: ...
    def receipt(self, purge_id: int) -> Receipt: ...
    def pending_openings(self) -> builtins.list[int]: ...
    def take_opening(
        self, purge_id: int, deliver: Callable[[Opening], object] | None = None
    ) -> Opening: ...
    def as_of(self, at: _AsOf) -> Snapshot: ...

def verify_receipt(document: bytes | str, public_key: bytes | None = None) -> Receipt:
    """Verifies a receipt document; raises VerificationError on any changed byte."""

def join_namespace(labels: tuple[str, ...] | builtins.list[str]) -> str:
    """("user", "ana") -> "user:ana"; ":" and "\\" inside a label are escaped by a backslash."""

def split_namespace(namespace: str) -> tuple[str, ...]:
    """"user:ana" -> ("user", "ana"); the inverse of join_namespace."""
