#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Black-box over-deletion probe for `oubli plan` (purge / release / supersede).

Every probe = one store of 3-12 facts + one forgetting request.  Most probes name a
subject or an attribute that is ABSENT from the store, so the only correct plan is
"would change rows none"; any targeted row is an over-deletion.  Controls (subject and
attribute present) check the probe is not trivially always-none; for controls, a
targeted row outside the allowed set is also recorded as an over-deletion.

Deterministic: fixed SEED.  Output: results.jsonl, summary.json, REPORT.md (via report()).
"""
import collections, json, os, sys, time
from concurrent.futures import ThreadPoolExecutor
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
if os.environ.get('PYTHONHASHSEED') != '0':  # set iteration order must not vary between runs
    os.environ['PYTHONHASHSEED'] = '0'
    os.execv(sys.executable, [sys.executable] + sys.argv)
from probe_requests import generate
from probe_cli import ROOT, STORES, WORKERS, run_store
from probe_report import report

def main():
    os.makedirs(STORES, exist_ok=True)
    t0 = time.time()
    stores = generate()
    n = sum(len(s['probes']) for s in stores)
    print(f"generated {len(stores)} stores, {n} probes in {time.time() - t0:.1f}s", flush=True)
    results = []
    with ThreadPoolExecutor(WORKERS) as ex:
        for i, out in enumerate(ex.map(run_store, stores)):
            results.extend(out)
            if i % 50 == 0:
                print(f"  store {i}/{len(stores)}  {time.time() - t0:.0f}s", flush=True)
    with open(os.path.join(ROOT, 'results.jsonl'), 'w') as fh:
        for r in results:
            fh.write(json.dumps(r, ensure_ascii=False) + '\n')
    sdump = [dict(sid=s['sid'], facts=[dict(f, subj=sorted(f['subj'])) for f in s['facts']]) for s in stores]
    with open(os.path.join(ROOT, 'stores.json'), 'w') as fh:
        json.dump(sdump, fh, ensure_ascii=False)
    summarize(results)
    report(results, stores)
    print(f"done in {time.time() - t0:.0f}s")

def summarize(results):
    by = collections.defaultdict(lambda: [0, 0, 0, 0])  # probes, over, hits, errors
    for r in results:
        b = by[r['cat']]
        b[0] += 1
        b[1] += bool(r['over'])
        b[2] += r['hit']
        b[3] += bool(r['error'])
    print(f"{'class':45s} probes  over  (ctl hits)  errors")
    for c in sorted(by):
        p, o, h, e = by[c]
        print(f"{c:45s} {p:6d} {o:5d}  {h if c.startswith('control') else '':>6}  {e}")
    print('total probes', len(results), 'over-deletions', sum(bool(r['over']) for r in results))

if __name__ == '__main__':
    main()
