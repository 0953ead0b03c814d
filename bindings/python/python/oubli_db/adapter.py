"""oubli behind ForgetEval's six-method Adapter Protocol.

ForgetEval ("Control-Plane Placement Shapes Forgetting", 2026) drives memory stores through
three mandatory recall-plane methods (``reset``, ``inscribe``, ``recall_texts``) and three
optional control-plane methods (``supersede``, ``release``, ``purge``). :class:`OubliAdapter`
implements all six, so a harness written against the protocol drives oubli unchanged::

    from oubli_db.adapter import OubliAdapter

    adapter = OubliAdapter()
    adapter.reset()
    adapter.inscribe("Ana's door code is 4417")
    adapter.supersede("Ana's door code", "Ana's door code is 9051")
    assert "9051" in " ".join(adapter.recall_texts("door code", 10))

Semantics match the Rust adapter of the conformance bank (``benches/src/oubli_adapter.rs``):
every ``reset`` starts a fresh store file in a private temporary directory; a control call
whose query matches nothing is a normal outcome (0 rows); a ``supersede`` that matches
nothing still inscribes the new text, since the new fact holds either way.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from oubli_db._oubli import HashEmbedder, PurgeReport, Store
from oubli_db.errors import NoMatchError

__all__ = ["Adapter", "OubliAdapter"]


@runtime_checkable
class Adapter(Protocol):
    """ForgetEval's Adapter Protocol: the shape a harness drives."""

    name: str

    def reset(self) -> None:
        """Start over with a fresh, empty store."""

    def inscribe(self, text: str) -> int | str:
        """Store a fact; return its id."""

    def recall_texts(self, q: str, k: int) -> list[str]:
        """The texts of the top ``k`` rows for ``q``, best first."""

    def supersede(self, old_q: str, new: str) -> None:
        """Replace the fact ``old_q`` describes with ``new``."""

    def release(self, q: str) -> int:
        """Soft-forget what ``q`` describes; return the number of rows released."""

    def purge(self, q: str) -> int:
        """Hard-erase what ``q`` describes; return the number of rows erased."""


class OubliAdapter:
    """oubli as a ForgetEval adapter.

    ``embedder`` is passed to every fresh :class:`oubli_db.Store` (default: the built-in hash
    embedder, as the Rust conformance runner uses, not the static table new stores get;
    ``oubli_db.minilm()`` for all-MiniLM-L6-v2). ``directory`` holds the store files
    (default: a private temporary directory removed by :meth:`close`). ``store_options`` are
    further keyword arguments for :class:`oubli_db.Store` (``seed``, ``scrub_on_purge``, ...).
    The last purge's report (with its signed receipt) is kept in :attr:`last_purge`.
    """

    name = "oubli"

    def __init__(
        self,
        *,
        embedder: Any = None,
        directory: str | os.PathLike[str] | None = None,
        store_options: dict[str, Any] | None = None,
    ) -> None:
        self._own_dir = directory is None
        self._dir = Path(tempfile.mkdtemp(prefix="oubli-adapter-") if directory is None else directory)
        self._embedder = HashEmbedder() if embedder is None else embedder
        self._options = dict(store_options or {})
        self._store: Store | None = None
        self._generation = 0
        self.last_purge: PurgeReport | None = None

    @property
    def store(self) -> Store:
        """The current store (created by the first call if :meth:`reset` was not called)."""
        if self._store is None:
            self.reset()
        assert self._store is not None
        return self._store

    def reset(self) -> None:
        """Closes and deletes the current store file and creates a fresh, empty store."""
        self._drop_store()
        self._generation += 1
        path = self._dir / f"case-{os.getpid()}-{self._generation}.oubli"
        self._store = Store(path, create=True, embedder=self._embedder, **self._options)
        self.last_purge = None

    def inscribe(self, text: str) -> int:
        """Inscribes ``text``; returns its row id."""
        return self.store.inscribe(text)

    def recall_texts(self, q: str, k: int) -> list[str]:
        """The texts of the ``k`` best rows for ``q`` (hybrid recall), best first."""
        return [h.text or "" for h in self.store.recall(q, k=k)]

    def supersede(self, old_q: str, new: str) -> None:
        """Supersedes the best row matching ``old_q`` with ``new``; inscribes ``new`` when
        nothing matches."""
        try:
            self.store.supersede(old_q, new)
        except NoMatchError:
            self.store.inscribe(new)

    def release(self, q: str) -> int:
        """Releases every row best matching ``q``; returns how many (0 when none match)."""
        try:
            return len(self.store.release(q))
        except NoMatchError:
            return 0

    def purge(self, q: str) -> int:
        """Purges what ``q`` describes and its closure; returns the number of rows erased
        (0 when none match)."""
        try:
            report = self.store.purge(q)
        except NoMatchError:
            return 0
        self.last_purge = report
        return len(report.erased)

    def close(self) -> None:
        """Closes the store and removes the temporary directory (if the adapter made it)."""
        self._drop_store()
        if self._own_dir:
            shutil.rmtree(self._dir, ignore_errors=True)

    def __enter__(self) -> OubliAdapter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _drop_store(self) -> None:
        if self._store is not None:
            path = self._store.path
            self._store.close()
            self._store = None
            try:
                os.remove(path)
            except FileNotFoundError:
                pass
