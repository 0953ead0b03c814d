# -*- coding: utf-8 -*-
"""The probe's report: each over-deleting class minimised to a small reproduction, written to
REPORT.md (see probe.py)."""
import collections, os, re, time
from concurrent.futures import ThreadPoolExecutor
from probe_cli import *
from probe_requests import SEED, OPS

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
