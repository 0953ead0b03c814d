# -*- coding: utf-8 -*-
"""Running the `oubli` CLI for the probe: building a store file, asking for a plan, and judging
the plan against the generator's ground truth (see probe.py)."""
import json, os, re, subprocess, time

HERE = os.path.dirname(os.path.abspath(__file__))
# The CLI to probe (build it with `cargo build --release -p oubli-db`) and where to write.
BIN = os.path.abspath(os.environ.get('OUBLI_BIN', os.path.join(HERE, '..', '..', 'target', 'release', 'oubli')))
ROOT = os.path.abspath(os.environ.get('OUBLI_PROBE_OUT', '/tmp/oubli-safety-probe'))
os.makedirs(ROOT, exist_ok=True)
STORES = os.path.join(ROOT, 'stores')
WORKERS = 4
# The least confidence a match needs (`oubli plan --min-confidence`): low (the default), medium
# or high. The probe then measures what a store opened with that floor would act on.
MIN_CONFIDENCE = os.environ.get('OUBLI_PROBE_MIN_CONFIDENCE', 'low')

def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    return r.returncode, r.stdout, r.stderr

def make_store_file(path, texts):
    for fn in os.listdir(os.path.dirname(path)):
        if fn.startswith(os.path.basename(path)):
            os.remove(os.path.join(os.path.dirname(path), fn))
    rc, out, err = run([BIN, 'init', path])
    assert rc == 0, err
    jl = path + '.jsonl.in'
    with open(jl, 'w') as fh:
        for t in texts:
            fh.write(json.dumps({'text': t}, ensure_ascii=False) + '\n')
    rc, out, err = run([BIN, 'inscribe', path, '--file', jl])
    assert rc == 0, err
    m = re.search(r'#(\d+)\.\.#(\d+)', out)
    assert m and int(m.group(1)) == 1 and int(m.group(2)) == len(texts), out

def plan(path, op, query, new=None, as_json=True):
    cmd = [BIN, 'plan', '--op', op, '--query', query, '--min-confidence', MIN_CONFIDENCE]
    if new:
        cmd += ['--new', new]
    if as_json:
        cmd.insert(2, '--json')
    cmd.append(path)
    rc, out, err = run(cmd)
    if not as_json:
        return out + (err if rc else '')
    if rc != 0:
        return {'error': err.strip() or out.strip()}
    return json.loads(out)

def judge(st, pr, res):
    """Return (overdeleted_rows, hit) for a probe."""
    if 'error' in res:
        return [], False
    rows = res.get('rows') or []
    if pr['expect'] is None:
        return list(rows), False
    allowed = set(pr['expect'])
    bad = [r for r in rows if r not in allowed]
    # a whole-row change of a multi-clause row whose other clause is a different attribute
    if pr['cat'] != 'control_wide':
        fam = None
        for m in res.get('matches', []):
            f = st['facts'][m['id'] - 1]
            if m['id'] in allowed and len(f['clauses']) > 1:
                if not m.get('clauses'):
                    bad.append(m['id'])
    hit = bool(set(rows) & allowed)
    return bad, hit

def run_store(st):
    path = os.path.join(STORES, f"s{st['sid']:04d}.oubli")
    make_store_file(path, [f['text'] for f in st['facts']])
    out = []
    for pr in st['probes']:
        t0 = time.time()
        res = plan(path, pr['op'], pr['query'], pr['new'])
        bad, hit = judge(st, pr, res)
        out.append(dict(pr, sid=st['sid'], ms=int((time.time() - t0) * 1000), rows=res.get('rows'),
                        matches=res.get('matches'), error=res.get('error'), over=bad, hit=hit))
    for fn in os.listdir(STORES):
        if fn.startswith(os.path.basename(path)):
            os.remove(os.path.join(STORES, fn))
    return out
