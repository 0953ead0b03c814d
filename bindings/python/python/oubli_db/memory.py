"""``oubli_db.Memory``: mem0's verbs over an oubli store, for code ported from mem0.

``add``, ``search``, ``get_all``, ``get``, ``update``, ``delete``, ``delete_all`` and ``history``
take and return what mem0's ``Memory`` does (dicts with ``"results"``, items with ``"id"``,
``"memory"``, ``"metadata"``, ``"score"``, ``"created_at"``, ``"user_id"``, ...). Scoping by
``user_id`` / ``agent_id`` / ``run_id`` follows :mod:`oubli_db.scope`, the rule the MCP server
uses. Where oubli differs, on purpose:

- ``add`` stores each message's content as one memory (there is no LLM extraction step; mem0's
  ``infer=False``). System messages are skipped.
- Ids are the store's row ids, as strings. ``update`` supersedes: the new version gets a new id
  (returned), the old one is kept for history; ``get``, ``update``, ``delete`` and ``history``
  accept any id of a memory's versions and act on its current version.
- ``delete`` is a purge: the memory and all its versions are erased from the file, and the
  result carries the signed receipt. ``delete_all(user_id=...)`` is ``Store.forget_user``: one
  purge, one receipt, for everything of that user.
- There is no ``reset``: erasing a whole store is deleting its file.

>>> m = Memory("agent.oubli")                                           # doctest: +SKIP
>>> m.add("I'm vegetarian", user_id="ana")                              # doctest: +SKIP
{'results': [{'id': '1', 'memory': "I'm vegetarian", 'event': 'ADD'}]}
>>> m.search("food preferences", user_id="ana")["results"][0]["memory"]  # doctest: +SKIP
"I'm vegetarian"
"""

from __future__ import annotations

import os
from datetime import datetime, timezone
from types import TracebackType
from typing import Any

from oubli_db._oubli import Row, Store, split_namespace
from oubli_db.errors import NoMatchError, NotFoundError
from oubli_db.scope import USER_LABEL, Scope

__all__ = ["Memory"]

_SCOPE_KEYS = ("agent_id", "run_id")


def _iso(ms: int | None) -> str | None:
    if ms is None:
        return None
    return datetime.fromtimestamp(int(ms) / 1000, tz=timezone.utc).isoformat()


def _scope(user_id: str | None, agent_id: str | None, run_id: str | None) -> Scope:
    return Scope(user_id=user_id, agent_id=agent_id, run_id=run_id)


def _require_scope(user_id: str | None, agent_id: str | None, run_id: str | None) -> None:
    if user_id is None and agent_id is None and run_id is None:
        raise ValueError("At least one of 'user_id', 'agent_id', or 'run_id' must be provided.")


def _messages(messages: str | dict[str, Any] | list[Any]) -> list[str]:
    """The texts to store: a str as is; a message dict's or each list item's ``content``
    (system messages skipped)."""
    if isinstance(messages, str):
        return [messages]
    if isinstance(messages, dict):
        messages = [messages]
    out: list[str] = []
    for m in messages:
        if isinstance(m, str):
            out.append(m)
        elif isinstance(m, dict):
            if m.get("role") == "system":
                continue
            content = m.get("content")
            if not isinstance(content, str):
                raise TypeError("a message's content must be str")
            out.append(content)
        else:
            raise TypeError(f"messages must be str, dict or a list of them, not {type(m).__name__}")
    return out


class Memory:
    """mem0's ``Memory`` verbs over one oubli store (see the module docs).

    ``Memory(path, **options)`` opens (or creates) the store at ``path`` with ``Store``'s
    keyword options; ``Memory(store)`` wraps an open one. ``with Memory(...) as m:`` closes it.
    """

    def __init__(self, store: Store | str | os.PathLike[str] = "oubli-memory.oubli", **options: Any) -> None:
        self.store = store if isinstance(store, Store) else Store(store, **options)

    def __enter__(self) -> Memory:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Memory({self.store!r})"

    def close(self) -> None:
        """Closes the store."""
        self.store.close()

    # -- reading -------------------------------------------------------------------------

    @staticmethod
    def _item(row: Row, score: float | None = None) -> dict[str, Any]:
        labels = split_namespace(row.namespace)
        meta = {k: v for k, v in row.metadata.items() if k not in _SCOPE_KEYS}
        item: dict[str, Any] = {
            "id": str(row.id),
            "memory": row.text,
            "metadata": meta or None,
            "created_at": _iso(row.created_at),
            "updated_at": _iso(row.created_at) if row.supersedes is not None else None,
            "user_id": labels[1] if len(labels) >= 2 and labels[0] == USER_LABEL else None,
            "agent_id": row.metadata.get("agent_id"),
            "run_id": row.metadata.get("run_id"),
        }
        if score is not None:
            item["score"] = score
        return item

    def _current(self, memory_id: str | int) -> Row | None:
        """The current version of a memory (following supersedes), or None if it is unknown
        or erased."""
        try:
            row = self.store.get(int(memory_id))
        except (NotFoundError, ValueError):
            return None
        seen = 0
        while row.superseded_by is not None and seen < 1024:
            row = self.store.get(row.superseded_by)
            seen += 1
        return None if row.text is None else row

    def get(self, memory_id: str | int) -> dict[str, Any] | None:
        """The memory (its current version), or None if there is none."""
        row = self._current(memory_id)
        return None if row is None else self._item(row)

    def get_all(
        self,
        *,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        filters: dict[str, Any] | None = None,
        limit: int = 100,
    ) -> dict[str, Any]:
        """Every live memory of the scope (at most ``limit``), oldest first."""
        _require_scope(user_id, agent_id, run_id)
        kw = _scope(user_id, agent_id, run_id).recall_kwargs(filters)
        rows = self.store.list(limit=limit, **kw)
        return {"results": [self._item(r) for r in rows]}

    def search(
        self,
        query: str,
        *,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        limit: int = 100,
        filters: dict[str, Any] | None = None,
        threshold: float | None = None,
    ) -> dict[str, Any]:
        """The memories of the scope that best match ``query``, best first, each with its
        ``score`` (0 to 1); ``threshold`` drops lower scores."""
        _require_scope(user_id, agent_id, run_id)
        kw = _scope(user_id, agent_id, run_id).recall_kwargs(filters)
        hits = self.store.recall(query, k=limit, min_score=threshold or 0.0, **kw)
        return {"results": [self._item(h.row, h.score) for h in hits]}

    def history(self, memory_id: str | int) -> list[dict[str, Any]]:
        """The memory's versions as mem0's change events (``ADD``, ``UPDATE``, ``DELETE``),
        oldest first."""
        try:
            chain = self.store.history(int(memory_id)).chain
        except (NotFoundError, ValueError):
            return []
        out: list[dict[str, Any]] = []
        previous: str | None = None
        for i, row in enumerate(chain):
            if row.text is None:
                event = "DELETE"
            elif i == 0:
                event = "ADD"
            else:
                event = "UPDATE"
            out.append(
                {
                    "id": str(row.id),
                    "memory_id": str(chain[0].id),
                    "old_memory": previous,
                    "new_memory": row.text,
                    "event": event,
                    "created_at": _iso(row.created_at),
                    "is_deleted": row.text is None,
                }
            )
            previous = row.text
        return out

    # -- writing -------------------------------------------------------------------------

    def add(
        self,
        messages: str | dict[str, Any] | list[Any],
        *,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        metadata: dict[str, Any] | None = None,
        infer: bool = False,
    ) -> dict[str, Any]:
        """Stores each message's content as one memory of the scope. ``infer=True`` (an LLM
        extracting facts) is not supported and raises ``ValueError``."""
        _require_scope(user_id, agent_id, run_id)
        if infer:
            raise ValueError("oubli stores messages as given: infer=True needs an LLM, use infer=False")
        texts = _messages(messages)
        kw = _scope(user_id, agent_id, run_id).inscribe_kwargs(metadata)
        ids = self.store.inscribe_many([{"text": t, **kw} for t in texts])
        return {"results": [{"id": str(i), "memory": t, "event": "ADD"} for i, t in zip(ids, texts)]}

    def update(self, memory_id: str | int, data: str) -> dict[str, Any]:
        """Replaces the memory's text (a new version with a new ``id``; the old one is kept
        for history)."""
        row = self._current(memory_id)
        if row is None:
            raise NotFoundError(f"no memory {memory_id}")
        s = self.store.supersede(row.id, data)
        return {"message": "Memory updated successfully!", "id": str(s.new_id)}

    def delete(self, memory_id: str | int) -> dict[str, Any]:
        """Erases the memory and all its versions for good (a purge); the result carries the
        signed ``receipt`` and the data subject's ``opening``."""
        row = self._current(memory_id)
        if row is None:
            raise NotFoundError(f"no memory {memory_id}")
        r = self.store.purge(row.id)
        return {
            "message": "Memory deleted successfully!",
            "erased": [str(i) for i in r.erased],
            "receipt": r.receipt,
            "opening": r.opening,
        }

    def delete_all(
        self,
        *,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
    ) -> dict[str, Any]:
        """Erases every memory of the scope. With ``user_id`` alone this is
        ``Store.forget_user``: one purge and one receipt for everything of the user (every
        namespace ``("user", user_id, ...)``). With ``agent_id`` or ``run_id``, each matching
        memory is purged (one receipt each)."""
        _require_scope(user_id, agent_id, run_id)
        if agent_id is None and run_id is None and user_id is not None:
            try:
                r = self.store.forget_user(user_id)
            except NoMatchError:
                return {"message": "No memories found to delete.", "erased": [], "receipts": []}
            return {
                "message": "Memories deleted successfully!",
                "erased": [str(i) for i in r.erased],
                "receipts": [r.receipt],
                "openings": [r.opening],
            }
        kw = _scope(user_id, agent_id, run_id).recall_kwargs()
        erased: list[str] = []
        receipts = []
        openings = []
        for row in self.store.list(include_submerged=True, **kw):
            if str(row.id) in erased:
                continue
            r = self.store.purge(row.id)
            erased.extend(str(i) for i in r.erased)
            receipts.append(r.receipt)
            openings.append(r.opening)
        message = "Memories deleted successfully!" if erased else "No memories found to delete."
        return {"message": message, "erased": erased, "receipts": receipts, "openings": openings}
