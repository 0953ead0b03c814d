#!/usr/bin/env python3
"""Scores fusion rules offline on the candidates `oubli-bench recall-quality --candidates-out`
writes.

Usage: fusion_rules.py NAME=CANDIDATES.jsonl [NAME=CANDIDATES.jsonl ...]

Each file holds one line per query with every row either leg ranks within its first 100 (see
`oubli_bench::recall_quality::candidates`). The script rebuilds what a k = 10 recall sees (each
leg's first 50 rows; a row outside BM25's 50 counts lexical 0) and prints recall@1/5/10 of BM25
alone, vectors alone and each rule, per file, with the better single leg's figure beside it.
"""

import json
import math
import sys

POOL = 50
KS = (1, 5, 10)


def load(path):
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            q = json.loads(line)
            cands = []
            for c in q["candidates"]:
                in_l = c["bm25_rank"] is not None and c["bm25_rank"] <= POOL
                in_v = c["vector_rank"] is not None and c["vector_rank"] <= POOL
                if not (in_l or in_v):
                    continue
                cands.append(
                    {
                        "id": c["id"],
                        "row": c["row"],
                        "lex": c["lexical"] if in_l else 0.0,
                        "cov": c["coverage"] if in_l else 0.0,
                        "sem": c["semantic"],
                        "lr": c["bm25_rank"] if in_l else None,
                        "vr": c["vector_rank"] if in_v else None,
                    }
                )
            out.append({"query": q["query"], "relevant": set(q["relevant"]), "cands": cands})
    return out


def recall_at(order, relevant):
    return [len(relevant & set(order[:k])) / len(relevant) for k in KS]


def rank_by(cands, key):
    ranked = sorted(cands, key=lambda c: (-key(c), -c["row"]))
    return [c["id"] for c in ranked]


def leg_order(cands, leg):
    if leg == "lex":
        return rank_by([c for c in cands if c["lr"] is not None], lambda c: c["lex"])
    return rank_by([c for c in cands if c["vr"] is not None], lambda c: c["sem"])


# ---- rules: each takes the query's candidates and returns {id: score} ----
# `lex` is calibrated BM25, `cov` the coverage (share of the query's IDF mass the row holds),
# `sem` the calibrated cosine; `lr` / `vr` the legs' ranks (None outside the leg's pool).


def weighted(w, lexical="lex", bm25=0.0):
    """w x lexical evidence + bm25 x calibrated BM25 + the rest x semantic."""

    def rule(cands):
        return {
            c["id"]: w * c[lexical] + bm25 * c["lex"] + (1 - w - bm25) * c["sem"] for c in cands
        }

    return rule


def per_query(weight, lexical="lex"):
    """weight(cands) x lexical evidence + the rest x semantic: one weight per query."""

    def rule(cands):
        w = weight(cands)
        return {c["id"]: w * c[lexical] + (1 - w) * c["sem"] for c in cands}

    return rule


def leg_scores(cands, key, rank):
    return sorted((c[key] for c in cands if c[rank] is not None), reverse=True)


def spread(m, lexical="lex"):
    """Each leg weighted by how far its best score stands above its m-th."""

    def weight(cands):
        lx = leg_scores(cands, lexical, "lr") + [0.0] * m
        sm = leg_scores(cands, "sem", "vr") + [0.0] * m
        dl, ds = lx[0] - lx[m - 1], sm[0] - sm[m - 1]
        return dl / (dl + ds) if dl + ds > 0 else 0.5

    return per_query(weight, lexical)


def best(cands, key):
    return max([c[key] for c in cands] + [0.0])


def evidence_ratio(cands):
    """Each leg weighted by its best score."""
    bc, bs = best(cands, "cov"), best(cands, "sem")
    return bc / (bc + bs) if bc + bs > 0 else 0.5


def rrf(k):
    def rule(cands):
        return {
            c["id"]: (1 / (k + c["lr"]) if c["lr"] else 0) + (1 / (k + c["vr"]) if c["vr"] else 0)
            for c in cands
        }

    return rule


def max_normalized(cands):
    ml, ms = max(best(cands, "lex"), 1e-9), max(best(cands, "sem"), 1e-9)
    return {c["id"]: c["lex"] / ml + c["sem"] / ms for c in cands}


# Every rule tried while choosing the fusion (docs/recall.md), the chosen one first.
RULES = {
    "coverage 0.5 (chosen)": weighted(0.5, "cov"),
    "bm25 0.5 (previous)": weighted(0.5),
    **{f"bm25 {w}": weighted(w) for w in (0.2, 0.3, 0.4, 0.6, 0.7)},
    **{f"bm25 spread@{m}": spread(m) for m in (2, 5, 10, 20, 50)},
    "rrf 60": rrf(60),
    "max-normalized sum": max_normalized,
    "bm25, weight = best coverage": per_query(lambda cs: best(cs, "cov")),
    **{f"coverage {w}": weighted(w, "cov") for w in (0.3, 0.4, 0.6, 0.7)},
    **{
        f"coverage {w} + bm25 {b}": weighted(w, "cov", b)
        for w in (0.4, 0.5, 0.6)
        for b in (0.05, 0.1, 0.2)
    },
    "coverage, weight = best coverage": per_query(lambda cs: best(cs, "cov"), "cov"),
    "coverage, weight = (0.5 + best cov) / 2": per_query(
        lambda cs: 0.5 * (0.5 + best(cs, "cov")), "cov"
    ),
    **{f"coverage spread@{m}": spread(m, "cov") for m in (5, 10, 50)},
    "coverage, evidence ratio": per_query(evidence_ratio, "cov"),
}


def tie_report(queries):
    """Queries whose best BM25 score is shared by several rows, one of them relevant: how often
    the newest of them (recall's tie rule), the best semantic one and chance pick a relevant
    row."""
    n, newest, semantic, chance = 0, 0, 0, 0.0
    for q in queries:
        lexical = [c for c in q["cands"] if c["lr"] is not None]
        if not lexical:
            continue
        top = max(c["lex"] for c in lexical)
        tied = [c for c in lexical if top - c["lex"] < 1e-3]
        if len(tied) < 2 or not any(c["id"] in q["relevant"] for c in tied):
            continue
        n += 1
        newest += max(tied, key=lambda c: c["row"])["id"] in q["relevant"]
        semantic += max(tied, key=lambda c: (c["sem"], c["row"]))["id"] in q["relevant"]
        chance += sum(c["id"] in q["relevant"] for c in tied) / len(tied)
    return f"tied BM25 tops holding a relevant row {n}: newest relevant {newest}, best semantic {semantic}, chance {chance:.1f}"


def evaluate(queries, rule):
    sums = [0.0] * len(KS)
    for q in queries:
        scores = rule(q["cands"])
        order = rank_by(q["cands"], lambda c: scores[c["id"]])
        for i, r in enumerate(recall_at(order, q["relevant"])):
            sums[i] += r
    n = max(len(queries), 1)
    return [100 * s / n for s in sums]


def legs(queries):
    out = {}
    for leg in ("lex", "sem"):
        sums = [0.0] * len(KS)
        for q in queries:
            for i, r in enumerate(recall_at(leg_order(q["cands"], leg), q["relevant"])):
                sums[i] += r
        out[leg] = [100 * s / max(len(queries), 1) for s in sums]
    return out


def fmt(xs):
    return " / ".join(f"{x:5.1f}" for x in xs)


def main(argv, rules=None):
    rules = rules or RULES
    data = {}
    for arg in argv:
        name, path = arg.split("=", 1)
        data[name] = load(path)
    results = {}
    for name, queries in data.items():
        leg = legs(queries)
        best = [max(a, b) for a, b in zip(leg["lex"], leg["sem"])]
        print(f"== {name} ({len(queries)} queries; {tie_report(queries)})")
        print(f"  {'bm25':<28} {fmt(leg['lex'])}")
        print(f"  {'vector':<28} {fmt(leg['sem'])}")
        for rname, rule in rules.items():
            r = evaluate(queries, rule)
            d = [a - b for a, b in zip(r, best)]
            results.setdefault(rname, []).append(d)
            print(f"  {rname:<28} {fmt(r)}   vs best leg {fmt(d)}")
    print("== worst margin over the better leg, @1 / @5 / @10, over all files")
    for rname, ds in results.items():
        worst = [min(d[i] for d in ds) for i in range(len(KS))]
        print(f"  {rname:<28} {fmt(worst)}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1:]))
