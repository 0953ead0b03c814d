#!/usr/bin/env python3
"""oubli beside SQLite (FTS5 + sqlite-vec) and LanceDB on the same generated memories.

Usage:
    pip install ./bindings/python apsw sqlite-vec lancedb numpy
    python3 benches/peers/peers.py --rows 10000 [--rows 100000 ...] [--out docs/peers.md]

Every store gets the same rows (synthetic memories of 60-120 bytes, deterministic in --seed)
and the same 384-d vectors (computed once with oubli's built-in hash embedder and handed to
each store), then the script measures, per store and size:

- batch load (rows/s): all rows in batches of 5,000 (oubli loads with its vector graph
  deferred, `defer_vector_graph=True`, as the peers build no vector index while loading);
- vector index built after the load (s): oubli's `build_vector_graph()`, which links the loaded
  vectors into its HNSW graph before the recalls below (the peers' recalls scan every vector);
- single durable insert p50 / p95 (ms): 100 one-row inserts into the loaded store, each
  acknowledged durable (oubli: a committed transaction; SQLite: WAL with synchronous=FULL;
  LanceDB: one `add`);
- hybrid recall p50 / p99 (ms), k = 10: oubli `recall`; SQLite: FTS5 BM25 top 50 and sqlite-vec
  top 50 fused with RRF in Python; LanceDB: its hybrid query (full-text + vector, RRF);
- vector recall p50 (ms), k = 10;
- erasure (ms): delete one row until its text is gone from the files (oubli: `purge`, which
  scrubs; SQLite: DELETE, then `VACUUM` and a WAL checkpoint; LanceDB: `delete` then
  `optimize` with no retained versions), with the files scanned for the erased text afterwards;
- bytes per row on disk after the load;
- open + first query (ms) in a fresh process.

Not run in CI (it installs peers and takes minutes at 100k rows). Results are printed as a
markdown table with ratios to oubli, and appended to --out when given.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DIM = 384
BATCH = 5_000
SINGLE_INSERTS = 100
QUERIES = 200
K = 10

PEOPLE = ["Ana", "Ben", "Chloe", "Dmitri", "Esther", "Farid", "Grace", "Hiro", "Ines", "Jonas",
          "Kofi", "Lena", "Mateo", "Nadia", "Omar", "Priya", "Quentin", "Rosa", "Sven", "Tariq"]
TOPICS = [
    "prefers {a} coffee in the morning and tea after {b}",
    "booked a trip to {c} for the {a} conference next {m}",
    "asked the assistant to remind them about the {a} invoice on {m} {d}",
    "is allergic to {a} and avoids restaurants that cook with {b}",
    "moved the {a} meeting with the {b} team to {m} {d}",
    "keeps the spare key for the {a} flat with a neighbour in {c}",
    "wants a {a} plan for {b} training three times a week",
    "changed the {a} password for the {b} account on {m} {d}",
]
WORDS = ["oat", "green", "sales", "design", "garden", "budget", "shellfish", "peanut", "kiwi",
         "quarterly", "spring", "running", "rowing", "staging", "billing", "travel", "family",
         "winter", "legal", "research", "cycling", "archive", "mobile", "cloud"]
CITIES = ["Lisbon", "Tallinn", "Osaka", "Nairobi", "Quito", "Turin", "Malmo", "Hanoi"]
MONTHS = ["January", "March", "May", "July", "September", "November"]


def memories(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        t = rng.choice(TOPICS).format(a=rng.choice(WORDS), b=rng.choice(WORDS),
                                      c=rng.choice(CITIES), m=rng.choice(MONTHS),
                                      d=rng.randint(1, 28))
        out.append(f"{rng.choice(PEOPLE)} {t} (note {i})")
    return out


def queries(n: int, seed: int) -> list[str]:
    rng = random.Random(seed + 1)
    return [f"{rng.choice(PEOPLE)} {rng.choice(WORDS)} {rng.choice(WORDS)}" for _ in range(n)]


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def dir_bytes(path: Path) -> int:
    if path.is_file():
        return path.stat().st_size
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def contains(path: Path, needle: bytes) -> bool:
    files = [path] if path.is_file() else [f for f in path.rglob("*") if f.is_file()]
    for sib in path.parent.glob(path.name + "*"):
        if sib.is_file() and sib not in files:
            files.append(sib)
    return any(needle in f.read_bytes() for f in files)


def timed(fn) -> float:
    t = time.perf_counter()
    fn()
    return (time.perf_counter() - t) * 1000


def first_query_ms(imports: str, code: str) -> float:
    """Runs `code` (which opens a store and queries it) in a fresh process after `imports`;
    returns the ms `code` took (module imports are not counted)."""
    wrapper = (f"import time\n{imports}\n_t0 = time.perf_counter()\n{code}\n"
               "print((time.perf_counter() - _t0) * 1000)")
    out = subprocess.run([sys.executable, "-c", wrapper], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"open + first query failed: {out.stderr.strip()[-600:]}")
    return float(out.stdout.strip().splitlines()[-1])


# ------------------------------------------------------------------------------------ oubli
def run_oubli(work: Path, texts, vecs, qs, qvecs) -> dict:
    import oubli_db as oubli

    path = work / "store.oubli"
    r: dict = {}
    s = oubli.Store(str(path), embedder=oubli.HashEmbedder(DIM), defer_vector_graph=True)
    t = time.perf_counter()
    for i in range(0, len(texts), BATCH):
        s.inscribe_many([{"text": x, "vector": v, "key": f"k{i + j}"}
                         for j, (x, v) in enumerate(zip(texts[i:i + BATCH], vecs[i:i + BATCH].tolist()))])
    r["load"] = len(texts) / (time.perf_counter() - t)
    t = time.perf_counter()
    s.build_vector_graph()
    r["graph_build"] = time.perf_counter() - t
    lat = [timed(lambda j=j: s.inscribe(f"single insert number {j} about the garden budget",
                                        vector=vecs[j % len(vecs)].tolist())) for j in range(SINGLE_INSERTS)]
    r["insert_p50"], r["insert_p95"] = pct(lat, 50), pct(lat, 95)
    lat = [timed(lambda q=q, v=v: s.recall(q, k=K, vector=v)) for q, v in zip(qs, qvecs)]
    r["hybrid_p50"], r["hybrid_p99"] = pct(lat, 50), pct(lat, 99)
    lat = [timed(lambda q=q, v=v: s.recall(q, k=K, vector=v, legs="vector")) for q, v in zip(qs, qvecs)]
    r["vector_p50"] = pct(lat, 50)
    s.close()
    r["bytes_per_row"] = dir_bytes(path) / len(texts)
    r["open_first_query"] = first_query_ms(
        "import oubli_db as oubli",
        f"s=oubli.Store({str(path)!r}, read_only=True, embedder=oubli.HashEmbedder({DIM}))\n"
        f"s.recall({qs[0]!r}, k={K})")
    s = oubli.Store(str(path), embedder=oubli.HashEmbedder(DIM))
    victim = 7
    r["erase"] = timed(lambda: s.purge(key=f"k{victim}"))
    s.close()
    r["erased_clean"] = not contains(path, texts[victim].encode())
    return r


# ----------------------------------------------------------------------------------- SQLite
def run_sqlite(work: Path, texts, vecs, qs, qvecs) -> dict:
    import apsw
    import sqlite_vec
    import numpy as np

    path = work / "store.sqlite"

    def connect():
        c = apsw.Connection(str(path))
        c.enable_load_extension(True)
        c.load_extension(sqlite_vec.loadable_path())
        c.execute("PRAGMA journal_mode=WAL")
        c.execute("PRAGMA synchronous=FULL")
        return c

    c = connect()
    c.execute("CREATE TABLE mem(id INTEGER PRIMARY KEY, text TEXT)")
    c.execute("CREATE VIRTUAL TABLE fts USING fts5(text, content='mem', content_rowid='id', tokenize='porter')")
    c.execute(f"CREATE VIRTUAL TABLE vec USING vec0(embedding float[{DIM}])")
    blobs = [v.tobytes() for v in vecs]
    r: dict = {}
    t = time.perf_counter()
    for i in range(0, len(texts), BATCH):
        with c:
            rows = [(i + j + 1, x) for j, x in enumerate(texts[i:i + BATCH])]
            c.executemany("INSERT INTO mem(id, text) VALUES(?, ?)", rows)
            c.executemany("INSERT INTO fts(rowid, text) VALUES(?, ?)", rows)
            c.executemany("INSERT INTO vec(rowid, embedding) VALUES(?, ?)",
                          [(i + j + 1, b) for j, b in enumerate(blobs[i:i + BATCH])])
    r["load"] = len(texts) / (time.perf_counter() - t)
    next_id = len(texts) + 1

    def insert_one(j):
        nonlocal next_id
        with c:
            x = f"single insert number {j} about the garden budget"
            c.execute("INSERT INTO mem(id, text) VALUES(?, ?)", (next_id, x))
            c.execute("INSERT INTO fts(rowid, text) VALUES(?, ?)", (next_id, x))
            c.execute("INSERT INTO vec(rowid, embedding) VALUES(?, ?)", (next_id, blobs[j % len(blobs)]))
        next_id += 1

    lat = [timed(lambda j=j: insert_one(j)) for j in range(SINGLE_INSERTS)]
    r["insert_p50"], r["insert_p95"] = pct(lat, 50), pct(lat, 95)

    def fts_query(q):
        return " OR ".join('"' + w.replace('"', "") + '"' for w in q.split())

    def hybrid(q, v):
        lex = [row[0] for row in c.execute(
            "SELECT rowid FROM fts WHERE fts MATCH ? ORDER BY bm25(fts) LIMIT 50", (fts_query(q),))]
        vec = [row[0] for row in c.execute(
            "SELECT rowid FROM vec WHERE embedding MATCH ? AND k = 50", (np.asarray(v, dtype=np.float32).tobytes(),))]
        score: dict[int, float] = {}
        for legs in (lex, vec):
            for rank, rid in enumerate(legs):
                score[rid] = score.get(rid, 0.0) + 1 / (60 + rank + 1)
        top = sorted(score, key=score.get, reverse=True)[:K]
        return list(c.execute(f"SELECT text FROM mem WHERE id IN ({','.join('?' * len(top))})", top)) if top else []

    lat = [timed(lambda q=q, v=v: hybrid(q, v)) for q, v in zip(qs, qvecs)]
    r["hybrid_p50"], r["hybrid_p99"] = pct(lat, 50), pct(lat, 99)
    lat = [timed(lambda v=v: list(c.execute(
        "SELECT rowid, distance FROM vec WHERE embedding MATCH ? AND k = ?",
        (np.asarray(v, dtype=np.float32).tobytes(), K)))) for v in qvecs]
    r["vector_p50"] = pct(lat, 50)
    c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    r["bytes_per_row"] = dir_bytes(path) / len(texts)
    c.close()
    r["open_first_query"] = first_query_ms(
        "import apsw, sqlite_vec",
        f"c=apsw.Connection({str(path)!r}); c.enable_load_extension(True); c.load_extension(sqlite_vec.loadable_path())\n"
        f"list(c.execute('SELECT rowid FROM fts WHERE fts MATCH ? LIMIT 10', ({fts_query(qs[0])!r},)))")
    c = connect()
    victim = 8  # row id 8 holds texts[7], the row the others erase

    def erase():
        with c:
            c.execute("INSERT INTO fts(fts, rowid, text) VALUES('delete', ?, ?)", (victim, texts[victim - 1]))
            c.execute("DELETE FROM mem WHERE id = ?", (victim,))
            c.execute("DELETE FROM vec WHERE rowid = ?", (victim,))
        c.execute("VACUUM")
        c.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    r["erase"] = timed(erase)
    c.close()
    r["erased_clean"] = not contains(path, texts[victim - 1].encode())
    return r


# ---------------------------------------------------------------------------------- LanceDB
def run_lance(work: Path, texts, vecs, qs, qvecs) -> dict:
    import lancedb
    from datetime import timedelta

    path = work / "lance"
    db = lancedb.connect(str(path))
    r: dict = {}
    t = time.perf_counter()
    tbl = None
    for i in range(0, len(texts), BATCH):
        data = [{"id": i + j, "text": x, "vector": v}
                for j, (x, v) in enumerate(zip(texts[i:i + BATCH], vecs[i:i + BATCH].tolist()))]
        if tbl is None:
            tbl = db.create_table("mem", data=data)
        else:
            tbl.add(data)
    tbl.create_index("text", config=lancedb.index.FTS(), replace=True)
    if len(texts) >= 100_000:
        tbl.create_index(metric="cosine", vector_column_name="vector")
    r["load"] = len(texts) / (time.perf_counter() - t)
    lat = [timed(lambda j=j: tbl.add([{"id": len(texts) + j, "text": f"single insert number {j} about the garden budget",
                                        "vector": vecs[j % len(vecs)].tolist()}])) for j in range(SINGLE_INSERTS)]
    r["insert_p50"], r["insert_p95"] = pct(lat, 50), pct(lat, 95)
    lat = [timed(lambda q=q, v=v: tbl.search(query_type="hybrid").vector(v).text(q).limit(K).to_list())
           for q, v in zip(qs, qvecs)]
    r["hybrid_p50"], r["hybrid_p99"] = pct(lat, 50), pct(lat, 99)
    lat = [timed(lambda v=v: tbl.search(v).limit(K).to_list()) for v in qvecs]
    r["vector_p50"] = pct(lat, 50)
    tbl.optimize(cleanup_older_than=timedelta(seconds=0))
    r["bytes_per_row"] = dir_bytes(path) / len(texts)
    r["open_first_query"] = first_query_ms(
        "import lancedb",
        f"t=lancedb.connect({str(path)!r}).open_table('mem')\n"
        f"t.search({list(qvecs[0])!r}).limit({K}).to_list()")
    victim = 7

    def erase():
        tbl.delete(f"id = {victim}")
        tbl.optimize(cleanup_older_than=timedelta(seconds=0))

    r["erase"] = timed(erase)
    r["erased_clean"] = not contains(path, texts[victim].encode())
    return r


METRICS = [
    ("batch load, rows/s", "load", "{:,.0f}"),
    ("vector index built after the load, s", "graph_build", "{:.1f}"),
    ("single durable insert p50, ms", "insert_p50", "{:.2f}"),
    ("single durable insert p95, ms", "insert_p95", "{:.2f}"),
    ("hybrid recall p50, ms", "hybrid_p50", "{:.2f}"),
    ("hybrid recall p99, ms", "hybrid_p99", "{:.2f}"),
    ("vector recall p50, ms", "vector_p50", "{:.2f}"),
    ("erase one row to the erasure point, ms", "erase", "{:,.0f}"),
    ("erased text absent from the files", "erased_clean", "{}"),
    ("bytes per row on disk", "bytes_per_row", "{:,.0f}"),
    ("open + first query, ms", "open_first_query", "{:.1f}"),
]
RUNNERS = {"oubli": run_oubli, "SQLite FTS5 + sqlite-vec": run_sqlite, "LanceDB": run_lance}


def table(rows: int, results: dict) -> str:
    names = list(results)
    out = [f"At {rows:,} rows; a peer's \"(n x)\" is its figure divided by oubli's.", "",
           f"| metric at {rows:,} rows | " + " | ".join(names) + " |",
           "|---|" + "---|" * len(names)]
    for label, key, fmt in METRICS:
        cells = []
        base = results.get("oubli", {}).get(key)
        for n in names:
            v = results[n].get(key)
            if v is None and key == "graph_build" and "load" in results[n]:
                cells.append("none")
                continue
            if v is None:
                cells.append("error")
                continue
            cell = fmt.format(v)
            if n != "oubli" and isinstance(v, float) and isinstance(base, float) and base > 0:
                cell += f" ({v / base:.2g}x)"
            cells.append(cell)
        out.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, action="append", help="store sizes (repeatable)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--only", action="append", choices=list(RUNNERS), help="run only these stores")
    ap.add_argument("--out", type=Path, help="append the tables to this markdown file")
    a = ap.parse_args()
    import numpy as np
    import oubli_db as oubli

    embedder = oubli.HashEmbedder(DIM)
    tables = []
    for rows in a.rows or [10_000]:
        texts = memories(rows, a.seed)
        qs = queries(QUERIES, a.seed)
        with tempfile.TemporaryDirectory() as d:
            e = oubli.Store(os.path.join(d, "embed.oubli"), embedder=embedder)
            # One float32 matrix (1.5 GB at 1M rows; lists of Python floats would take ~12 GB).
            vecs = np.empty((rows, DIM), dtype=np.float32)
            for i, x in enumerate(texts):
                vecs[i] = e.embed(x)
            qvecs = [e.embed(q) for q in qs]
            e.close()
        results = {}
        for name, run in RUNNERS.items():
            if a.only and name not in a.only:
                continue
            work = Path(tempfile.mkdtemp(prefix="oubli-peers-"))
            try:
                results[name] = run(work, texts, vecs, qs, qvecs)
            except Exception as exc:  # a peer that fails still leaves the others' figures
                print(f"{name} at {rows} rows failed: {exc!r}", file=sys.stderr)
                results[name] = {}
            finally:
                shutil.rmtree(work, ignore_errors=True)
            print(f"{name} at {rows} rows: {json.dumps(results[name])}", file=sys.stderr)
        tables.append(table(rows, results))
        print(tables[-1] + "\n", flush=True)
    if a.out:
        with a.out.open("a", encoding="utf-8") as f:
            f.write("\n" + "\n\n".join(tables) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
