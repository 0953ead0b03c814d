"""One store shared by many threads; the GIL is released while the engine works."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import oubli_db as oubli


def test_many_threads_share_one_store(store: oubli.Store) -> None:
    writers, per_writer = 4, 25

    def write(w: int) -> list[int]:
        return [
            store.inscribe(f"thread {w} fact {i} about topic{w}", namespace=f"t{w}", key=f"k{i}")
            for i in range(per_writer)
        ]

    def read(w: int) -> int:
        seen = 0
        for _ in range(per_writer):
            seen += len(store.recall(f"topic{w} fact", k=5))
            seen += len(store.list(namespace=f"t{w}", limit=5))
        return seen

    with ThreadPoolExecutor(max_workers=8) as pool:
        written = [pool.submit(write, w) for w in range(writers)]
        reads = [pool.submit(read, w) for w in range(writers)]
        ids = [i for f in written for i in f.result()]
        for f in reads:
            f.result()
    assert len(ids) == len(set(ids)) == writers * per_writer
    assert len(store.list()) == writers * per_writer
    report = store.verify_log()
    assert report.events == writers * per_writer
    for w in range(writers):
        assert {r.key for r in store.list(namespace=f"t{w}")} == {f"k{i}" for i in range(per_writer)}


def test_concurrent_forgetting_keeps_the_log_valid(store: oubli.Store) -> None:
    ids = store.inscribe_many([f"customer {i} phone number is 555-01{i:02d}" for i in range(12)])

    def forget(i: int) -> str:
        if i % 3 == 0:
            return f"purged {store.purge(ids[i]).erased}"
        if i % 3 == 1:
            return f"released {store.release(ids[i])}"
        return f"superseded {store.supersede(ids[i], f'customer {i} phone number is 555-99{i:02d}').new_id}"

    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(forget, range(12)))
    assert len(results) == 12
    states = [store.get(i).state for i in ids]
    assert states.count("void") == 4
    assert states.count("submerged") == 8
    assert store.verify_log().events == store.head()[0]


def test_store_calls_release_the_gil(path: Path) -> None:
    """While one thread is inside a long store call, a pure-Python thread keeps running.

    The spinner timestamps its progress. Stamps that fall well inside the window of a store
    call (10 ms margins for the moments the call starts and returns with the GIL held) prove
    the GIL was released: with it held for the whole call, the spinner could not run there."""
    with oubli.Store(path) as store:
        batch = [f"memory number {i} about subject {i % 97} and detail {i * 7}" for i in range(3000)]
        stamps: list[float] = []
        stop = threading.Event()

        def spin() -> None:
            while not stop.is_set():
                stamps.append(time.perf_counter())
                for _ in range(200):
                    pass

        spinner = threading.Thread(target=spin)
        spinner.start()
        try:
            time.sleep(0.05)
            inside = 0
            longest = 0.0
            for _ in range(5):
                start = time.perf_counter()
                store.inscribe_many(batch)
                end = time.perf_counter()
                longest = max(longest, end - start)
                inside += sum(1 for t in stamps if start + 0.01 < t < end - 0.01)
                if inside >= 10:
                    break
            assert longest > 0.03, f"store call too short to tell ({longest:.3f} s)"
            assert inside >= 10, f"only {inside} spinner stamps inside store calls"
        finally:
            stop.set()
            spinner.join()
