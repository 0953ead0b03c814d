"""A LangGraph store backed by oubli, whose delete really forgets.

:class:`OubliStore` implements ``langgraph.store.base.BaseStore``: namespaces are tuples of
labels, items are JSON dicts under a key, and ``put`` / ``get`` / ``search`` / ``delete`` /
``list_namespaces`` and their batch and async variants work as with LangGraph's own stores.
What differs is forgetting: ``delete`` (and ``put(..., None)``) *purges* the item and every
earlier version of it from the file, with a signed receipt, or *releases* it (soft forget,
kept for history), as configured.

    from langgraph.graph import StateGraph
    from oubli.langgraph import OubliStore

    store = OubliStore("memories.oubli")            # or OubliStore(oubli.Store(...))
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

Limits: each namespace label and key must be a valid oubli field (non-empty, at most 512
bytes, no control characters), a value's JSON at most 64 KiB; TTLs are not supported
(``supports_ttl`` is False).
"""

from __future__ import annotations

import asyncio
import json
import os
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
    ensure_embeddings,
    get_text_at_path,
    tokenize_path,
    validate_op_namespace,
)

from oubli._oubli import PurgeReport, Row, Store
from oubli.errors import InvalidInputError, NotFoundError

__all__ = ["OubliStore", "ForgetMode"]

ForgetMode = Literal["purge", "release"]

_MARK = "lg.v"
_CREATED = "lg.created_at"
_DEPTH = "lg.depth"
_LEVEL = "lg.ns."
# Metadata entries per row are capped at 64; three are the marker, creation time and depth.
_MAX_DEPTH = 60
_MAX_K = 10_000


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
        store: an open :class:`oubli.Store`, or a path (opened or created with ``store_options``).
        forget: what ``delete`` does: ``"purge"`` (default) erases the item and all its earlier
            versions from the file and issues a signed receipt; ``"release"`` submerges the
            live version (recall no longer returns it; history keeps it).
        index: LangGraph's ``IndexConfig`` (``dims``, ``embed``, ``fields``), optional.
        prefix: prefix of the oubli namespaces this store uses (default ``"lg"``).
        on_forget: called after each delete with ``(namespace, key, result)``, where ``result``
            is the :class:`oubli.PurgeReport` (purge) or the list of released row ids.
        store_options: keyword arguments for :class:`oubli.Store` when ``store`` is a path.
    """

    supports_ttl = False
    __slots__ = ("store", "forget", "prefix", "on_forget", "_own", "_embeddings", "_fields")

    def __init__(
        self,
        store: Store | str | os.PathLike[str],
        *,
        forget: ForgetMode = "purge",
        index: IndexConfig | None = None,
        prefix: str = "lg",
        on_forget: Callable[[tuple[str, ...], str, PurgeReport | list[int]], None] | None = None,
        store_options: dict[str, Any] | None = None,
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

    def _metadata(self, namespace: tuple[str, ...], created_ms: int | None) -> dict[str, str]:
        if len(namespace) > _MAX_DEPTH:
            raise InvalidInputError(f"namespaces deeper than {_MAX_DEPTH} labels are not supported")
        meta = {_MARK: "1", _DEPTH: str(len(namespace))}
        meta.update({f"{_LEVEL}{i}": label for i, label in enumerate(namespace)})
        if created_ms is not None:
            meta[_CREATED] = str(created_ms)
        return meta

    def _prefix_filters(self, prefix: tuple[str, ...]) -> dict[str, str]:
        filters = {_MARK: "1"}
        filters.update({f"{_LEVEL}{i}": label for i, label in enumerate(prefix)})
        return filters

    @staticmethod
    def _item_namespace(row: Row) -> tuple[str, ...]:
        meta = row.metadata
        depth = int(meta[_DEPTH])
        return tuple(meta[f"{_LEVEL}{i}"] for i in range(depth))

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
            created_at=_ms_to_datetime(int(row.metadata.get(_CREATED, row.created_at))),
            updated_at=_ms_to_datetime(row.created_at),
        )

    def _search_item(self, row: Row, score: float | None = None) -> SearchItem:
        return SearchItem(
            namespace=self._item_namespace(row),
            key=row.key or "",
            value=self._value(row),
            created_at=_ms_to_datetime(int(row.metadata.get(_CREATED, row.created_at))),
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
        return None if row is None else self._item(row)

    def _put(self, op: PutOp) -> None:
        if op.value is None:
            self._delete(op.namespace, op.key)
            return
        if not op.namespace:
            raise InvalidInputError("namespace cannot be empty")
        value = dict(op.value)
        text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        old = self._live_row(op.namespace, op.key)
        created = int(old.metadata.get(_CREATED, old.created_at)) if old is not None else None
        index_text = self._index_text(value, op.index)
        if index_text is None and self._embeddings is not None:
            # Every row needs a vector; keep them all in the configured embedding space.
            index_text = text
        vector = self._vector(index_text) if index_text is not None else None
        meta = self._metadata(op.namespace, created)
        ns = self._namespace(op.namespace)
        if old is None:
            # A first version's creation time is its row's; later versions carry it along.
            self.store.inscribe(text, namespace=ns, key=op.key, metadata=meta, vector=vector)
        else:
            self.store.supersede(old.id, text, metadata=meta, vector=vector)

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
        kept: list[SearchItem] = []
        if op.query:
            vector = None
            if self._embeddings is not None:
                vector = list(self._embeddings.embed_query(op.query))
            k = want if not op.filter else max(4 * want, 50)
            while True:
                k = min(k, _MAX_K)
                hits = self.store.recall(op.query, k=k, filters=filters, vector=vector)
                kept = [
                    self._search_item(h.row, score=h.score)
                    for h in hits
                    if self._passes(h.row, op.filter)
                ]
                if len(kept) >= want or len(hits) < k or k >= _MAX_K:
                    break
                k *= 4
        else:
            rows = self.store.list(filters=filters)
            rows.sort(key=lambda r: r.id, reverse=True)
            for row in rows:
                if self._passes(row, op.filter):
                    kept.append(self._search_item(row))
                    if len(kept) >= want:
                        break
        return kept[op.offset : want]

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
