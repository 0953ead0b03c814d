# -*- coding: utf-8 -*-
"""The probe's forgetting requests: one generator per class (absent subject, absent attribute,
supersede-specific, narratives, controls), the class table and `generate` (see probe.py)."""
import os, random, re
from probe_facts import *

SEED = 20250611
N_STORES = int(os.environ.get('N_STORES', '700'))
PROBES_PER_STORE = 6
OPS = ['purge', 'release', 'supersede']

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
