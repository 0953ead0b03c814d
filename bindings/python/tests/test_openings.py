"""Openings the caller never received: `purge(..., deliver=)`, `pending_openings()` and
`take_opening()`, which returns a stored opening exactly once."""

from __future__ import annotations

from pathlib import Path

import pytest

import oubli_db as oubli


class Unreachable(Exception):
    pass


def test_a_failed_delivery_leaves_the_opening_pending_and_it_is_taken_exactly_once(
    store: oubli.Store, path: Path
) -> None:
    store.inscribe("Maria Keller's phone is +49 30 5550 1188")
    store.inscribe("The office plant needs water on Mondays")

    def unreachable(opening: oubli.Opening) -> None:
        raise Unreachable("the data subject's mailbox is down")

    with pytest.raises(Unreachable):
        store.purge("Maria Keller's phone", deliver=unreachable)
    # The erasure happened and its receipt is stored; the opening waits in the store.
    assert all("Maria" not in r.text for r in store.list())
    (receipt,) = store.receipts()
    assert store.pending_openings() == [receipt.purge_id]

    # A delivery that raises keeps it pending.
    with pytest.raises(Unreachable):
        store.take_opening(receipt.purge_id, deliver=unreachable)
    assert store.pending_openings() == [receipt.purge_id]

    delivered: list[oubli.Opening] = []
    opening = store.take_opening(receipt.purge_id, deliver=delivered.append)
    assert isinstance(opening, oubli.Opening)
    assert [o.document for o in delivered] == [opening.document]
    assert opening.purge_id == receipt.purge_id
    assert receipt.check_opening(opening)
    assert receipt.covers(opening, "Maria Keller's phone is +49 30 5550 1188")

    # Exactly once.
    assert store.pending_openings() == []
    with pytest.raises(oubli.OubliError):
        store.take_opening(receipt.purge_id)
    store.verify_log()


def test_a_delivered_opening_is_not_kept(store: oubli.Store) -> None:
    store.inscribe("Jonas Weber's email is jonas.weber@example.com")
    seen: list[oubli.Opening] = []
    report = store.purge("Jonas Weber's email", deliver=seen.append)
    assert [o.document for o in seen] == [report.opening.document]
    assert store.pending_openings() == []
    with pytest.raises(oubli.OubliError):
        store.take_opening(report.seq)
