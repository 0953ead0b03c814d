"""Per-user scoping: ``user_id``, ``agent_id`` and ``run_id`` mapped onto namespaces and
metadata, by the one rule the MCP server (``oubli mcp``) and ``Store.forget_user`` follow.

- ``namespace``, when given, is used as is; otherwise ``user_id`` gives the namespace
  ``("user", user_id)`` (the string ``"user:<user_id>"``, a ``:`` or ``\\`` in the id escaped,
  see :func:`oubli_db.join_namespace`); with neither, the store's default namespace.
- ``agent_id`` and ``run_id`` are stored as the metadata entries ``agent_id`` and ``run_id`` on
  a new row, and become equality filters on recall and listing.
- ``oubli forget-user STORE USER_ID`` (the engine's ``Store::forget_user``) erases every namespace ``("user", user_id, ...)``: the user's
  namespace and every namespace below it (``("user", "ana", "notes")``), never another user's.

>>> s = Scope(user_id="ana", agent_id="planner")
>>> s.namespace
'user:ana'
>>> s.inscribe_kwargs()
{'namespace': 'user:ana', 'metadata': {'agent_id': 'planner'}}
>>> s.recall_kwargs()
{'namespace': 'user:ana', 'filters': {'agent_id': 'planner'}}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from oubli_db._oubli import join_namespace

__all__ = ["Scope", "user_namespace"]

#: The first label of every user's namespace.
USER_LABEL = "user"


def user_namespace(user_id: str) -> str:
    """The namespace of ``user_id``: ``("user", user_id)`` in string form."""
    if not isinstance(user_id, str):
        raise TypeError(f"user_id must be str, not {type(user_id).__name__}")
    return join_namespace((USER_LABEL, user_id))


@dataclass(frozen=True)
class Scope:
    """Who a call acts for. Every field is optional; see the module docs for the rule."""

    user_id: str | None = None
    agent_id: str | None = None
    run_id: str | None = None
    namespace_override: str | tuple[str, ...] | None = None

    @property
    def namespace(self) -> str | None:
        """The namespace calls in this scope act in, or None for the default namespace."""
        ns = self.namespace_override
        if ns is not None:
            return ns if isinstance(ns, str) else join_namespace(ns)
        if self.user_id is not None:
            return user_namespace(self.user_id)
        return None

    @property
    def metadata(self) -> dict[str, str]:
        """The metadata entries this scope adds to a new row or requires of a found one."""
        out: dict[str, str] = {}
        if self.agent_id is not None:
            out["agent_id"] = self.agent_id
        if self.run_id is not None:
            out["run_id"] = self.run_id
        return out

    def inscribe_kwargs(self, metadata: dict[str, Any] | None = None) -> dict[str, Any]:
        """Keyword arguments of ``Store.inscribe`` for a row in this scope (``metadata`` added
        to the scope's entries; the scope's win on a clash)."""
        out: dict[str, Any] = {}
        if self.namespace is not None:
            out["namespace"] = self.namespace
        meta = {**(metadata or {}), **self.metadata}
        if meta:
            out["metadata"] = meta
        return out

    def recall_kwargs(self, filters: dict[str, Any] | None = None) -> dict[str, Any]:
        """Keyword arguments of ``Store.recall`` / ``Store.list`` confined to this scope."""
        out: dict[str, Any] = {}
        if self.namespace is not None:
            out["namespace"] = self.namespace
        f = {**(filters or {}), **self.metadata}
        if f:
            out["filters"] = f
        return out
