"""``AsyncStore``: the store for asyncio code.

Every call runs the synchronous :class:`oubli_db.Store` method in a worker thread
(:func:`asyncio.to_thread`), so the event loop never blocks on disk, embedding or a purge's
scrub. The engine releases the GIL, so concurrent calls overlap (many readers, one writer).

>>> async def main() -> None:                                        # doctest: +SKIP
...     async with await AsyncStore.open("agent.oubli") as store:
...         await store.inscribe("Ana's door code is 4417", namespace=("user", "ana"))
...         hits = await store.recall("door code", namespace=("user", "ana"))
...         report = await store.purge("Ana's door code", namespace=("user", "ana"))
"""

from __future__ import annotations

import asyncio
import builtins
import os
from collections.abc import Iterable
from pathlib import Path
from types import TracebackType
from typing import Any

from oubli_db._oubli import (
    Event,
    Hit,
    History,
    LogReport,
    Opening,
    Plan,
    PurgeReport,
    Receipt,
    Row,
    Snapshot,
    Store,
    Superseded,
    SweepReport,
)

__all__ = ["AsyncStore"]


class AsyncStore:
    """An :class:`oubli_db.Store` whose calls are coroutines. Arguments and results are those of
    the ``Store`` method of the same name.

    Build it with ``await AsyncStore.open(path, **options)`` (opening reads the file, so it
    runs in a thread too) or wrap an open store: ``AsyncStore(store)``. ``async with`` closes
    it.
    """

    def __init__(self, store: Store) -> None:
        self.store = store

    @classmethod
    async def open(cls, path: str | os.PathLike[str], **options: Any) -> AsyncStore:
        """Opens (or creates) the store at ``path`` with ``Store``'s keyword options."""
        return cls(await asyncio.to_thread(Store, path, **options))

    async def __aenter__(self) -> AsyncStore:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    def __repr__(self) -> str:
        return f"AsyncStore({self.store!r})"

    @property
    def closed(self) -> bool:
        """Whether the store was closed."""
        return self.store.closed

    @property
    def path(self) -> Path:
        """The file the store lives in."""
        return self.store.path

    @property
    def public_key(self) -> bytes:
        """The store's ed25519 public key."""
        return self.store.public_key

    async def close(self) -> None:
        await asyncio.to_thread(self.store.close)

    async def inscribe(self, text: str, **kwargs: Any) -> int:
        return await asyncio.to_thread(self.store.inscribe, text, **kwargs)

    async def inscribe_many(self, items: Iterable[str | dict[str, Any]]) -> builtins.list[int]:
        return await asyncio.to_thread(self.store.inscribe_many, list(items))

    async def upsert(self, text: str, **kwargs: Any) -> int:
        return await asyncio.to_thread(self.store.upsert, text, **kwargs)

    async def get(self, id: int) -> Row:
        return await asyncio.to_thread(self.store.get, id)

    async def get_by_key(self, key: str, **kwargs: Any) -> Row:
        return await asyncio.to_thread(self.store.get_by_key, key, **kwargs)

    async def recall(self, query: str, **kwargs: Any) -> builtins.list[Hit]:
        return await asyncio.to_thread(self.store.recall, query, **kwargs)

    async def list(self, **kwargs: Any) -> builtins.list[Row]:
        return await asyncio.to_thread(self.store.list, **kwargs)

    async def supersede(self, *args: Any, **kwargs: Any) -> Superseded:
        return await asyncio.to_thread(self.store.supersede, *args, **kwargs)

    async def release(self, *args: Any, **kwargs: Any) -> builtins.list[int]:
        return await asyncio.to_thread(self.store.release, *args, **kwargs)

    async def pin(self, *args: Any, **kwargs: Any) -> builtins.list[int]:
        return await asyncio.to_thread(self.store.pin, *args, **kwargs)

    async def resurface(self, *args: Any, **kwargs: Any) -> builtins.list[int]:
        return await asyncio.to_thread(self.store.resurface, *args, **kwargs)

    async def purge(self, *args: Any, **kwargs: Any) -> PurgeReport:
        return await asyncio.to_thread(self.store.purge, *args, **kwargs)

    async def plan(self, *args: Any, **kwargs: Any) -> Plan:
        return await asyncio.to_thread(self.store.plan, *args, **kwargs)

    async def forget_user(self, user_id: str) -> PurgeReport:
        return await asyncio.to_thread(self.store.forget_user, user_id)

    async def plan_forget_user(self, user_id: str) -> builtins.list[int]:
        return await asyncio.to_thread(self.store.plan_forget_user, user_id)

    async def declare_alias(self, namespace: str | tuple[str, ...], forms: builtins.list[str], **kwargs: Any) -> dict[str, Any]:
        return await asyncio.to_thread(self.store.declare_alias, namespace, forms, **kwargs)

    async def aliases(self, namespace: str | tuple[str, ...] | None = None) -> builtins.list[dict[str, Any]]:
        return await asyncio.to_thread(self.store.aliases, namespace)

    async def remove_alias(self, id: int) -> None:
        await asyncio.to_thread(self.store.remove_alias, id)

    async def compact(self, budget: int, **kwargs: Any) -> dict[str, Any]:
        return await asyncio.to_thread(self.store.compact, budget, **kwargs)

    async def recompute(self, id: int) -> Superseded:
        return await asyncio.to_thread(self.store.recompute, id)

    async def scrub(self) -> int:
        return await asyncio.to_thread(self.store.scrub)

    async def sweep(self) -> SweepReport:
        return await asyncio.to_thread(self.store.sweep)

    async def set_decay_policy(self, namespace: str | tuple[str, ...], **kwargs: Any) -> None:
        await asyncio.to_thread(self.store.set_decay_policy, namespace, **kwargs)

    async def clear_decay_policy(self, namespace: str | tuple[str, ...]) -> None:
        await asyncio.to_thread(self.store.clear_decay_policy, namespace)

    async def decay_policy(self, namespace: str | tuple[str, ...]) -> dict[str, Any] | None:
        return await asyncio.to_thread(self.store.decay_policy, namespace)

    async def history(self, id: int) -> History:
        return await asyncio.to_thread(self.store.history, id)

    async def events(self, start: int = 1, end: int | None = None) -> builtins.list[Event]:
        return await asyncio.to_thread(self.store.events, start, end)

    async def head(self) -> tuple[int, str]:
        return await asyncio.to_thread(self.store.head)

    async def verify_log(self, public_key: bytes | None = None) -> LogReport:
        return await asyncio.to_thread(self.store.verify_log, public_key)

    async def receipts(self) -> builtins.list[Receipt]:
        return await asyncio.to_thread(self.store.receipts)

    async def receipt(self, purge_id: int) -> Receipt:
        return await asyncio.to_thread(self.store.receipt, purge_id)

    async def pending_openings(self) -> builtins.list[int]:
        return await asyncio.to_thread(self.store.pending_openings)

    async def take_opening(self, purge_id: int, deliver: Any = None) -> Opening:
        return await asyncio.to_thread(self.store.take_opening, purge_id, deliver)

    async def as_of(self, at: Any) -> Snapshot:
        return await asyncio.to_thread(self.store.as_of, at)

    async def embed(self, text: str) -> builtins.list[float]:
        return await asyncio.to_thread(self.store.embed, text)
