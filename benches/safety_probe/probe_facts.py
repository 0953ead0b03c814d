# -*- coding: utf-8 -*-
"""The probe's facts and stores: attribute values, fact texts in several languages and scripts,
and stores of 3-12 facts about present people, organisations and places (see probe.py)."""
import re, unicodedata
from probe_data import *

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
