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
import json, os, random, re, shutil, subprocess, sys, time, unicodedata, collections
from concurrent.futures import ThreadPoolExecutor
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
if os.environ.get('PYTHONHASHSEED') != '0':  # set iteration order must not vary between runs
    os.environ['PYTHONHASHSEED'] = '0'
    os.execv(sys.executable, [sys.executable] + sys.argv)
from probe_data import *

SEED = 20250611
HERE = os.path.dirname(os.path.abspath(__file__))
# The CLI to probe (build it with `cargo build --release -p oubli-db`) and where to write.
BIN = os.path.abspath(os.environ.get('OUBLI_BIN', os.path.join(HERE, '..', '..', 'target', 'release', 'oubli')))
ROOT = os.path.abspath(os.environ.get('OUBLI_PROBE_OUT', '/tmp/oubli-safety-probe'))
os.makedirs(ROOT, exist_ok=True)
STORES = os.path.join(ROOT, 'stores')
N_STORES = int(os.environ.get('N_STORES', '700'))
PROBES_PER_STORE = 6
WORKERS = 4

OPS = ['purge', 'release', 'supersede']

# ================================================================ helpers

def full(p):
    return p.get('full') or f"{p['first']} {p['last']}"

def poss(name):
    return name + ("'" if name.endswith('s') else "'s")

def pron(g):
    return dict(pos='her' if g == 'f' else 'his', pr='she' if g == 'f' else 'he', obj='her' if g == 'f' else 'him')

def ascii_(s):
    s = s.replace('ı', 'i').replace('ş', 's').replace('ğ', 'g').replace('-', '')
    return ''.join(c for c in unicodedata.normalize('NFKD', s) if ord(c) < 128).lower()

def name_x(p, lang, which='full'):
    """(name, gen) of person p in language lang; Latin fallback (mixed script)."""
    if lang in LATIN_LANGS:
        n = full(p) if which == 'full' else p['first']
        return n, n
    t = p.get('names', {}).get(lang)
    if t:
        if which == 'full':
            return t[0], t[2] or t[0]
        return t[1], t[3] or t[1]
    n = full(p) if which == 'full' else p['first']
    return n, n

def has_script(p, lang):
    return lang in LATIN_LANGS or lang in p.get('names', {})

MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']
STREETS = ['Baker Street 12, London', 'Hauptstraße 5, 10115 Berlin', 'Calle Mayor 7, Madrid', '4-2-8 Shibakoen, Minato, Tokyo',
           'Rue de Rivoli 21, Paris', 'Tverskaya 10, Moscow', 'Dizengoff St 50, Tel Aviv', 'MG Road 14, Bengaluru',
           'Leopoldstraße 3, Munich', 'Sukhumvit Soi 11, Bangkok', 'Valiasr St 120, Tehran', 'Ermou 33, Athens',
           'Khreshchatyk 22, Kyiv', 'Istiklal Cd. 88, Istanbul', 'Gangnam-daero 396, Seoul', 'Nanjing Road 200, Shanghai']

def gen_value(rng, attr, p, lang='en'):
    r = rng.randint
    if attr == 'phone':
        return rng.choice([f"+44 7700 {r(900000, 900999)}", f"+49 30 {r(1000000, 9999999)}", f"+1 415 555 {r(1000, 9999)}",
                           f"+81 90 {r(1000, 9999)} {r(1000, 9999)}", f"+7 916 {r(100, 999)}-{r(10, 99)}-{r(10, 99)}"])
    if attr in ('home_address', 'work_address'):
        return rng.choice(STREETS)
    if attr == 'home_email':
        return f"{ascii_(p['first'])}.{ascii_(p['last'])}{r(1, 99)}@{rng.choice(['gmail.com', 'proton.me', 'yahoo.co.jp', 'mail.ru'])}"
    if attr == 'work_email':
        return f"{ascii_(p['first'])[0]}{ascii_(p['last'])}@{rng.choice(['contoso.com', 'fabrikam.de', 'litware.io'])}"
    if attr == 'salary':
        return f"{r(40, 150)},000 {rng.choice(['EUR', 'USD', 'GBP'])}"
    if attr == 'bonus':
        return f"{r(2, 20)},000 EUR"
    if attr == 'badge':
        return f"B-{r(1000, 9999)}"
    if attr == 'employee_id':
        return f"E{r(10000, 99999)}"
    if attr == 'allergy':
        al = rng.choice(list(ALLERGENS))
        return ALLERGENS[al].get(lang, al)
    if attr == 'medication':
        return rng.choice(['metformin', 'lisinopril', 'levothyroxine', 'sertraline'])
    if attr == 'passport':
        return f"{rng.choice('CDKLPX')}{rng.choice('ABNRT')}{r(1000000, 9999999)}"
    if attr == 'drivers_license':
        return f"DL-{r(100000, 999999)}"
    if attr == 'car_plate':
        return rng.choice([f"B-AS {r(100, 9999)}", f"AB{r(10, 99)} CDE", f"34 ABC {r(100, 999)}"])
    if attr == 'iban':
        return f"DE{r(10, 99)} 3704 0044 0532 {r(1000, 9999)} {r(10, 99)}"
    if attr == 'credit_card':
        return f"4111 1111 1111 {r(1000, 9999)}"
    if attr in ('birthday', 'anniversary'):
        d, m, y = r(1, 28), r(1, 12), r(1955, 2002)
        if lang in ('zh', 'ja'):
            return f"{y}年{m}月{d}日"
        if lang == 'ko':
            return f"{y}년 {m}월 {d}일"
        if lang == 'en':
            return f"{d} {MONTHS[m - 1]} {y}"
        return f"{d:02d}.{m:02d}.{y}"
    if attr == 'blood_type':
        return rng.choice(['A+', 'O-', 'B+', 'AB+', 'O+'])
    if attr == 'shoe_size':
        return f"EU {r(36, 46)}"
    if attr == 'ssn':
        return f"{r(100, 899)}-{r(10, 99)}-{r(1000, 9999)}"
    if attr == 'tax_id':
        return f"TIN {r(10, 99)}-{r(1000000, 9999999)}"
    # org / place
    if attr == 'org_address' or attr == 'place_address':
        return rng.choice(STREETS)
    if attr == 'vat':
        return f"DE{r(100000000, 999999999)}"
    if attr in ('org_phone', 'place_phone'):
        return f"+49 89 {r(100000, 999999)}"
    if attr == 'org_iban':
        return f"GB{r(10, 99)} NWBK 6016 1331 {r(1000, 9999)} {r(10, 99)}"
    if attr == 'reg_no':
        return f"HRB {r(10000, 99999)}"
    if attr in ('door_code', 'alarm_code'):
        return f"{r(1000, 9999)}#"
    if attr == 'wifi':
        return rng.choice(['sunflower-42', 'Tr0pic!Blue', 'orchid#2024'])
    return f"X{r(1000, 9999)}"

IDENT_ATTRS = {'phone', 'home_email', 'work_email', 'passport', 'iban', 'badge', 'employee_id', 'car_plate', 'credit_card',
               'ssn', 'tax_id', 'drivers_license'}

def mutate_ident(rng, v):
    if '@' in v:
        u, d = v.split('@')
        return rng.choice([u + '@' + d.replace('.com', '.org').replace('.me', '.ch').replace('.de', '.at').replace('.io', '.co').replace('.ru', '.ua').replace('.jp', '.kr'),
                           u + 'x@' + d, u[:-1] + '@' + d if len(u) > 3 else 'z' + u + '@' + d])
    digits = [i for i, c in enumerate(v) if c.isdigit()]
    i = digits[-1] if rng.random() < 0.6 else rng.choice(digits)
    c = str((int(v[i]) + rng.randint(1, 8)) % 10)
    return v[:i] + c + v[i + 1:]

# ================================================================ facts & stores

def en_fact_text(rng, tmpl, name, v, g, pronoun=False):
    pr = pron(g)
    if pronoun:
        P, n = pr['pos'], pr['pr']
        t = tmpl.format(P=P, n=n, v=v)
        t = t.replace("she's", 'her').replace("he's", 'his')  # "{n}'s office" with pronoun
        return t
    return tmpl.format(P=poss(name), n=name, v=v)

def make_fact(rng, p, attr, lang=None, form=None):
    """One-attribute fact about person p."""
    if lang is None:
        opts = ['en'] * 5
        if attr in X_FACT['zh']:
            if has_script(p, p['nat']) and p['nat'] != 'en':
                opts += [p['nat']] * 3
            others = [l for l in X_FACT if has_script(p, l) and l != p['nat']]
            if others:
                opts += [rng.choice(others)] * 2
        lang = rng.choice(opts)
    v = gen_value(rng, attr, p, lang)
    if lang == 'en':
        form = form or rng.choice(['full', 'full', 'first'])
        nm = full(p) if form == 'full' else p['first']
        text = en_fact_text(rng, rng.choice(EN_FACT[attr]), nm, v, p['g'])
    else:
        nm, gen = name_x(p, lang, rng.choice(['full', 'full', 'first']))
        text = X_FACT[lang][attr].format(n=nm, gen=gen, v=v)
    return dict(text=text, subj={p['id']}, clauses=[attr], lang=lang, value=v, kind='person')

def make_multiclause(rng, p, a1, a2):
    nm = full(p) if rng.random() < 0.6 else p['first']
    v1, v2 = gen_value(rng, a1, p), gen_value(rng, a2, p)
    t1 = en_fact_text(rng, rng.choice(EN_FACT[a1]), nm, v1, p['g'])
    t2 = en_fact_text(rng, rng.choice(EN_FACT[a2]), nm, v2, p['g'], pronoun=True)
    return dict(text=f"{t1} and {t2}", subj={p['id']}, clauses=[a1, a2], lang='en', value=v1, values=[v1, v2], kind='person')

def make_relation(rng, rel_p, anchor, rel):
    nm = full(rel_p) if rng.random() < 0.5 else rel_p['first']
    an = full(anchor) if rng.random() < 0.5 else anchor['first']
    t = rng.choice(["{r} is {A} {rel}", "{A} {rel} is {r}", "{r}, {A} {rel}, visited last week"]).format(r=nm, A=poss(an), rel=rel)
    return dict(text=t, subj={rel_p['id'], anchor['id']}, clauses=['rel_' + rel], lang='en', kind='relation', rel=rel,
                anchor=anchor['id'], relp=rel_p['id'])

def make_org_fact(rng, org, attr):
    v = gen_value(rng, attr, None)
    t = rng.choice(ORG_FACT[attr]).format(P=poss(org), n=org, v=v)
    return dict(text=t, subj={'org:' + org}, clauses=[attr], lang='en', value=v, kind='org')

def make_place_fact(rng, place, attr):
    v = gen_value(rng, attr, None)
    t = rng.choice(PLACE_FACT[attr]).format(P=poss(place[0].upper() + place[1:]), n=place, v=v)
    t = t[0].upper() + t[1:]
    return dict(text=t, subj={'place:' + place}, clauses=[attr], lang='en', value=v, kind='place')

PBY = {p['id']: p for p in PERSONS + ABSENT}

def build_store(rng, sid):
    n_dense = rng.choice([1, 1, 2])
    present = rng.sample(PERSONS, n_dense + rng.randint(1, 4))
    dense, others = present[:n_dense], present[n_dense:]
    facts = []
    for p in dense:
        k = rng.randint(3, 6)
        attrs = rng.sample(PERSON_ATTRS, k)
        # sometimes fold two attributes into one multi-clause row
        if rng.random() < 0.25 and k >= 3:
            facts.append(make_multiclause(rng, p, attrs[0], attrs[1]))
            attrs = attrs[2:]
        for a in attrs:
            facts.append(make_fact(rng, p, a))
    for p in others:
        for a in rng.sample(PERSON_ATTRS, rng.randint(1, 2)):
            facts.append(make_fact(rng, p, a))
    orgs, places = [], []
    if rng.random() < 0.3:
        orgs = rng.sample(ORGS, rng.randint(1, 2))
        for o in orgs:
            for a in rng.sample(list(ORG_FACT), rng.randint(1, 2)):
                facts.append(make_org_fact(rng, o, a))
    if rng.random() < 0.3:
        cities = rng.sample(CITIES, rng.randint(1, 2))
        places = [f"the {c} {rng.choice(SITE_TYPES)}" for c in cities]
        for pl in places:
            for a in rng.sample(list(PLACE_FACT), rng.randint(1, 2)):
                facts.append(make_place_fact(rng, pl, a))
    rel = None
    if rng.random() < 0.35 and others:
        anchor = dense[0]
        relp = rng.choice(others)
        r = rng.choice(RELATIONS[:10])
        facts.append(make_relation(rng, relp, anchor, r))
        rel = (relp['id'], anchor['id'], r)
    # trim to 12 keeping dense facts first
    dense_ids = {p['id'] for p in dense}
    if len(facts) > 12:
        keep = [f for f in facts if f['subj'] & dense_ids][:9]
        rest = [f for f in facts if f not in keep]
        facts = keep + rng.sample(rest, 12 - len(keep))
    while len(facts) < 3:
        p = rng.choice(present)
        have = {a for f in facts if p['id'] in f['subj'] for a in f['clauses']}
        facts.append(make_fact(rng, p, rng.choice([a for a in PERSON_ATTRS if a not in have])))
    rng.shuffle(facts)
    for i, f in enumerate(facts):
        f['id'] = i + 1
    # recompute present sets from surviving facts
    pids = {s for f in facts for s in f['subj'] if ':' not in s}
    orgs = sorted({s[4:] for f in facts for s in f['subj'] if s.startswith('org:')})
    places = sorted({s[6:] for f in facts for s in f['subj'] if s.startswith('place:')})
    dense = [p for p in dense if p['id'] in pids]
    if rel and not any(f['kind'] == 'relation' for f in facts):
        rel = None
    return dict(sid=sid, facts=facts, pids=pids, dense=[p['id'] for p in dense], orgs=orgs, places=places, rel=rel)

def attrs_of(st, sid):
    return {a for f in st['facts'] if sid in f['subj'] and f['kind'] != 'relation' for a in f['clauses']}

def all_person_attrs(st):
    return {a for f in st['facts'] if f['kind'] == 'person' for a in f['clauses']}

def allowed_rows(st, sid, fam):
    return {f['id'] for f in st['facts'] if sid in f['subj'] and set(f['clauses']) & fam}

def store_tokens(st):
    return {t.lower() for f in st['facts'] for t in re.findall(r"\w+", f['text'])}

# ================================================================ request building

def en_req(rng, op, name, aw, pattern=None):
    pat, tmpl = (pattern, dict(EN_REQ)[pattern]) if pattern else rng.choice(EN_REQ)
    if op == 'supersede' and pat == 'old':
        pass
    return pat, tmpl.format(V=rng.choice(VERBS[op]), P=poss(name), n=name, a=aw)

def x_np(lang, name, gen, attr):
    if lang == 'ar':
        return X_ATTR['ar'][attr].format(n=name)
    return X_NP[lang].format(n=name, gen=gen, a=X_ATTR[lang][attr])

def x_req(rng, lang, op, name, gen, attr):
    np_ = x_np(lang, name, gen, attr)
    w = X_WRAP[lang]
    tmpl = rng.choice(w[op] + w['bare'] if rng.random() < 0.25 else w[op])
    return tmpl.format(np=np_)

def new_text(rng, lang, name, gen, attr, p_like=None):
    """Restatement of `attr` of `name` with a fresh value (for supersede)."""
    fake = p_like or dict(first='x', last='y', g='f')
    v = gen_value(rng, attr if attr in EN_FACT or attr in ORG_FACT or attr in PLACE_FACT else 'phone', fake, lang)
    if lang != 'en' and lang in X_FACT and attr in X_FACT[lang]:
        return X_FACT[lang][attr].format(n=name, gen=gen, v=v)
    aw = (EN_ATTR.get(attr) or ORG_ATTR.get(attr) or PLACE_ATTR.get(attr) or ['details'])[0]
    return rng.choice(["{P} {a} is {v}", "{P} new {a} is {v}", "{P} {a} is now {v}"]).format(P=poss(name), a=aw, v=v)

def en_word(rng, attr):
    return rng.choice(EN_ATTR.get(attr) or ORG_ATTR.get(attr) or PLACE_ATTR.get(attr))

def absent_people(st):
    toks = store_tokens(st)
    out = []
    for p in ABSENT + [q for q in PERSONS if q['id'] not in st['pids']]:
        if ascii_(p['first']) in toks or ascii_(p['last']) in toks:
            continue
        out.append(p)
    return out

def present_people(st):
    return [PBY[i] for i in sorted(st['pids'])]

def tempting_attr(rng, st, pid=None):
    """An attribute that IS present in the store (for someone), to make absent-subject probes tempting."""
    facts = [f for f in st['facts'] if f['kind'] == 'person' and (pid is None or pid in f['subj'])]
    if not facts:
        return None
    f = rng.choice(facts)
    return rng.choice(f['clauses'])

def mk(cat, pattern, lang, op, query, new=None, expect=None, debatable=False, note=''):
    return dict(cat=cat, pattern=pattern, lang=lang, op=op, query=query, new=new,
                expect=sorted(expect) if expect is not None else None, debatable=debatable, note=note)

def pick_op(rng):
    return rng.choice(OPS)

# ---------------------------------------------------------------- absent-subject generators

def g_abs_other(rng, st, variant='plain'):
    cands = absent_people(st)
    attr = tempting_attr(rng, st)
    if not cands or not attr:
        return None
    p = rng.choice(cands)
    op = pick_op(rng)
    if variant == 'title':
        t = rng.choice(TITLES[p['g']])
        name = rng.choice([f"{t} {p['last']}", f"{t} {full(p)}", f"{t} {p['first']}"])
        cat = 'abs_subject_title'
    elif variant == 'lower':
        name = rng.choice([full(p), p['first']]).lower()
        cat = 'abs_subject_lowercase'
    else:
        name = rng.choice([full(p), p['first'], p['first']])
        cat = 'abs_subject_other_person'
    aw = en_word(rng, attr)
    pat, q = en_req(rng, op, name, aw)
    new = new_text(rng, 'en', name, name, attr, p) if op == 'supersede' else None
    return mk(cat, pat, 'en', op, q, new, note=f"absent={full(p)} attr={attr}")

def g_abs_nick(rng, st):
    attr = tempting_attr(rng, st)
    toks = store_tokens(st)
    nicks = [n for n in ABSENT_NICKS if n.lower() not in toks]
    if not attr or not nicks:
        return None
    name = rng.choice(nicks)
    sub = 'capitalised'
    if rng.random() < 0.3:
        name, sub = name.lower(), 'lowercase'
    op = pick_op(rng)
    pat, q = en_req(rng, op, name, en_word(rng, attr))
    new = new_text(rng, 'en', name, name, attr) if op == 'supersede' else None
    pr_ = mk('abs_subject_nickname', pat, 'en', op, q, new, note=f"nick={name} attr={attr}")
    pr_['sub'] = sub
    return pr_

def g_near(rng, st, kinds=None):
    opts = []
    toks = store_tokens(st)
    for p in present_people(st):
        if not attrs_of(st, p['id']):
            continue
        for nm, kind in p['near']:
            if kinds and kind not in kinds:
                continue
            # the near form must not coincide with a token of the store (e.g. another present person's name)
            new_toks = {t.lower() for t in re.findall(r"\w+", nm)} - {t.lower() for t in re.findall(r"\w+", full(p))}
            if new_toks & toks:
                continue
            opts.append((p, nm, kind))
    if not opts:
        return None
    p, nm, kind = rng.choice(opts)
    attr = tempting_attr(rng, st, p['id'])
    if rng.random() < 0.2:
        nm = nm.lower()
    op = pick_op(rng)
    pat, q = en_req(rng, op, nm, en_word(rng, attr))
    new = new_text(rng, 'en', nm, nm, attr, p) if op == 'supersede' else None
    pr_ = mk('near_name_' + kind, pat, 'en', op, q, new, note=f"present={full(p)} asked={nm} attr={attr}")
    pr_['asked'] = nm
    if kind == 'prefix':
        pr_['sub'] = 'whole_token_of_stored_name' if nm.lower() in {t.lower() for t in re.split(r'[\s-]+', full(p))} else 'substring_of_stored_token'
    return pr_

def g_near_x(rng, st):
    opts = []
    for p in present_people(st):
        for (lang, nm, gen, kind) in p.get('near_x', []):
            if nm in ''.join(f['text'] for f in st['facts']):
                continue
            opts.append((p, lang, nm, gen or nm, kind))
    if not opts:
        return None
    p, lang, nm, gen, kind = rng.choice(opts)
    held = [a for a in attrs_of(st, p['id']) if a in X_ATTR[lang]]
    if not held:
        return None
    attr = rng.choice(held)
    op = pick_op(rng)
    q = x_req(rng, lang, op, nm, gen, attr)
    new = new_text(rng, lang, nm, gen, attr, p) if op == 'supersede' else None
    return mk('near_name_native_script', f"{lang}:{kind}", lang, op, q, new, note=f"present={full(p)} asked={nm} attr={attr}")

def g_relative(rng, st):
    # anchor: a present person with some attribute; relative: has NOT got the attribute
    anchors = [p for p in present_people(st) if attrs_of(st, p['id'])]
    if not anchors:
        return None
    if st['rel'] and rng.random() < 0.6:
        relp, anc, rel = st['rel']
        a = PBY[anc]
        held = attrs_of(st, anc) - attrs_of(st, relp)
        if not held:
            return None
        with_row = True
    else:
        a = rng.choice(anchors)
        rel = rng.choice(RELATIONS)
        held = attrs_of(st, a['id'])
        with_row = False
        relp = None
    attr = rng.choice(sorted(held))
    op = pick_op(rng)
    r = rng.random()
    an = rng.choice([a['first'], full(a)])
    if r < 0.7 or attr not in X_ATTR['zh']:
        aw = en_word(rng, attr)
        pat, tmpl = rng.choice([('rel_possessive', "{P} {rel}'s {a}"), ('rel_the_of', "the {a} of {P} {rel}"),
                                ('rel_verb', "{V} {P} {rel}'s {a}"), ('rel_name_first', "{n} {rel} {a}"),
                                ('rel_of_the', "{V} the {a} of the {rel} of {n}"),
                                ('rel_narrative', "{n} asked us to {V} {pos} {rel}'s {a}, since {pr} is no longer in touch with them")])
        q = tmpl.format(P=poss(an), rel=rel, a=aw, n=an, V=rng.choice(VERBS[op]), **pron(a['g']))
        new = None
        if op == 'supersede':
            new = f"{poss(an)} {rel}'s {aw} is {gen_value(rng, attr, a)}"
        lang = 'en'
    else:
        langs = [l for l in REL_X if rel in REL_X[l]] or ['zh']
        if rel not in REL_X['zh']:
            rel = rng.choice(list(REL_X['zh']))
            langs = list(REL_X)
        lang = rng.choice(langs)
        rw = REL_X[lang][rel]
        if lang == 'zh':
            n, _ = name_x(a, 'zh', 'full')
            np_ = f"{n}的{rw}的{X_ATTR['zh'][attr]}"
        elif lang == 'es':
            art = 'de la' if rw.endswith('a') or rw == 'madre' else 'del'
            np_ = f"{X_ATTR['es'][attr]} {art} {rw} de {a['first']}"
        elif lang == 'de':
            np_ = f"{X_ATTR['de'][attr]} von {a['first']}s {rw}"
        else:
            n, gen = name_x(a, 'ru', 'first')
            np_ = f"{X_ATTR['ru'][attr]} {rw} {gen}"
        q = rng.choice(X_WRAP[lang][op]).format(np=np_)
        new = None
        if op == 'supersede':
            new = np_ + ': ' + gen_value(rng, attr, a)
        pat = f'rel_x_{lang}'
    cat = 'relative_with_relation_row' if with_row else 'relative_no_relation_row'
    return mk(cat, pat, lang, op, q, new, note=f"anchor={full(a)} rel={rel} attr={attr}")

def g_multi(rng, st):
    pp = [p for p in present_people(st) if attrs_of(st, p['id'])]
    if not pp:
        return None
    a = rng.choice(pp)
    attr = rng.choice(sorted(attrs_of(st, a['id'])))
    others = [q for q in present_people(st) if q['id'] != a['id'] and attr not in attrs_of(st, q['id'])]
    b_present = bool(others) and rng.random() < 0.6
    b = rng.choice(others) if b_present else rng.choice(absent_people(st))
    an, bn = rng.choice([a['first'], full(a)]), rng.choice([b['first'], full(b)])
    if rng.random() < 0.5:
        an, bn = bn, an
    op = pick_op(rng)
    aw = en_word(rng, attr)
    pat, tmpl = rng.choice([('shared', "{A} and {B}'s shared {a}"), ('joint', "{V} the joint {a} of {A} and {B}"),
                            ('shares_with', "{V} the {a} {A} shares with {B}"), ('amp', "{A} & {B} {a} (joint)"),
                            ('together', "the {a} that {A} and {B} have together")])
    q = tmpl.format(A=an, B=bn, a=aw, V=rng.choice(VERBS[op]))
    new = f"{an} and {bn}'s shared {aw} is {gen_value(rng, attr, a)}" if op == 'supersede' else None
    cat = 'multi_subject_both_present' if b_present else 'multi_subject_one_absent'
    return mk(cat, pat, 'en', op, q, new, note=f"A={full(a)} holds {attr}; B={full(b)} does not")

def g_abs_script(rng, st):
    cands = [p for p in absent_people(st) if p.get('names')]
    if not cands:
        return None
    p = rng.choice(cands)
    lang = rng.choice(list(p['names']))
    held = [a for a in all_person_attrs(st) if a in X_ATTR[lang]]
    if not held:
        return None
    attr = rng.choice(held)
    nm, gen = name_x(p, lang, rng.choice(['full', 'first']))
    op = pick_op(rng)
    q = x_req(rng, lang, op, nm, gen, attr)
    new = new_text(rng, lang, nm, gen, attr, p) if op == 'supersede' else None
    return mk('abs_subject_native_script', lang, lang, op, q, new, note=f"absent={full(p)} attr={attr}")

def g_abs_mixed(rng, st):
    """Request in another language, absent person's Latin name (mixed script)."""
    cands = absent_people(st)
    lang = rng.choice([l for l in X_ATTR if l not in LATIN_LANGS])
    held = [a for a in all_person_attrs(st) if a in X_ATTR[lang]]
    if not cands or not held:
        return None
    p = rng.choice(cands)
    attr = rng.choice(held)
    nm = rng.choice([p['first'], full(p)])
    op = pick_op(rng)
    q = x_req(rng, lang, op, nm, nm, attr)
    new = new_text(rng, lang, nm, nm, attr) if op == 'supersede' else None
    return mk('abs_subject_foreign_request_latin_name', lang, lang, op, q, new, note=f"absent={full(p)} attr={attr}")

def g_ident(rng, st):
    facts = [f for f in st['facts'] if f['kind'] == 'person' and f['clauses'][0] in IDENT_ATTRS and f.get('value')]
    if not facts:
        return None
    f = rng.choice(facts)
    attr = f['clauses'][0]
    v2 = mutate_ident(rng, f['value'])
    if v2 in ' '.join(x['text'] for x in st['facts']):
        return None
    p = PBY[next(iter(f['subj']))]
    op = pick_op(rng)
    aw = en_word(rng, attr)
    V = rng.choice(VERBS[op])
    pat, q = rng.choice([
        ('ident_typed', f"{V} the {aw} {v2}"),
        ('ident_bare', f"{V} {v2}"),
        ('ident_only', v2),
        ('ident_with_present_name', f"{V} {poss(rng.choice([p['first'], full(p)]))} {aw} {v2}"),
        ('ident_wide', f"forget everything that mentions {v2}"),
        ('ident_narrative', f"{v2} belongs to a customer who left, please {V} it"),
    ])
    new = None
    if op == 'supersede':
        new = f"{poss(p['first'])} {aw} is {gen_value(rng, attr, p)}" if pat == 'ident_with_present_name' else f"The {aw} {v2} is no longer valid"
    return mk('identifier_not_in_store', pat, 'en', op, q, new, note=f"stored={f['value']} asked={v2}")

def g_wide_absent(rng, st):
    r = rng.random()
    if r < 0.5:
        cands = absent_people(st)
        p = rng.choice(cands)
        langs = ['en', 'en', 'en'] + [l for l in p.get('names', {})] + ['es', 'de', 'fr']
        lang = rng.choice(langs)
        nm, gen = name_x(p, lang, rng.choice(['full', 'first']))
        if lang == 'en' and rng.random() < 0.35:
            nm = gen = nm.lower()
        cat, g = 'wide_absent_person', p['g']
        note = f"absent={full(p)}"
    else:
        # a near-variant of a present person, subject-wide
        opts = []
        toks = store_tokens(st)
        for p in present_people(st):
            for nm, kind in p['near']:
                nt = {t.lower() for t in re.findall(r"\w+", nm)} - {t.lower() for t in re.findall(r"\w+", full(p))}
                if not (nt & toks):
                    opts.append((p, nm, kind))
        if not opts:
            return None
        p, nm, kind = rng.choice(opts)
        gen, lang, g = nm, 'en', p['g']
        cat = 'wide_near_name'
        note = f"present={full(p)} asked={nm} ({kind})"
    tmpl = rng.choice(X_WIDE[lang])
    q = tmpl.format(n=nm, gen=gen, P=poss(nm), **pron(g))
    op = rng.choice(['purge', 'release'])
    return mk(cat, lang + ':' + str(X_WIDE[lang].index(tmpl)), lang, op, q, None, note=note)

def g_org_place_absent(rng, st):
    opts = []
    if st['orgs']:
        opts.append('org')
    if st['places']:
        opts.append('place')
    addr_cities = [c for c in CITIES if any(c in f['text'] for f in st['facts'] if f['kind'] == 'person')]
    if addr_cities and all_person_attrs(st) & {'phone'}:
        opts.append('addr')
    if not opts:
        return None
    kind = 'addr' if 'addr' in opts and rng.random() < 0.5 else rng.choice(opts)
    op = pick_op(rng)
    V = rng.choice(VERBS[op])
    if kind == 'org':
        facts = [f for f in st['facts'] if f['kind'] == 'org']
        f = rng.choice(facts)
        attr = f['clauses'][0]
        o = rng.choice([x for x in ORGS if x not in st['orgs'] and x.split()[0].lower() not in store_tokens(st)])
        aw = rng.choice(ORG_ATTR[attr])
        pat, q = rng.choice([('org_possessive', f"{poss(o)} {aw}"), ('org_the_of', f"{V} the {aw} of {o}"),
                             ('org_name_first', f"{o} {aw}")])
        new = f"{poss(o)} {aw} is {gen_value(rng, attr, None)}" if op == 'supersede' else None
        return mk('org_absent', pat, 'en', op, q, new, note=f"absent org {o}; stored {attr}")
    if kind == 'place':
        f = rng.choice([f for f in st['facts'] if f['kind'] == 'place'])
        attr = f['clauses'][0]
        pl = next(iter(f['subj']))[6:]
        city, typ = pl.split()[1], pl.split()[2]
        if rng.random() < 0.5:
            c2 = rng.choice([c for c in CITIES if c not in ' '.join(x['text'] for x in st['facts'])])
            newpl = f"the {c2} {typ}"
            sub = 'place_other_city'
        else:
            t2 = rng.choice([t for t in SITE_TYPES if t != typ])
            newpl = f"the {city} {t2}"
            sub = 'place_other_type'
        aw = rng.choice(PLACE_ATTR[attr])
        q = rng.choice([f"{V} the {aw} of {newpl}", f"{poss(newpl)} {aw}", f"{newpl[4:]} {aw}"])
        new = f"The {aw} of {newpl} is {gen_value(rng, attr, None)}" if op == 'supersede' else None
        return mk('place_absent', sub, 'en', op, q, new, note=f"stored place {pl}; asked {newpl}")
    c = rng.choice(addr_cities)
    typ = rng.choice(SITE_TYPES)
    q = rng.choice([f"{V} the phone number of the {c} {typ}", f"the {c} {typ}'s phone number", f"{c} {typ} phone"])
    new = f"The phone number of the {c} {typ} is {gen_value(rng, 'org_phone', None)}" if op == 'supersede' else None
    return mk('place_only_in_address', 'city_in_person_address', 'en', op, q, new, note=f"{c} only appears in a person's address")

def g_debatable(rng, st):
    opts = [(p, d) for p in present_people(st) for d in p.get('debatable', []) if attrs_of(st, p['id'])]
    if not opts:
        return None
    p, d = rng.choice(opts)
    attr = tempting_attr(rng, st, p['id'])
    op = pick_op(rng)
    pat, q = en_req(rng, op, d, en_word(rng, attr))
    new = new_text(rng, 'en', d, d, attr, p) if op == 'supersede' else None
    return mk('debatable_partial_or_translit_name', pat, 'en', op, q, new, debatable=True,
              note=f"present={full(p)} asked={d} attr={attr}")

# ---------------------------------------------------------------- absent-attribute generators

def subject_name_en(rng, p):
    forms = [full(p), p['first'], p['first'], f"{rng.choice(TITLES[p['g']])} {p['last']}", p['first'].lower()]
    return rng.choice(forms)

def g_attr_absent(rng, st, mode):
    pp = [p for p in present_people(st) if attrs_of(st, p['id'])]
    if st['dense'] and rng.random() < 0.75:
        pp = [PBY[i] for i in st['dense'] if PBY[i] in pp] or pp
    if not pp:
        return None
    p = rng.choice(pp)
    held = attrs_of(st, p['id'])
    if mode == 'close':
        c = [(a, b) for a in held for b in CLOSE.get(a, []) if b not in held]
        if not c:
            return None
        base, attr = rng.choice(c)
        cat = 'attr_absent_close'
        note = f"{full(p)} has {sorted(held)}; asked {attr} (close to {base})"
    elif mode == 'other_person':
        others = {a for q in present_people(st) if q['id'] != p['id'] for a in attrs_of(st, q['id'])} - held
        if not others:
            return None
        attr = rng.choice(sorted(others))
        cat = 'attr_absent_held_by_other'
        note = f"{full(p)} has {sorted(held)}; asked {attr} which someone else has"
    else:
        c = [a for a in EN_ATTR if a not in held and a not in all_person_attrs(st)]
        attr = rng.choice(c)
        cat = 'attr_absent_unrelated'
        note = f"{full(p)} has {sorted(held)}; asked {attr}"
    name = subject_name_en(rng, p)
    op = pick_op(rng)
    pat, q = en_req(rng, op, name, en_word(rng, attr))
    new = new_text(rng, 'en', name, name, attr, p) if op == 'supersede' else None
    return mk(cat, pat, 'en', op, q, new, note=note)

def g_attr_xlang(rng, st):
    pp = [p for p in present_people(st) if attrs_of(st, p['id'])]
    if not pp:
        return None
    p = rng.choice(pp)
    held = attrs_of(st, p['id'])
    langs = [l for l in X_ATTR if has_script(p, l)]
    if rng.random() < 0.3:
        langs = list(X_ATTR)  # mixed-script requests allowed too
    lang = rng.choice(langs)
    # prefer attributes close to a held one
    close = [b for a in held for b in CLOSE.get(a, []) if b not in held and b in X_ATTR[lang]]
    rest = [a for a in X_ATTR[lang] if a not in held]
    attr = rng.choice(close) if close and rng.random() < 0.7 else rng.choice(rest)
    nm, gen = name_x(p, lang, rng.choice(['full', 'first']))
    op = pick_op(rng)
    q = x_req(rng, lang, op, nm, gen, attr)
    new = new_text(rng, lang, nm, gen, attr, p) if op == 'supersede' else None
    mixed = '' if has_script(p, lang) else '+latin_name'
    return mk('attr_absent_foreign_request', lang + mixed, lang, op, q, new, note=f"{full(p)} has {sorted(held)}; asked {attr}")

def g_org_attr_absent(rng, st):
    opts = []
    for o in st['orgs']:
        held = attrs_of(st, 'org:' + o)
        for a in held:
            for b in ORG_CLOSE.get(a, []):
                if b not in held:
                    opts.append(('org', o, b, a))
    for pl in st['places']:
        held = attrs_of(st, 'place:' + pl)
        for a in held:
            for b in PLACE_CLOSE.get(a, []):
                if b not in held:
                    opts.append(('place', pl, b, a))
    if not opts:
        return None
    kind, s, attr, base = rng.choice(opts)
    op = pick_op(rng)
    V = rng.choice(VERBS[op])
    aw = rng.choice((ORG_ATTR if kind == 'org' else PLACE_ATTR)[attr])
    q = rng.choice([f"{poss(s)} {aw}", f"{V} the {aw} of {s}", f"{s} {aw}"])
    q = q[0].upper() + q[1:] if q.startswith('the') and rng.random() < 0.3 else q
    new = f"The {aw} of {s} is {gen_value(rng, attr, None)}" if op == 'supersede' else None
    return mk(f'{kind}_attr_absent', f'{kind}_close', 'en', op, q, new, note=f"{s} has {base}; asked {attr}")

# ---------------------------------------------------------------- supersede-specific

def g_sup_name_only_new(rng, st):
    attr = tempting_attr(rng, st)
    if not attr:
        return None
    aw = en_word(rng, attr)
    r = rng.random()
    if r < 0.6:
        p = rng.choice(absent_people(st))
        nm = rng.choice([p['first'], full(p)])
        sub = 'absent_person_in_new'
    else:
        g = g_near(rng, st)
        if not g:
            return None
        nm = re.search(r"asked=(.*?) attr=", g['note']).group(1)
        p = None
        sub = 'near_name_in_new'
    q = rng.choice([f"the {aw}", f"update the {aw}", f"{aw}", f"the old {aw} is wrong", f"{aw} changed",
                    f"replace the {aw} we have on file"])
    new = new_text(rng, 'en', nm, nm, attr, p)
    return mk('supersede_name_only_in_new_text', sub, 'en', 'supersede', q, new, note=f"name {nm} only in --new; attr={attr}")

def g_sup_attr_only_new(rng, st):
    pp = [p for p in present_people(st) if attrs_of(st, p['id'])]
    if not pp:
        return None
    p = rng.choice(pp)
    held = attrs_of(st, p['id'])
    c = [b for a in held for b in CLOSE.get(a, []) if b not in held and b in EN_FACT] or [a for a in EN_FACT if a not in held]
    attr = rng.choice(c)
    nm = rng.choice([p['first'], full(p)])
    q = rng.choice([f"update {poss(nm)} record", f"{nm}", f"{poss(nm)} details changed", f"correct the entry for {nm}",
                    f"{nm} has new information"])
    new = new_text(rng, 'en', nm, nm, attr, p)
    return mk('supersede_attr_only_in_new_text', 'generic_query', 'en', 'supersede', q, new,
              note=f"{full(p)} has {sorted(held)}; --new states {attr}")

def g_sup_restate(rng, st):
    g = rng.choice([lambda: g_abs_other(rng, st), lambda: g_attr_absent(rng, st, 'close'), lambda: g_near(rng, st)])()
    if not g:
        return None
    if g['op'] != 'supersede':
        return None
    g['pattern'] = g['cat'] + '/' + g['pattern']
    g['cat'] = 'supersede_new_restates_query'
    return g

# ---------------------------------------------------------------- narratives

def g_narr(rng, st, mode):
    if mode == 'subject':
        if rng.random() < 0.5:
            p = rng.choice(absent_people(st))
            nm = rng.choice([p['first'], full(p)])
            g = p['g']
        else:
            opts = [(p, nm) for p in present_people(st) for nm, k in p['near']
                    if not ({t.lower() for t in re.findall(r"\w+", nm)} - {t.lower() for t in re.findall(r"\w+", full(p))}) & store_tokens(st)]
            if not opts:
                return None
            p, nm = rng.choice(opts)
            g = p['g']
        attr = tempting_attr(rng, st)
        if not attr:
            return None
        cat = 'narrative_absent_subject'
        note = f"name {nm} absent; attr={attr}"
    else:
        pp = [p for p in present_people(st) if attrs_of(st, p['id'])]
        if not pp:
            return None
        p = rng.choice(pp)
        held = attrs_of(st, p['id'])
        c = [b for a in held for b in CLOSE.get(a, []) if b not in held] or [a for a in EN_ATTR if a not in held]
        attr = rng.choice(c)
        nm, g = rng.choice([p['first'], full(p)]), p['g']
        cat = 'narrative_absent_attribute'
        note = f"{full(p)} has {sorted(held)}; asked {attr}"
    tmpl = rng.choice(NARRATIVES)
    q = tmpl.format(n=nm, P=poss(nm), a=en_word(rng, attr), **pron(g))
    op = pick_op(rng)
    new = new_text(rng, 'en', nm, nm, attr) if op == 'supersede' else None
    return mk(cat, 'narr' + str(NARRATIVES.index(tmpl)), 'en', op, q, new, note=note)

# ---------------------------------------------------------------- controls

def g_control(rng, st):
    pp = [p for p in present_people(st) if attrs_of(st, p['id'])]
    if not pp:
        return None
    p = rng.choice(pp)
    held = attrs_of(st, p['id'])
    attr = rng.choice(sorted(held))
    fam = {attr}
    r = rng.random()
    op = pick_op(rng)
    if r < 0.55:
        name = subject_name_en(rng, p)
        aw = en_word(rng, attr)
        for gw, gf in EN_GENERIC.items():
            if attr in gf and rng.random() < 0.3:
                aw, fam = gw, set(gf)
        pat, q = en_req(rng, op, name, aw)
        lang = 'en'
        new = new_text(rng, 'en', name, name, attr, p) if op == 'supersede' else None
        cat = 'control_attr_en'
    elif r < 0.8:
        langs = [l for l in X_ATTR if attr in X_ATTR[l] and has_script(p, l)]
        if not langs:
            return None
        lang = rng.choice(langs)
        nm, gen = name_x(p, lang, rng.choice(['full', 'first']))
        q = x_req(rng, lang, op, nm, gen, attr)
        new = new_text(rng, lang, nm, gen, attr, p) if op == 'supersede' else None
        pat = lang
        cat = 'control_attr_foreign'
    else:
        lang = rng.choice(['en', 'en'] + [l for l in X_WIDE if has_script(p, l)])
        nm, gen = name_x(p, lang, rng.choice(['full', 'first']))
        tmpl = rng.choice(X_WIDE[lang])
        q = tmpl.format(n=nm, gen=gen, P=poss(nm), **pron(p['g']))
        op = rng.choice(['purge', 'release'])
        new = None
        pat = lang
        cat = 'control_wide'
        allowed = {f['id'] for f in st['facts'] if p['id'] in f['subj']}
        return mk(cat, pat, lang, op, q, new, expect=allowed, note=f"{full(p)}: all rows")
    allowed = allowed_rows(st, p['id'], fam)
    return mk(cat, pat, lang, op, q, new, expect=allowed, note=f"{full(p)} {sorted(fam)}")

# ================================================================ category table

GENERATORS = [
    ('abs_subject_other_person', lambda r, s: g_abs_other(r, s, 'plain')),
    ('abs_subject_lowercase', lambda r, s: g_abs_other(r, s, 'lower')),
    ('abs_subject_title', lambda r, s: g_abs_other(r, s, 'title')),
    ('abs_subject_nickname', g_abs_nick),
    ('near_prefix', lambda r, s: g_near(r, s, {'prefix'})),
    ('near_extension', lambda r, s: g_near(r, s, {'extension'})),
    ('near_similar', lambda r, s: g_near(r, s, {'similar'})),
    ('near_surname', lambda r, s: g_near(r, s, {'surname', 'given'})),
    ('near_gender_form', lambda r, s: g_near(r, s, {'gender_form'})),
    ('near_native_script', g_near_x),
    ('relative', g_relative),
    ('relative2', g_relative),
    ('multi_subject', g_multi),
    ('abs_native_script', g_abs_script),
    ('abs_mixed', g_abs_mixed),
    ('identifier', g_ident),
    ('wide_absent', g_wide_absent),
    ('org_place_absent', g_org_place_absent),
    ('debatable', g_debatable),
    ('attr_close', lambda r, s: g_attr_absent(r, s, 'close')),
    ('attr_close2', lambda r, s: g_attr_absent(r, s, 'close')),
    ('attr_other', lambda r, s: g_attr_absent(r, s, 'other_person')),
    ('attr_unrelated', lambda r, s: g_attr_absent(r, s, 'unrelated')),
    ('attr_xlang', g_attr_xlang),
    ('org_attr_absent', g_org_attr_absent),
    ('sup_name_only_new', g_sup_name_only_new),
    ('sup_attr_only_new', g_sup_attr_only_new),
    ('sup_restate', g_sup_restate),
    ('narr_subject', lambda r, s: g_narr(r, s, 'subject')),
    ('narr_attr', lambda r, s: g_narr(r, s, 'attr')),
]

def generate(seed=SEED, n_stores=N_STORES):
    rng = random.Random(seed)
    stores = []
    gi = 0
    for sid in range(n_stores):
        st = build_store(rng, sid)
        probes = []
        tries = 0
        while len(probes) < PROBES_PER_STORE and tries < 40:
            name, g = GENERATORS[gi % len(GENERATORS)]
            gi += 1
            tries += 1
            try:
                pr = g(rng, st)
            except (IndexError, ValueError):
                pr = None
            if pr and pr['query'] not in {x['query'] for x in probes}:
                probes.append(pr)
        for _ in range(2):
            c = g_control(rng, st)
            if c and c['expect']:
                probes.append(c)
        st['probes'] = probes
        stores.append(st)
    return stores

# ================================================================ running

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
    cmd = [BIN, 'plan', '--op', op, '--query', query]
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

# ================================================================ minimisation & report

CLASS_DOC = {
    'abs_subject_other_person': 'Named person absent from the store (another real-looking full or first name); attribute present for someone else.',
    'abs_subject_lowercase': 'Absent person written in lowercase ("sofia number plate").',
    'abs_subject_title': 'Absent person with a title ("Mrs. Rao", "Dr. Anna").',
    'abs_subject_nickname': 'Nickname of nobody in the store ("Bobby", "liz").',
    'abs_subject_native_script': 'Absent person named in a non-Latin script, request in that language.',
    'abs_subject_foreign_request_latin_name': 'Request in another language/script naming an absent person in Latin letters.',
    'near_name_prefix': 'Asked name is a prefix of a present name (Ann vs Anna, Niko vs Nikos, Min vs Min-jun).',
    'near_name_extension': 'Asked name extends a present name (Annabelle vs Anna, Min-junho vs Min-jun).',
    'near_name_similar': 'Similar-sounding but different name (Yosefa/Yosef, Tim/Tom, Fatin/Fatima).',
    'near_name_surname': 'Same given name, different surname (Mehmet Kaya vs Mehmet Yilmaz).',
    'near_name_given': 'Same surname, different given name.',
    'near_name_gender_form': 'Other-gender form of a present name (Ivana vs Ivan, Mrs. Ivanova vs Dmitri Ivanov, Carlos vs Carmen Garcia).',
    'near_name_native_script': 'Near name in the native script (王伟 vs 李伟, 이민준 vs 김민준, نیلوفر رحیمی vs نیلوفر کریمی).',
    'relative_no_relation_row': "A present person's relative (\"Anna's brother's phone\") when only Anna's own attribute is stored.",
    'relative_with_relation_row': "Same, with a row naming the relative (\"Tom is Anna's brother\") but without the relative's attribute.",
    'multi_subject_one_absent': 'Request about a joint attribute of two people, one of them absent ("the office email that Greta Hoffmann and Claire have together").',
    'multi_subject_both_present': 'Joint attribute of two present people, only one of whom holds the attribute alone.',
    'identifier_not_in_store': 'Identifier (phone, email, IBAN, badge, passport ...) that differs from the stored one by one character.',
    'wide_absent_person': 'Subject-wide request ("everything about X") for an absent person.',
    'wide_near_name': 'Subject-wide request for a near name of a present person ("erase all records of Ananya Iyer" with Ananya Rao stored).',
    'org_absent': 'Organisation not in the store.',
    'place_absent': 'Place not in the store (other city or other site type: "the Haifa office" vs "the Haifa lab").',
    'place_only_in_address': "Place that only occurs inside a person's address.",
    'org_attr_absent': 'Organisation present, attribute absent (VAT vs registration number, fax vs switchboard).',
    'place_attr_absent': 'Place present, attribute absent (entry code vs Wi-Fi password).',
    'attr_absent_close': 'Person present, asked attribute absent but close to a stored one (work vs personal email, passport vs phone, birthday vs anniversary).',
    'attr_absent_held_by_other': 'Person present, asked attribute absent for them but stored for someone else.',
    'attr_absent_unrelated': 'Person present (often dense), asked attribute absent from the whole store.',
    'attr_absent_foreign_request': 'Person present, attribute absent, request in another language/script than the rows.',
    'supersede_name_only_in_new_text': 'Supersede whose query names no subject ("the tax ID"); the absent subject is named only in --new.',
    'supersede_attr_only_in_new_text': 'Supersede whose query names only the person ("correct the entry for David"); the absent attribute is only in --new.',
    'supersede_new_restates_query': 'Supersede whose --new restates an absent-subject / absent-attribute query.',
    'narrative_absent_subject': 'Long narrative request with a reason; the person is absent.',
    'narrative_absent_attribute': 'Long narrative request with a reason; the person is present, the attribute is not.',
    'control_attr_en': 'CONTROL (subject+attribute present, English): rows outside the allowed set were targeted.',
    'control_attr_foreign': 'CONTROL (subject+attribute present, other language): rows outside the allowed set were targeted.',
    'control_wide': 'CONTROL (subject-wide, subject present): rows outside the allowed set were targeted.',
    'debatable_partial_or_translit_name': 'INFORMATIONAL, not counted: surname-only / partial / transliterated form of a present name (Schmidt, Li, Ahmad, Garcia). Usually a legitimate alias.',
}

ANALYST_NOTES = """## Likely root causes (from the plan explanations; checked by hand on the reproductions)

1. **--new drives supersede past the query's constraints.** With `--op supersede`, a row lacking the query's subject or
   attribute is still chosen because of the new text ("holds a value of the kind the new text states", "relates to the
   query and the new text (n)", "closest in meaning ..."). A subject or attribute that appears only in --new is never
   required of the target row (classes supersede_name_only_in_new_text, supersede_attr_only_in_new_text), and supersede is
   2-3x worse than purge/release in almost every other class.
2. **Names are recognised by capitalisation.** A lowercase absent name ("ananya's office address", "bill's shoe size")
   becomes an ordinary missing word; the attribute words alone reach the 0.5 coverage threshold, so another person's row is
   targeted. Capitalised absent names are rejected ("does not name X") almost always.
3. **Relation words do not shift the subject.** "X's brother's / manager's / doctor's ATTR" is scored as X + ATTR with one
   missing word, so X's own ATTR row (or the row "Tom is X's brother") is targeted.
4. **Coverage >= 0.5 from the subject alone.** When the attribute words are unknown to the attribute vocabulary (bank
   details, PIN, date of birth, tax identification number, entry code, Wi-Fi password, company registration number ...) or
   the subject has several tokens (full names, hyphenated names like Ji-woo / Min-jun, "the Austin warehouse"), the subject
   tokens alone pass the threshold and every row of that subject is targeted.
5. **Partial name evidence is accepted.** A shared given name with a different surname (Mehmet Kaya vs Mehmet Yilmaz, Nikos
   Georgiadis vs Nikos Papadopoulos), one half of a hyphenated name (Min, Ji, Min-ji, Ji-won vs Min-jun, Ji-woo), a
   trailing -s stemmed away (Niko vs Nikos, Jona vs Jonas) or a place with the same city but another site type (the Haifa
   office vs the Haifa lab) are enough to target the row. The explicit surname check ("names Schmidt, not Schulz") fires
   only some of the time.
6. **Identifiers.** A typed identifier that differs from the stored one is ignored in supersede ("change the credit card
   number 4111 1111 1111 6887" replaces ...6889), and once an IBAN differing in one digit was reported as "present as a
   whole": `drop the IBAN DE12 0704 0044 0532 7966 37` targets the row holding `DE12 3704 0044 0532 7966 37` (checked by
   hand: `... 7966 38` and `DE99 9999 ...` are correctly rejected; a truncated `DE12 3704 0044 0532 7966` is also accepted
   as "present as a whole").
7. **Non-Latin requests** are mostly safe for absent *persons*, but Thai/Persian/Korean queries are transliterated into
   long glued tokens, so only the name part matches and rows with another attribute of that person are targeted
   (attr_absent_foreign_request).
"""

def repro(facts, pr, tag):
    path = os.path.join(STORES, f"min_{tag}.oubli")
    make_store_file(path, [f['text'] for f in facts])
    st = dict(facts=[dict(f, id=i + 1) for i, f in enumerate(facts)])
    p2 = dict(pr)
    if pr['expect'] is not None:
        p2['expect'] = [i + 1 for i, f in enumerate(facts) if f['id'] in pr['expect']]
    res = plan(path, pr['op'], pr['query'], pr['new'])
    bad, _ = judge(st, p2, res)
    return bad, path, p2

def minimize(facts, pr, tag, floor=3):
    facts = list(facts)
    bad, path, _ = repro(facts, pr, tag)
    if not bad:
        return None
    changed = True
    while changed and len(facts) > floor:
        changed = False
        for i in range(len(facts) - 1, -1, -1):
            if len(facts) <= floor:
                break
            trial = facts[:i] + facts[i + 1:]
            b, _, _ = repro(trial, pr, tag)
            if b:
                facts = trial
                changed = True
    bad, path, p2 = repro(facts, pr, tag)
    text = plan(path, pr['op'], pr['query'], pr['new'], as_json=False)
    for fn in os.listdir(STORES):
        if fn.startswith(os.path.basename(path)):
            os.remove(os.path.join(STORES, fn))
    return dict(facts=[f['text'] for f in facts], bad=bad, text=text.rstrip(), expect=p2['expect'])

def shq(s):
    return "'" + s.replace("'", "'\\''") + "'"

def report(results, stores):
    sby = {s['sid']: s for s in stores}
    cats = collections.OrderedDict()
    for r in results:
        cats.setdefault(r['cat'], []).append(r)
    order = sorted(cats, key=lambda c: (c.startswith('control'), c.startswith('debatable'),
                                          -sum(bool(r['over']) for r in cats[c]) / len(cats[c])))
    # pick examples: distinct (pattern, op), fewest facts first
    jobs = []
    for c in order:
        overs = [r for r in cats[c] if r['over']]
        overs.sort(key=lambda r: (len(sby[r['sid']]['facts']), len(r['query'])))
        seen, picked = set(), []
        sids, subj = set(), set()
        for r in overs:
            k = (r['pattern'], r['op'])
            who = re.split(r'[;(]| attr=| rel=', r['note'])[0]
            if k in seen or r['sid'] in sids or (who in subj and len(overs) > 6):
                continue
            seen.add(k)
            sids.add(r['sid'])
            subj.add(who)
            picked.append(r)
            if len(picked) == 3:
                break
        for j, r in enumerate(picked):
            jobs.append((c, j, r))
    def do(job):
        c, j, r = job
        return (c, j, r, minimize(sby[r['sid']]['facts'], r, f"{c}_{j}"))
    with ThreadPoolExecutor(WORKERS) as ex:
        mins = list(ex.map(do, jobs))
    ex_by = collections.defaultdict(list)
    for c, j, r, m in mins:
        if m:
            ex_by[c].append((r, m))

    L = []
    tot = [r for r in results if not r['cat'].startswith('control') and not r['debatable']]
    ctl = [r for r in results if r['cat'].startswith('control')]
    n_over = sum(bool(r['over']) for r in tot)
    L.append('# oubli forgetting-call over-deletion probe: report\n')
    L.append(f"Binary: `{BIN}` ({run([BIN, '--version'])[1].strip()}). Generator/runner: `benches/safety_probe/probe.py` "
             f"(data: `benches/safety_probe/probe_data.py`), seed `{SEED}`, {len(stores)} stores of 3-12 facts, "
             f"{len(results)} probes ({len(tot)} absent-subject/absent-attribute probes, {len(ctl)} controls, "
             f"{sum(1 for r in results if r['debatable'])} informational). All plans are dry runs (`oubli plan --json`). Raw results: "
             f"`{ROOT}/results.jsonl` (one line per probe: class, pattern, op, query, new, rows targeted, plan matches), "
             f"stores: `{ROOT}/stores.json`.\n")
    L.append('## Verdict\n')
    L.append(f"**{n_over} of {len(tot)} non-control probes ({n_over / len(tot):.1%}) over-delete**: the plan would change "
             "at least one row although the subject or the attribute named by the request is absent from the store. "
             f"In addition {sum(bool(r['over']) for r in ctl)} of {len(ctl)} controls target a row outside the allowed set "
             "(another person's row or another attribute of the right person).\n")
    by_op = collections.defaultdict(lambda: [0, 0])
    for r in tot:
        by_op[r['op']][0] += 1
        by_op[r['op']][1] += bool(r['over'])
    L.append('Over-deletion rate by op: ' + ', '.join(f"{o} {b[1]}/{b[0]} ({b[1] / b[0]:.0%})" for o, b in sorted(by_op.items())) + '.\n')
    # control hit rates
    L.append('### Controls (subject and attribute present)\n')
    L.append('| control class | probes | hit (targets an allowed row) | targets a row outside the allowed set |')
    L.append('|---|---:|---:|---:|')
    for c in [c for c in order if c.startswith('control')]:
        rs = cats[c]
        L.append(f"| {c} | {len(rs)} | {sum(r['hit'] for r in rs)} ({sum(r['hit'] for r in rs) / len(rs):.0%}) | {sum(bool(r['over']) for r in rs)} |")
    L.append('\nControl misses are not counted as bugs; the hit rate shows the probes are not trivially always-none.\n')
    # class table
    L.append('## Classes (counts)\n')
    L.append('| # | class | probes | over-deletions | rate | purge | release | supersede |')
    L.append('|---|---|---:|---:|---:|---:|---:|---:|')
    for i, c in enumerate(order, 1):
        rs = cats[c]
        o = sum(bool(r['over']) for r in rs)
        ops = {op: (sum(1 for r in rs if r['op'] == op), sum(1 for r in rs if r['op'] == op and r['over'])) for op in OPS}
        L.append(f"| {i} | {c} | {len(rs)} | {o} | {o / len(rs):.0%} | " + ' | '.join(f"{ops[op][1]}/{ops[op][0]}" for op in OPS) + ' |')
    L.append('')
    # mechanism: reasons given by the planner for wrongly targeted rows
    rc = collections.Counter()
    for r in tot:
        if not r['over']:
            continue
        for m in r['matches'] or []:
            rs_ = [re.sub(r'\(.*?\)', '(..)', x) for x in (m.get('reasons') or [])] or ['none (plain word-coverage match)']
            for x in rs_:
                rc[x] += 1
    L.append('## Planner reasons attached to wrongly targeted rows\n')
    L.append('| reason printed by `plan` | targeted rows |')
    L.append('|---|---:|')
    for k, v in rc.most_common(10):
        L.append(f"| {k} | {v} |")
    L.append('')
    # cross-cutting observations
    L.append('## Cross-cutting patterns\n')
    def rate(rs):
        o = sum(bool(r['over']) for r in rs)
        return f"{o}/{len(rs)} ({o / max(1, len(rs)):.0%})"
    sup = [r for r in tot if r['op'] == 'supersede']
    nsup = [r for r in tot if r['op'] != 'supersede']
    L.append(f"* **supersede is the weakest op**: {rate(sup)} vs purge/release {rate(nsup)}. The planner lets the --new text "
             "pick a row (\"holds a value of the kind the new text states\", \"closest in meaning to the query and the new text\", "
             "\"relates to the query and the new text\") even when the query's subject or attribute is not in that row.")
    nick_cap = [r for r in cats.get('abs_subject_nickname', []) if r.get('sub') == 'capitalised']
    L.append(f"* **lowercase names are not treated as names**: absent person in lowercase {rate(cats.get('abs_subject_lowercase', []))} vs "
             f"capitalised {rate(cats.get('abs_subject_other_person', []))}; nickname capitalised {rate(nick_cap)} vs lowercase "
             f"{rate([r for r in cats.get('abs_subject_nickname', []) if r not in nick_cap])}.")
    rel = cats.get('relative_no_relation_row', []) + cats.get('relative_with_relation_row', [])
    L.append(f"* **relatives collapse onto the anchor person**: {rate(rel)} of \"X's brother's / mother's / manager's ATTR\" "
             "requests target X's own ATTR row (or the row that states the relationship).")
    pre = cats.get('near_name_prefix', [])
    for sub in ('whole_token_of_stored_name', 'substring_of_stored_token'):
        rs = [r for r in pre if r.get('sub') == sub]
        if rs:
            L.append(f"* near_name_prefix / {sub}: {rate(rs)}" + (" (e.g. Min vs Min-jun, Ji vs Ji-woo: the stored name is split on the hyphen)" if sub.startswith('whole') else " (e.g. Niko vs Nikos, Jona vs Jonas: a trailing -s is stemmed off the stored name)"))
    names = collections.defaultdict(lambda: [0, 0])
    for c in ('near_name_prefix', 'near_name_extension', 'near_name_similar', 'near_name_surname', 'near_name_gender_form'):
        for r in cats.get(c, []):
            a = r.get('asked', '').lower()
            names[a][0] += 1
            names[a][1] += bool(r['over'])
    worst = sorted(((v[1], v[0], k) for k, v in names.items() if v[1]), reverse=True)[:15]
    L.append('* near names most often confused with a present name (asked form: over-deletions/probes): ' +
             ', '.join(f"`{k}` {o}/{n}" for o, n, k in worst) + '.')
    fl = collections.defaultdict(lambda: [0, 0])
    for r in tot:
        if r['lang'] != 'en':
            fl[r['lang']][0] += 1
            fl[r['lang']][1] += bool(r['over'])
    L.append('* non-English requests, over-deletions/probes by language: ' + ', '.join(f"{k} {v[1]}/{v[0]}" for k, v in sorted(fl.items())) + '.')
    L.append('')
    # per-class detail
    L.append(ANALYST_NOTES)
    L.append('## Classes with reproductions\n')
    L.append('Each reproduction is minimised (facts greedily removed while the over-deletion persists, floor 3 facts). '
             'To replay: `oubli init S.oubli`, inscribe the facts in order (row ids #1..#n), then run the plan command. '
             '"Expected" is what the guarantee requires.\n')
    for i, c in enumerate(order, 1):
        rs = cats[c]
        o = sum(bool(r['over']) for r in rs)
        if not o:
            continue
        L.append(f"### {i}. {c}: {o} over-deletions / {len(rs)} probes\n")
        L.append(CLASS_DOC.get(c, '') + '\n')
        pats = collections.defaultdict(lambda: [0, 0])
        for r in rs:
            pats[r['pattern']][0] += 1
            pats[r['pattern']][1] += bool(r['over'])
        L.append('Phrasing patterns (over/probes): ' + ', '.join(f"`{k}` {v[1]}/{v[0]}" for k, v in sorted(pats.items(), key=lambda x: -x[1][1])) + '\n')
        for j, (r, m) in enumerate(ex_by.get(c, []), 1):
            note = re.sub(r"^(.*?) has (?:\[.*?\]|\w+); (?:asked|--new states) (\w+)", r"\1 lacks \2", r['note'])
            L.append(f"**Repro {c}.{j}** (op `{r['op']}`, pattern `{r['pattern']}`; {note})\n")
            L.append('```text')
            for k, t in enumerate(m['facts'], 1):
                L.append(f"#{k}  {t}")
            L.append('```')
            cmd = f"oubli plan --op {r['op']} --query {shq(r['query'])}" + (f" --new {shq(r['new'])}" if r['new'] else '') + ' S.oubli'
            L.append('```sh\n' + cmd + '\n```')
            L.append('```text\n' + m['text'] + '\n```')
            exp = 'would change rows none' if r['expect'] is None else ('only rows ' + ', '.join(f"#{x}" for x in m['expect']) if m['expect'] else 'no row (allowed row removed during minimisation)')
            od = ', '.join(f"#{x}" + (' (whole multi-clause row, other clause is another attribute)' if m['expect'] and x in m['expect'] else '')
                           for x in sorted(set(m['bad'])))
            L.append(f"Expected: {exp}. Over-deleted: {od}\n")
    L.append('## Classes with no over-deletion\n')
    for c in order:
        rs = cats[c]
        if not any(r['over'] for r in rs):
            L.append(f"* {c}: 0 / {len(rs)}. {CLASS_DOC.get(c, '')}")
    L.append('\n## Method notes\n')
    L.append('* Ground truth is computed from generator metadata: each fact knows its subject ids and the attribute of each clause. '
             'A non-control probe is correct only if `rows` is empty; a control is correct if every targeted row is an allowed row '
             '(and a multi-clause allowed row is targeted by clause, not as a whole row).')
    L.append('* Absent names are checked not to collide with any token of the store; near names only differ from a present name '
             'by the listed relation (prefix, extension, similar, surname, gender form).')
    L.append('* Surname-only, partial and transliterated forms of present names (e.g. "Schmidt", "Li", "Ahmad", "Garcia") are plausible '
             'aliases, so that class is informational and excluded from the counts.')
    L.append('* Ops are drawn uniformly from purge / release / supersede; supersede probes always carry a --new text that restates '
             'the request with a fresh value (or carries the absent subject/attribute itself in the supersede_*_only_in_new_text classes).')
    with open(os.path.join(ROOT, 'REPORT.md'), 'w') as fh:
        fh.write('\n'.join(L) + '\n')
    print('wrote', os.path.join(ROOT, 'REPORT.md'))

if __name__ == '__main__':
    main()
