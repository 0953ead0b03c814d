"""Shared helpers for writing the adversarial case files.

Each category module defines CASES: a list of hand-written cases built with C(). The build
script adds two or three neutral distractor facts to each case (never one that shares a string
with the case's expectations or mutation queries), numbers the cases and writes
benches/cases/<category>.jsonl in the ForgetEval shape.
"""


def S(old_q, new):
    return {"op": "supersede", "old_q": old_q, "new": new}


def R(q):
    return {"op": "release", "q": q}


def P(q):
    return {"op": "purge", "q": q}


def C(facts, mutations, final_query, must_contain, must_not_contain):
    return {
        "setup_facts": list(facts),
        "mutations": list(mutations),
        "final_query": final_query,
        "must_contain": list(must_contain),
        "must_not_contain": list(must_not_contain),
    }


DISTRACTORS = [
    "The team standup moved to 9:45 on Tuesdays.",
    "The office plants are watered on Fridays.",
    "The shared printer on floor 2 only takes A4 paper.",
    "The quarterly all-hands is held in the main auditorium.",
    "Parking at the depot is free after 6pm.",
    "The recycling bins are collected every other Wednesday.",
    "The coffee machine descaling tablets are in the top drawer.",
    "The user prefers metric units.",
    "The user likes short answers with bullet points.",
    "The user reads science fiction before bed.",
    "The building's lift is serviced every spring.",
    "The kitchen tap drips when it is turned fully on.",
    "Library books are due back after three weeks.",
    "The bakery on the corner closes early on Sundays.",
    "Tomatoes on the balcony need watering daily in summer.",
    "The team writes documentation in British English.",
    "The sprint review happens every second Thursday.",
    "The user is learning to play chess online.",
    "Board meeting minutes are stored in the shared drive.",
    "The user dislikes coriander.",
    "The user's favourite podcast is about urban history.",
    "The neighbourhood market runs on Saturday mornings.",
    "The gym is closed on public holidays.",
    "The car needs new wiper blades before winter.",
    "The user takes the 8:10 train most weekdays.",
    "The router sits in the hallway cupboard.",
    "The user wants reminders fifteen minutes before meetings.",
    "Expense reports are due on the last working day of the month.",
    "The guest bedroom radiator needs bleeding.",
    "The user's running shoes are due for replacement.",
    "The design review checklist lives in the wiki.",
    "The user likes their tea without sugar.",
    "The smoke alarm batteries were changed last autumn.",
    "The user is planning a cycling holiday next year.",
    "The support rota changes every Monday.",
    "Spare keys are kept with the concierge.",
    "The user prefers dark mode in every app.",
    "The garden shed door sticks in wet weather.",
    "The company laptop must be encrypted.",
    "The user's dentist recommends an electric toothbrush.",
    "Holiday requests need two weeks' notice.",
    "The user collects vintage travel posters.",
    "The fridge light flickers occasionally.",
    "The Wi-Fi extender in the study needs a reboot now and then.",
    "The user likes to batch meetings on Wednesdays.",
    "The monthly newsletter goes out on the 5th.",
    "The user's bike has a squeaky rear brake.",
]
