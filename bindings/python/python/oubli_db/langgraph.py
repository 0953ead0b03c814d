"""A LangGraph store backed by oubli, whose delete really forgets.

:class:`OubliStore` implements ``langgraph.store.base.BaseStore``: namespaces are tuples of
labels, items are JSON dicts under a key, and ``put`` / ``get`` / ``search`` / ``delete`` /
``list_namespaces`` and their batch and async variants work as with LangGraph's own stores.
What differs is forgetting: ``delete`` (and ``put(..., None)``) *purges* the item and every
earlier version of it from the file, with a signed receipt, or *releases* it (soft forget,
kept for history), as configured.

    from langgraph.graph import StateGraph
    from oubli_db.langgraph import OubliStore

    store = OubliStore("memories.oubli")            # or OubliStore(oubli_db.Store(...))
    graph = builder.compile(store=store)             # nodes receive it as `store`

How items map to rows: the namespace ``("users", "ana")`` becomes the oubli namespace
``lg:users.ana`` (LangGraph forbids periods in labels), the item key becomes the row's
natural key, and the value becomes the row's text as canonical JSON. ``put`` on an existing
key supersedes the previous version (kept submerged, so ``store.store.history(id)`` shows
every version until a purge erases them). Search with a ``query`` runs oubli's hybrid recall
(BM25 + vectors) over the namespace prefix; without one it lists items, newest first. The
``index`` config works like LangGraph's: ``fields`` picks what is embedded, ``embed`` (a
LangChain ``Embeddings`` or a function of a list of texts) replaces the store's own embedder
for those vectors, and ``dims`` must equal the store's dimension.

TTL (``supports_ttl`` is True): ``put(..., ttl=minutes)`` (or ``TTLConfig.default_ttl``)
sets the row's ``valid_until`` to now plus the TTL, so recall, listing and ``get`` stop
returning the item once it expires and ``Store.sweep()`` submerges it (oubli's validity; it is
not erased: ``delete`` purges). A read with ``refresh_ttl`` (the default, or
``TTLConfig.refresh_on_read``) pushes the expiry back to now plus the item's TTL, by writing a
new version with the later ``valid_until`` (one supersede event, the value unchanged; the
vector is recomputed from the store's index fields). ``ttl=None`` means no expiry.

Limits: each namespace label and key must be a valid oubli field (non-empty, at most 512
bytes, no control characters), a value's JSON at most 64 KiB.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import Callable, Iterable
from datetime import datetime, timezone
from typing import Any, Literal

from langgraph.store.base import (
    BaseStore,
    GetOp,
    IndexConfig,
    Item,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    TTLConfig,
    ensure_embeddings,
    get_text_at_path,
    tokenize_path,
    validate_op_namespace,
)

from oubli_db._oubli import PurgeReport, Row, Store
from oubli_db.errors import InvalidInputError, NotFoundError
from oubli_db.times import EpochMillis

__all__ = ["OubliStore", "ForgetMode"]

ForgetMode = Literal["purge", "release"]

_MARK = "lg.v"
_CREATED = "lg.created_at"
_DEPTH = "lg.depth"
_LEVEL = "lg.ns."
_TTL = "lg.ttl_ms"
# Metadata entries per row are capped at 64; four are the marker, creation time, depth and TTL.
_MAX_DEPTH = 60
_MAX_K = 10_000


def _meta_str(row: Row, key: str) -> str:
    """A metadata entry this store wrote (always a string)."""
    return str(row.metadata[key])


def _meta_int(row: Row, key: str, default: int) -> int:
    """An integer this store wrote as a string metadata entry, or `default`."""
    value = row.metadata.get(key)
    return default if value is None else int(str(value))


def _ms_to_datetime(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc)


def _compare(value: Any, condition: Any) -> bool:
    """LangGraph's filter semantics: equality, or a dict of ``$eq``/``$ne``/``$gt``/``$gte``/
    ``$lt``/``$lte`` operators."""
    if isinstance(condition, dict) and condition and all(k.startswith("$") for k in condition):
        for op, target in condition.items():
            try:
                if op == "$eq":
                    ok = value == target
                elif op == "$ne":
                    ok = value != target
                elif op == "$gt":
                    ok = value is not None and value > target
                elif op == "$gte":
                    ok = value is not None and value >= target
                elif op == "$lt":
                    ok = value is not None and value < target
                elif op == "$lte":
                    ok = value is not None and value <= target
                else:
                    raise ValueError(f"unsupported filter operator {op!r}")
            except TypeError:
                ok = False
            if not ok:
                return False
        return True
    if isinstance(condition, dict) and isinstance(value, dict):
        return all(_compare(value.get(k), v) for k, v in condition.items())
    return bool(value == condition)


def _matches(condition: MatchCondition, namespace: tuple[str, ...]) -> bool:
    path = tuple(condition.path)
    if len(path) > len(namespace):
        return False
    part = namespace[: len(path)] if condition.match_type == "prefix" else namespace[-len(path) :]
    if not path:
        return True
    return all(p == "*" or p == n for p, n in zip(path, part))


class OubliStore(BaseStore):
    """A LangGraph ``BaseStore`` backed by an oubli store.

    Args:
        store: an open :class:`oubli_db.Store`, or a path (opened or created with ``store_options``).
        forget: what ``delete`` does: ``"purge"`` (default) erases the item and all its earlier
            versions from the file and issues a signed receipt; ``"release"`` submerges the
            live version (recall no longer returns it; history keeps it).
        index: LangGraph's ``IndexConfig`` (``dims``, ``embed``, ``fields``), optional.
        prefix: prefix of the oubli namespaces this store uses (default ``"lg"``).
        on_forget: called after each delete with ``(namespace, key, result)``, where ``result``
            is the :class:`oubli_db.PurgeReport` (purge) or the list of released row ids.
        store_options: keyword arguments for :class:`oubli_db.Store` when ``store`` is a path.
        ttl: LangGraph's ``TTLConfig`` (``default_ttl`` in minutes, ``refresh_on_read``).
        clock: the current time in epoch milliseconds, for TTLs (default: the system clock).
    """

    supports_ttl = True
    __slots__ = (
        "store",
        "forget",
        "prefix",
        "on_forget",
        "ttl_config",
        "_own",
        "_embeddings",
        "_fields",
        "_now",
    )

    def __init__(
        self,
        store: Store | str | os.PathLike[str],
        *,
        forget: ForgetMode = "purge",
        index: IndexConfig | None = None,
        prefix: str = "lg",
        on_forget: Callable[[tuple[str, ...], str, PurgeReport | list[int]], None] | None = None,
        store_options: dict[str, Any] | None = None,
        ttl: TTLConfig | None = None,
        clock: Callable[[], int] | None = None,
    ) -> None:
        if forget not in ("purge", "release"):
            raise ValueError(f"forget must be 'purge' or 'release', not {forget!r}")
        if isinstance(store, Store):
            self.store = store
            self._own = False
        else:
            self.store = Store(store, **(store_options or {}))
            self._own = True
        self.forget = forget
        self.prefix = prefix
        self.on_forget = on_forget
        self.ttl_config = ttl
        self._now: Callable[[], int] = clock or (lambda: int(time.time() * 1000))
        self._embeddings = None
        self._fields: list[tuple[str, list[str]]] | None = None
        if index:
            dims = index.get("dims")
            if dims is not None and dims != self.store.dim:
                raise ValueError(
                    f"index dims {dims} differ from the oubli store's dimension {self.store.dim}"
                )
            if index.get("embed") is not None:
                self._embeddings = ensure_embeddings(index["embed"])
            fields = index.get("fields") or ["$"]
            self._fields = [(f, tokenize_path(f)) for f in fields]

    # -- mapping between LangGraph and oubli ---------------------------------------------

    def _namespace(self, namespace: tuple[str, ...]) -> str:
        return f"{self.prefix}:" + ".".join(namespace)

    def _metadata(
        self, namespace: tuple[str, ...], created_ms: int | None, ttl_ms: int | None = None
    ) -> dict[str, str]:
        if len(namespace) > _MAX_DEPTH:
            raise InvalidInputError(f"namespaces deeper than {_MAX_DEPTH} labels are not supported")
        meta = {_MARK: "1", _DEPTH: str(len(namespace))}
        meta.update({f"{_LEVEL}{i}": label for i, label in enumerate(namespace)})
        if created_ms is not None:
            meta[_CREATED] = str(created_ms)
        if ttl_ms is not None:
            meta[_TTL] = str(ttl_ms)
        return meta

    def _expired(self, row: Row) -> bool:
        return row.valid_until is not None and int(row.valid_until) <= self._now()

    def _refresh(self, row: Row) -> Row:
        """Pushes an item's expiry back to now plus its TTL (a new version); rows without a
        TTL are returned as they are."""
        if _TTL not in row.metadata:
            return row
        ttl = _meta_int(row, _TTL, 0)
        value = self._value(row)
        index_text = self._index_text(value, None)
        if index_text is None and self._embeddings is not None:
            index_text = row.text
        vector = self._vector(index_text) if index_text is not None else None
        new = self.store.supersede(
            row.id,
            row.text,
            metadata=dict(row.metadata),
            vector=vector,
            valid_until=EpochMillis(self._now() + ttl),
        ).new_id
        return self.store.get(new)

    def _prefix_filters(self, prefix: tuple[str, ...]) -> dict[str, str]:
        filters = {_MARK: "1"}
        filters.update({f"{_LEVEL}{i}": label for i, label in enumerate(prefix)})
        return filters

    @staticmethod
    def _item_namespace(row: Row) -> tuple[str, ...]:
        depth = int(_meta_str(row, _DEPTH))
        return tuple(_meta_str(row, f"{_LEVEL}{i}") for i in range(depth))

    @staticmethod
    def _value(row: Row) -> dict[str, Any]:
        # Only live rows reach here, and a live row always has its text.
        assert row.text is not None, f"row {row.id} has no text"
        value: dict[str, Any] = json.loads(row.text)
        return value

    def _item(self, row: Row) -> Item:
        return Item(
            namespace=self._item_namespace(row),
            key=row.key or "",
            value=self._value(row),
            created_at=_ms_to_datetime(_meta_int(row, _CREATED, row.created_at)),
            updated_at=_ms_to_datetime(row.created_at),
        )

    def _search_item(self, row: Row, score: float | None = None) -> SearchItem:
        return SearchItem(
            namespace=self._item_namespace(row),
            key=row.key or "",
            value=self._value(row),
            created_at=_ms_to_datetime(_meta_int(row, _CREATED, row.created_at)),
            updated_at=_ms_to_datetime(row.created_at),
            score=score,
        )

    def _live_row(self, namespace: tuple[str, ...], key: str) -> Row | None:
        try:
            return self.store.get_by_key(key, namespace=self._namespace(namespace))
        except NotFoundError:
            return None

    def _index_text(self, value: dict[str, Any], index: Literal[False] | list[str] | None) -> str | None:
        if index is False or self._fields is None:
            return None
        paths = self._fields if index is None else [(f, tokenize_path(f)) for f in index]
        texts: list[str] = []
        for _, path in paths:
            texts.extend(get_text_at_path(value, path))
        return "\n".join(texts) if texts else None

    def _vector(self, text: str) -> list[float] | None:
        if self._embeddings is not None:
            return list(self._embeddings.embed_documents([text])[0])
        return self.store.embed(text)

    # -- operations ----------------------------------------------------------------------

    def _get(self, op: GetOp) -> Item | None:
        row = self._live_row(op.namespace, op.key)
        if row is None or self._expired(row):
            return None
        if op.refresh_ttl:
            row = self._refresh(row)
        return self._item(row)

    def _put(self, op: PutOp) -> None:
        if op.value is None:
            self._delete(op.namespace, op.key)
            return
        if not op.namespace:
            raise InvalidInputError("namespace cannot be empty")
        value = dict(op.value)
        text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        old = self._live_row(op.namespace, op.key)
        if old is not None and self._expired(old):
            # An expired item is gone: a put makes a new one (superseding the expired row).
            created = None
        else:
            created = _meta_int(old, _CREATED, old.created_at) if old is not None else None
        ttl_minutes = op.ttl
        if ttl_minutes is not None and (not isinstance(ttl_minutes, (int, float)) or ttl_minutes <= 0):
            raise InvalidInputError(f"ttl must be a positive number of minutes, not {ttl_minutes!r}")
        ttl_ms = None if ttl_minutes is None else max(1, round(ttl_minutes * 60_000))
        valid_until = None if ttl_ms is None else EpochMillis(self._now() + ttl_ms)
        index_text = self._index_text(value, op.index)
        if index_text is None and self._embeddings is not None:
            # Every row needs a vector; keep them all in the configured embedding space.
            index_text = text
        vector = self._vector(index_text) if index_text is not None else None
        meta = self._metadata(op.namespace, created, ttl_ms)
        ns = self._namespace(op.namespace)
        if old is None:
            # A first version's creation time is its row's; later versions carry it along.
            self.store.inscribe(
                text, namespace=ns, key=op.key, metadata=meta, vector=vector, valid_until=valid_until
            )
        else:
            self.store.supersede(old.id, text, metadata=meta, vector=vector, valid_until=valid_until)

    def _delete(self, namespace: tuple[str, ...], key: str) -> None:
        ns = self._namespace(namespace)
        try:
            if self.forget == "purge":
                result: PurgeReport | list[int] = self.store.purge(key=key, namespace=ns)
            else:
                result = self.store.release(key=key, namespace=ns)
        except NotFoundError:
            return
        if self.on_forget is not None:
            self.on_forget(namespace, key, result)

    def _search(self, op: SearchOp) -> list[SearchItem]:
        if op.limit <= 0 or op.offset < 0:
            return []
        want = op.offset + op.limit
        filters = self._prefix_filters(tuple(op.namespace_prefix))
        kept: list[tuple[Row, float | None]] = []
        if op.query:
            vector = None
            if self._embeddings is not None:
                vector = list(self._embeddings.embed_query(op.query))
            k = want if not op.filter else max(4 * want, 50)
            while True:
                k = min(k, _MAX_K)
                hits = self.store.recall(op.query, k=k, filters=filters, vector=vector)
                kept = [
                    (h.row, h.score)
                    for h in hits
                    if not self._expired(h.row) and self._passes(h.row, op.filter)
                ]
                if len(kept) >= want or len(hits) < k or k >= _MAX_K:
                    break
                k *= 4
        else:
            rows = self.store.list(filters=filters)
            rows.sort(key=lambda r: r.id, reverse=True)
            for row in rows:
                if not self._expired(row) and self._passes(row, op.filter):
                    kept.append((row, None))
                    if len(kept) >= want:
                        break
        # Only the items returned are read, so only they have their TTL refreshed.
        return [
            self._search_item(self._refresh(row) if op.refresh_ttl else row, score=score)
            for row, score in kept[op.offset : want]
        ]

    @staticmethod
    def _passes(row: Row, condition: dict[str, Any] | None) -> bool:
        if not condition:
            return True
        value = OubliStore._value(row)
        return all(_compare(value.get(k), c) for k, c in condition.items())

    def _list_namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        found: set[tuple[str, ...]] = set()
        after = None
        while True:
            page = self.store.list(filters={_MARK: "1"}, after=after, limit=1000)
            for row in page:
                if not self._expired(row):
                    found.add(self._item_namespace(row))
            if len(page) < 1000:
                break
            after = page[-1].id
        namespaces = [
            ns for ns in found if all(_matches(c, ns) for c in (op.match_conditions or ()))
        ]
        if op.max_depth is not None:
            namespaces = list({ns[: op.max_depth] for ns in namespaces})
        namespaces.sort()
        return namespaces[op.offset : op.offset + op.limit]

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Runs the operations in order; each sees the effects of the ones before it."""
        results: list[Result] = []
        for op in ops:
            validate_op_namespace(op)
            if isinstance(op, GetOp):
                results.append(self._get(op))
            elif isinstance(op, PutOp):
                self._put(op)
                results.append(None)
            elif isinstance(op, SearchOp):
                results.append(self._search(op))
            elif isinstance(op, ListNamespacesOp):
                results.append(self._list_namespaces(op))
            else:
                raise ValueError(f"unknown operation type: {type(op).__name__}")
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """Runs :meth:`batch` in a worker thread (oubli releases the GIL while it works)."""
        ops = list(ops)
        return await asyncio.get_running_loop().run_in_executor(None, self.batch, ops)

    def close(self) -> None:
        """Closes the oubli store if this object opened it."""
        if self._own:
            self.store.close()

    def __enter__(self) -> OubliStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
