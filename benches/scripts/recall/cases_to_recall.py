#!/usr/bin/env python3
"""Turns conformance case files into a recall-quality dataset.

Usage: cases_to_recall.py [--shuffle SEED] OUT.jsonl CASES.jsonl [CASES.jsonl ...]

Each case file becomes one set (one store): its rows are the `setup_facts` of every case in the
file (so each query competes with every other case's facts), and each case's `final_query` is a
query whose relevant rows are the setup facts that contain one of the case's `must_contain`
strings (case-insensitive). Mutations are not applied: this scores recall of the facts as
written, not forgetting. Cases whose expected strings are in no setup fact (a value that only a
supersede brings) give no query.

Case files tend to list a case's answer after its distractors, and recall breaks score ties in
favour of the newer row, so the file order helps whichever ranking ties most (BM25 alone).
`--shuffle SEED` inscribes each set's rows in a seeded random order instead, which takes that
help away from every ranking alike.

The output is the `{rows, queries}` JSONL that `oubli-bench recall-quality --data` scores.
"""

import json
import random
import sys
from pathlib import Path


def convert(path: Path) -> dict:
    rows, queries = [], []
    for line_no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        case = json.loads(line)
        ids = []
        for i, fact in enumerate(case.get("setup_facts", [])):
            rid = f"{case.get('id', line_no)}/{i}"
            rows.append({"id": rid, "text": fact})
            ids.append((rid, fact.lower()))
        wanted = [s.lower() for s in case.get("must_contain", [])]
        relevant = [rid for rid, text in ids if any(w in text for w in wanted)]
        if case.get("final_query") and relevant:
            queries.append({"text": case["final_query"], "relevant": relevant})
    return {"rows": rows, "queries": queries}


def main() -> int:
    args = sys.argv[1:]
    shuffle = None
    if args[:1] == ["--shuffle"] and len(args) > 1:
        shuffle = random.Random(int(args[1]))
        args = args[2:]
    if len(args) < 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    out = Path(args[0])
    with out.open("w", encoding="utf-8") as f:
        for name in args[1:]:
            data = convert(Path(name))
            if shuffle is not None:
                shuffle.shuffle(data["rows"])
            f.write(json.dumps(data, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
