#!/usr/bin/env python3
"""Structural admission check for a blind-authored case file (stage 1 only)."""
import json, sys, collections

CATS = ["substring_trap", "prefix_collision", "paraphrase_supersession", "negation_trap",
        "temporal_qualifier", "shared_attribute", "compound_fact", "identifier_obfuscation",
        "cross_lingual_identifier", "recursive_supersession"]
FIELDS = {"id", "category", "setup_facts", "mutations", "final_query", "must_contain", "must_not_contain"}

def check(path):
    errs, ids, per_cat = [], set(), collections.Counter()
    lines = [l for l in open(path, encoding="utf-8").read().split("\n") if l.strip()]
    for n, line in enumerate(lines, 1):
        where = f"{path}:{n}"
        try:
            c = json.loads(line)
        except Exception as e:
            errs.append(f"{where}: not JSON: {e}"); continue
        if set(c) != FIELDS:
            errs.append(f"{where}: fields must be exactly {sorted(FIELDS)}, got {sorted(c)}"); continue
        if c["id"] in ids: errs.append(f"{where}: duplicate id {c['id']}")
        ids.add(c["id"])
        if c["category"] not in CATS: errs.append(f"{where}: unknown category {c['category']}")
        per_cat[c["category"]] += 1
        sf = c["setup_facts"]
        if not (isinstance(sf, list) and len(sf) >= 2 and all(isinstance(s, str) and s.strip() for s in sf)):
            errs.append(f"{where}: setup_facts must be >= 2 non-empty strings")
            continue
        texts = list(sf)
        if not isinstance(c["mutations"], list) or not c["mutations"]:
            errs.append(f"{where}: mutations must be a non-empty list")
            continue
        for m in c["mutations"]:
            op = m.get("op")
            if op == "supersede":
                if set(m) != {"op", "old_q", "new"} or not all(isinstance(m[k], str) and m[k].strip() for k in ("old_q", "new")):
                    errs.append(f"{where}: supersede needs exactly op, old_q, new (non-empty strings)")
                else:
                    texts.append(m["new"])
            elif op in ("release", "purge"):
                if set(m) != {"op", "q"} or not (isinstance(m["q"], str) and m["q"].strip()):
                    errs.append(f"{where}: {op} needs exactly op, q (non-empty string)")
            else:
                errs.append(f"{where}: unknown op {op!r}")
        if not isinstance(c["final_query"], str) or not c["final_query"].strip():
            errs.append(f"{where}: final_query must be a non-empty string")
        mc, mnc = c["must_contain"], c["must_not_contain"]
        if not (isinstance(mc, list) and isinstance(mnc, list)) or not (mc or mnc):
            errs.append(f"{where}: must_contain / must_not_contain must be lists, not both empty"); continue
        low = [t.lower() for t in texts]
        for s in mc:
            if not isinstance(s, str) or not s.strip(): errs.append(f"{where}: empty must_contain entry"); continue
            if not any(s.lower() in t for t in low):
                errs.append(f"{where}: must_contain {s!r} is in no setup fact or new text")
        for s in mnc:
            if not isinstance(s, str) or not s.strip(): errs.append(f"{where}: empty must_not_contain entry"); continue
            if not any(s.lower() in t for t in low):
                errs.append(f"{where}: must_not_contain {s!r} is in no setup fact (it tests nothing)")
            for k in mc:
                if isinstance(k, str) and s.lower() in k.lower():
                    errs.append(f"{where}: must_not_contain {s!r} is inside must_contain {k!r} (self-trap)")
            # A must_not_contain may sit in an intermediate supersede's new text (A -> B -> C
            # forbids B); it must not sit in the LAST new text of the mutations.
            news = [m["new"] for m in c["mutations"] if m.get("op") == "supersede" and isinstance(m.get("new"), str)]
            if news and s.lower() in news[-1].lower():
                errs.append(f"{where}: must_not_contain {s!r} is inside the last supersede's new text (self-trap)")
    for cat in CATS:
        if per_cat[cat] != 10:
            errs.append(f"{path}: category {cat} has {per_cat[cat]} cases, want 10")
    if len(lines) != 100:
        errs.append(f"{path}: {len(lines)} cases, want 100")
    return errs

if __name__ == "__main__":
    bad = 0
    for p in sys.argv[1:]:
        e = check(p)
        bad += len(e)
        print("\n".join(e) if e else f"{p}: ok")
    sys.exit(1 if bad else 0)
