//! The scale suite's fixed evidence and forgetting decoys.
//!
//! Sixteen probes, each answered by one evidence fact and tried through three formulations
//! (a question, keywords, the most specific phrasing), and twelve decoys (four superseded,
//! four released, four purged) whose values must never be recalled again.

/// A question whose answer lives in fixed evidence facts.
#[derive(Debug, Clone, Copy)]
pub struct Probe {
    /// Stable id.
    pub id: &'static str,
    /// The evidence facts, inscribed at every scale.
    pub facts: &'static [&'static str],
    /// Formulations the agent tries in order, one recall each.
    pub formulations: &'static [&'static str],
    /// Strings the returned texts must hold.
    pub evidence: &'static [&'static str],
}

/// How a decoy is forgotten.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecoyKind {
    /// Replaced by a newer fact.
    Superseded,
    /// Released (soft-forgotten).
    Released,
    /// Purged (hard-erased).
    Purged,
}

/// A fact that is forgotten at every scale and must not come back.
#[derive(Debug, Clone, Copy)]
pub struct Decoy {
    /// Stable id.
    pub id: &'static str,
    /// How it is forgotten.
    pub kind: DecoyKind,
    /// The fact.
    pub fact: &'static str,
    /// The control query.
    pub query: &'static str,
    /// The replacement text (superseded decoys only).
    pub replacement: &'static str,
    /// A recall that looks for it.
    pub probe: &'static str,
    /// The value that must never be recalled again.
    pub forbidden: &'static str,
}

/// The fixed evidence.
pub const PROBES: &[Probe] = &[
    Probe {
        id: "passport",
        facts: &["Priya Raman's passport expires on 12 October 2027."],
        formulations: &[
            "When does Priya's passport run out?",
            "Priya Raman passport expiry",
            "Priya Raman's passport expires on",
        ],
        evidence: &["12 October 2027"],
    },
    Probe {
        id: "allergy",
        facts: &["Tomasz Wróbel is severely allergic to hazelnuts and carries an EpiPen."],
        formulations: &[
            "Is there anything Tomasz can't eat?",
            "Tomasz Wróbel allergy",
            "Tomasz allergic EpiPen",
        ],
        evidence: &["hazelnuts"],
    },
    Probe {
        id: "school",
        facts: &["Aisha's daughter Zara attends Hillcrest Primary, class 3B."],
        formulations: &[
            "Which school does Aisha's kid go to?",
            "Zara school class",
            "Zara attends Hillcrest Primary",
        ],
        evidence: &["Hillcrest Primary", "3B"],
    },
    Probe {
        id: "car",
        facts: &["The family car is a blue Volvo XC40 with registration KP71 ZRW."],
        formulations: &[
            "What car do we drive?",
            "family car registration",
            "Volvo XC40 registration plate",
        ],
        evidence: &["KP71 ZRW"],
    },
    Probe {
        id: "anniversary",
        facts: &["Marco and Giulia's wedding anniversary is on 3 June; they married in Verona."],
        formulations: &[
            "When is Marco's anniversary?",
            "Marco Giulia wedding anniversary date",
            "wedding anniversary 3 June Verona",
        ],
        evidence: &["3 June"],
    },
    Probe {
        id: "insurance",
        facts: &["Home insurance is with Northfield Mutual, policy number NFM-558213."],
        formulations: &[
            "Who insures the house?",
            "home insurance policy number",
            "Northfield Mutual policy",
        ],
        evidence: &["NFM-558213"],
    },
    Probe {
        id: "doctor",
        facts: &["Dr. Ingeborg Salvesen at Fjordside Clinic is Lars's cardiologist."],
        formulations: &[
            "Who looks after Lars's heart?",
            "Lars cardiologist",
            "Lars cardiologist Fjordside Clinic",
        ],
        evidence: &["Ingeborg Salvesen"],
    },
    Probe {
        id: "flight",
        facts: &["Helga's return flight LH2217 leaves Lisbon at 18:40 on 9 May."],
        formulations: &[
            "When does Helga fly home?",
            "Helga return flight Lisbon",
            "LH2217 departure time",
        ],
        evidence: &["LH2217", "18:40"],
    },
    Probe {
        id: "landlord",
        facts: &["The landlord, Mr. Oyelaran, prefers rent reminders by text to 07700 900412."],
        formulations: &[
            "How do I reach the landlord?",
            "landlord Oyelaran phone",
            "landlord rent reminders text number",
        ],
        evidence: &["07700 900412"],
    },
    Probe {
        id: "bloodtype",
        facts: &["Keiko Arakawa's blood type is AB negative."],
        formulations: &[
            "What blood group is Keiko?",
            "Keiko Arakawa blood type",
            "Keiko blood type AB",
        ],
        evidence: &["AB negative"],
    },
    Probe {
        id: "locker",
        facts: &["Rohan keeps his climbing gear in storage unit 114 at Eastgate Self Storage."],
        formulations: &[
            "Where is Rohan's climbing gear?",
            "Rohan storage unit",
            "Eastgate Self Storage unit",
        ],
        evidence: &["unit 114"],
    },
    Probe {
        id: "vet",
        facts: &[
            "Ottilie's cat Mr. Whiskers is booked for a dental clean on 22 February at Larkspur Vets.",
        ],
        formulations: &[
            "When is the cat's vet visit?",
            "Mr. Whiskers dental clean",
            "Larkspur Vets booking Ottilie",
        ],
        evidence: &["22 February"],
    },
    Probe {
        id: "wifi_home",
        facts: &[
            "The home Wi-Fi network is called Nebula-5G and its password is quokka-lantern-88.",
        ],
        formulations: &[
            "What's the Wi-Fi password at home?",
            "home Wi-Fi password",
            "Nebula-5G password",
        ],
        evidence: &["quokka-lantern-88"],
    },
    Probe {
        id: "pension",
        facts: &["Beatriz's pension provider is Solace Retirement, member number SR-77102."],
        formulations: &[
            "Who runs Beatriz's pension?",
            "Beatriz pension provider member number",
            "Solace Retirement member number",
        ],
        evidence: &["SR-77102"],
    },
    Probe {
        id: "boiler",
        facts: &[
            "The boiler was last serviced by Kinsella Heating on 14 November; next service is due in November.",
        ],
        formulations: &[
            "When was the boiler serviced?",
            "boiler service Kinsella Heating",
            "boiler last serviced 14 November",
        ],
        evidence: &["Kinsella Heating", "14 November"],
    },
    Probe {
        id: "bookclub",
        facts: &[
            "The book club meets at Wendeline's flat on the first Thursday of each month; this month's book is The Remains of the Day.",
        ],
        formulations: &[
            "What are we reading for book club?",
            "book club this month's book",
            "book club Wendeline first Thursday",
        ],
        evidence: &["The Remains of the Day"],
    },
];

/// The forgetting decoys, planted at every scale.
pub const DECOYS: &[Decoy] = &[
    Decoy {
        id: "gym-code",
        kind: DecoyKind::Superseded,
        fact: "Priya's gym locker combination is 4471.",
        query: "Priya gym locker combination",
        replacement: "Priya's gym locker combination is 9032.",
        probe: "Priya gym locker combination",
        forbidden: "4471",
    },
    Decoy {
        id: "work-email",
        kind: DecoyKind::Superseded,
        fact: "Lars's work email is lars.eng@fjordtech.no.",
        query: "Lars work email",
        replacement: "Lars's work email is lars.engebretsen@fjordtech.no.",
        probe: "What is Lars's work email?",
        forbidden: "lars.eng@",
    },
    Decoy {
        id: "router-pin",
        kind: DecoyKind::Superseded,
        fact: "The router admin PIN is 61-38-20.",
        query: "router admin PIN",
        replacement: "The router admin PIN was changed to 47-92-15.",
        probe: "router admin PIN",
        forbidden: "61-38-20",
    },
    Decoy {
        id: "dentist",
        kind: DecoyKind::Superseded,
        fact: "Keiko's dentist is Dr. Petrakis on Harbour Road.",
        query: "Keiko dentist",
        replacement: "Keiko's dentist is now Dr. Mwangi at the Quayside practice.",
        probe: "Who is Keiko's dentist?",
        forbidden: "Petrakis",
    },
    Decoy {
        id: "otp",
        kind: DecoyKind::Released,
        fact: "Rohan's bank one-time passcode is 582907.",
        query: "Rohan bank one-time passcode",
        replacement: "",
        probe: "Rohan bank passcode",
        forbidden: "582907",
    },
    Decoy {
        id: "door-code",
        kind: DecoyKind::Released,
        fact: "Temporary door code for the Elm Street rental is 2580 until Sunday.",
        query: "temporary door code Elm Street rental",
        replacement: "",
        probe: "Elm Street rental door code",
        forbidden: "2580",
    },
    Decoy {
        id: "parking",
        kind: DecoyKind::Released,
        fact: "Visitor parking permit VP-3319 is valid for this weekend only.",
        query: "visitor parking permit this weekend",
        replacement: "",
        probe: "visitor parking permit",
        forbidden: "VP-3319",
    },
    Decoy {
        id: "hotel",
        kind: DecoyKind::Released,
        fact: "Helga is staying at the Alfama Lodge in Lisbon until Friday.",
        query: "Helga staying at Alfama Lodge",
        replacement: "",
        probe: "Where is Helga staying?",
        forbidden: "Alfama Lodge",
    },
    Decoy {
        id: "ssn",
        kind: DecoyKind::Purged,
        fact: "Jonah Whitfield's national insurance number is QQ 12 34 56 C.",
        query: "QQ 12 34 56 C",
        replacement: "",
        probe: "Jonah Whitfield national insurance number",
        forbidden: "QQ 12 34 56 C",
    },
    Decoy {
        id: "card",
        kind: DecoyKind::Purged,
        fact: "Backup card for subscriptions ends in 7731, expiry 04/28.",
        query: "card ending 7731",
        replacement: "",
        probe: "backup card for subscriptions",
        forbidden: "7731",
    },
    Decoy {
        id: "ex-address",
        kind: DecoyKind::Purged,
        fact: "Former tenant Dana Kovacs forwarded her new address: 19 Ravel Street, Leeds.",
        query: "Dana Kovacs",
        replacement: "",
        probe: "Dana Kovacs new address",
        forbidden: "19 Ravel Street",
    },
    Decoy {
        id: "medical",
        kind: DecoyKind::Purged,
        fact: "Client Amadou Sy disclosed a diagnosis of type 1 diabetes during intake.",
        query: "Amadou Sy",
        replacement: "",
        probe: "Amadou Sy diagnosis",
        forbidden: "type 1 diabetes",
    },
];
