"""Write benches/cases/<category>.jsonl from the category modules.

Run from anywhere: python3 benches/scripts/adversarial/build.py
The output is deterministic; the checked-in JSONL files are the cases.
"""
import importlib
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from common import DISTRACTORS  # noqa: E402

CATEGORIES = [
    "substring_trap", "prefix_collision", "paraphrase_supersession", "negation_trap",
    "temporal_qualifier", "shared_attribute", "compound_fact", "identifier_obfuscation",
    "cross_lingual_identifier", "recursive_supersession",
]
OUT = os.path.join(HERE, "..", "..", "cases")


def strings_of(case):
    out = [s.lower() for s in case["must_contain"] + case["must_not_contain"]]
    for m in case["mutations"]:
        out.append((m.get("q") or m.get("old_q")).lower())
    return out


def distractors_for(case, start, count):
    """`count` distractors from the pool, starting at `start`, skipping any that share a string."""
    needles = strings_of(case)
    chosen = []
    i = start
    while len(chosen) < count:
        d = DISTRACTORS[i % len(DISTRACTORS)]
        i += 1
        if not any(n in d.lower() for n in needles):
            chosen.append(d)
    return chosen


def main():
    total = 0
    for ci, category in enumerate(CATEGORIES):
        cases = importlib.import_module(category).CASES
        lines = []
        for n, case in enumerate(cases):
            count = 2 + (n + ci) % 2
            extra = distractors_for(case, n * 5 + ci * 11, count)
            facts = list(case["setup_facts"])
            # Put the distractors at varied positions: before, between and after the case's facts.
            for j, d in enumerate(extra):
                facts.insert((n + j * 2) % (len(facts) + 1), d)
            record = {
                "id": f"adv-{category}-{n:03d}",
                "category": category,
                "setup_facts": facts,
                "mutations": case["mutations"],
                "final_query": case["final_query"],
                "must_contain": case["must_contain"],
                "must_not_contain": case["must_not_contain"],
            }
            lines.append(json.dumps(record, ensure_ascii=False))
        with open(os.path.join(OUT, f"{category}.jsonl"), "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        total += len(lines)
        print(f"{category}: {len(lines)}")
    print(f"total: {total}")


if __name__ == "__main__":
    main()
