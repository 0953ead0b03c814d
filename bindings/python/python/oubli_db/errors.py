"""The exceptions oubli raises.

Every exception is an :class:`OubliError` and carries a ``code`` naming the exact cause
(``"empty_text"``, ``"unknown_key"``, ``"duplicate_key"``, ``"log_tampered"``, ...). Some carry
more: ``row``, ``namespace``, ``key``, ``expected``/``got`` (vector dimensions), ``seq``.

Hierarchy::

    OubliError
    ├── InvalidInputError (also ValueError)     bad text, field, vector, argument, invalid UTF-8
    ├── NotFoundError (also LookupError)        unknown row or key, no store at the path
    │   └── NoMatchError                        a query target matched no row
    ├── ConflictError                           duplicate key, transition not allowed, file exists
    │   └── PurgedError                         the row was purged (void is absorbing)
    ├── StoreClosedError                        the store was closed
    ├── ReadOnlyError                           the store was opened read-only
    ├── LockedError                             another handle or process holds the store
    ├── IntegrityError                          corrupt file, tampered log, key or embedder mismatch
    │   └── VerificationError                   a receipt or opening fails verification
    ├── EmbedderError                           the embedder failed or its model is missing
    └── StorageError (also OSError)             storage engine, index or I/O failure

Wrong argument *types* raise the builtin ``TypeError``.
"""

from __future__ import annotations

__all__ = [
    "OubliError",
    "InvalidInputError",
    "NotFoundError",
    "NoMatchError",
    "ConflictError",
    "PurgedError",
    "StoreClosedError",
    "ReadOnlyError",
    "LockedError",
    "IntegrityError",
    "VerificationError",
    "EmbedderError",
    "StorageError",
]


class OubliError(Exception):
    """Base class of every oubli error. ``code`` names the exact cause."""

    code: str = "other"


class InvalidInputError(OubliError, ValueError):
    """Bad input: empty or oversized text, malformed namespace/key/metadata, wrong vector
    dimension, NaN, an argument out of range, or a string that is not valid UTF-8. A call that
    raises it changed nothing."""


class NotFoundError(OubliError, LookupError):
    """No row with this id, no live row with this key, or no store at the path."""


class NoMatchError(NotFoundError):
    """A query target matched no row."""


class ConflictError(OubliError):
    """The call conflicts with the store's state: a live row already holds the key, the
    transition is not allowed from the row's depth, or a file already exists."""


class PurgedError(ConflictError):
    """The row was purged: void is absorbing, nothing brings it back."""


class StoreClosedError(OubliError):
    """The store was closed."""


class ReadOnlyError(OubliError):
    """The store was opened read-only."""


class LockedError(OubliError):
    """Another handle or process holds the store for writing."""


class IntegrityError(OubliError):
    """The file or its log fails a check: corrupt, tampered, unsupported version, or opened
    with another signing key or embedder than it was created with."""


class VerificationError(IntegrityError):
    """A receipt or opening fails verification (changed byte, bad signature, not canonical,
    wrong key, content not covered)."""


class EmbedderError(OubliError):
    """The embedder failed, or its model files are missing."""


class StorageError(OubliError, OSError):
    """The storage engine, an index or the operating system failed."""
