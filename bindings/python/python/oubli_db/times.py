"""Two kinds of integers the API keeps apart: points on the clock and points in the log.

- :data:`EpochMillis`: milliseconds since the Unix epoch, UTC. ``Row.created_at``,
  ``Row.surfaced_at`` and ``Row.valid_until`` are these. ``valid_until=`` takes a
  ``datetime`` (aware; a naive one is read as local time, as ``datetime.timestamp`` does), a
  ``timedelta`` from now (a time to live), or an ``EpochMillis``.
- :data:`LogSeq`: a sequence number of the store's event log (``Row.created_seq``,
  ``PurgeReport.seq``, ``Event.seq``). ``as_of=`` takes a ``datetime`` (the store as it stood at
  that time) or a ``LogSeq`` (as it stood just after that event).

At run time both are plain ``int``; the distinction is for type checkers, so that
``recall(..., as_of=row.created_at)`` (a time where a sequence number is expected) is flagged.
Write ``oubli_db.LogSeq(12)`` or ``oubli_db.EpochMillis(1_790_000_000_000)`` for a literal.
"""

from __future__ import annotations

from typing import NewType

__all__ = ["EpochMillis", "LogSeq"]

EpochMillis = NewType("EpochMillis", int)
"""Milliseconds since the Unix epoch (UTC)."""

LogSeq = NewType("LogSeq", int)
"""A sequence number of the store's event log."""
