//! Cross-lingual attribute concepts: "room" in an English request and "палата", "الغرفة" or
//! "병실" in a stored row name the same attribute.
//!
//! A request written in one language about a row written in another shares no word with it
//! except the subject's name, which names every row about that person. This table names, for
//! the attributes personal-memory stores hold most (contact details, health care, money,
//! travel, work), the common words for each in English and in the languages of the scripts the
//! canonicalizer transliterates: Chinese (simplified and traditional), Japanese, Korean, Arabic,
//! Hebrew, Russian and Ukrainian, Greek, Hindi and Thai. It is a bilingual-dictionary resource
//! of general language, written per concept, not per case, and names no entity.
//!
//! Generic heads ("number", "name", "date", "code") are left out on purpose: they do not say
//! which attribute a row holds, and matching them across languages would let a request for a
//! phone number reach an insurance number.
//!
//! Matching ([`concepts_of_text`]): a foreign form matches a word that contains it in scripts
//! written without spaces or with attached particles and clitics (Han, kana, Hangul, Thai,
//! Arabic, Hebrew) and a word that starts with it in inflecting scripts with spaces (Cyrillic,
//! Greek, Devanagari: the forms are stems). English words match by [`crate::lexicon::lemma`].

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::OnceLock;

use crate::canon::{Chunk, Script};
use crate::lexicon::lemma;

/// A concept: English words, then foreign forms.
type Concept = (
    &'static str,
    &'static [&'static str],
    &'static [&'static str],
);

/// The concepts. English words are matched by lemma; foreign forms as described in the module
/// documentation.
const CONCEPTS: &[Concept] = &[
    (
        "room",
        &["room", "ward"],
        &[
            "房间",
            "病房",
            "房間",
            "部屋",
            "病室",
            "号室",
            "병실",
            "객실",
            "غرفة",
            "غرفه",
            "חדר",
            "палат",
            "комнат",
            "кімнат",
            "δωμάτι",
            "θάλαμ",
            "कमर",
            "ห้อง",
        ],
    ),
    (
        "appointment",
        &["appointment", "booking", "visit", "consultation"],
        &[
            "预约",
            "預約",
            "予約",
            "예약",
            "موعد",
            "תור",
            "פגישה",
            "запис",
            "приём",
            "прием",
            "ραντεβού",
            "अपॉइंटमेंट",
            "นัด",
        ],
    ),
    (
        "allergy",
        &["allergy", "allergic", "allergies", "intolerance"],
        &[
            "过敏",
            "過敏",
            "アレルギー",
            "알레르기",
            "알러지",
            "حساسية",
            "אלרגי",
            "аллерги",
            "алергі",
            "αλλεργ",
            "एलर्जी",
            "แพ้",
        ],
    ),
    (
        "phone",
        &[
            "phone",
            "mobile",
            "telephone",
            "landline",
            "cell",
            "cellphone",
        ],
        &[
            "电话",
            "電話",
            "手机",
            "手機",
            "携帯",
            "전화",
            "휴대폰",
            "핸드폰",
            "هاتف",
            "جوال",
            "موبايل",
            "טלפון",
            "נייד",
            "телефон",
            "мобільн",
            "мобильн",
            "τηλέφων",
            "κινητ",
            "σταθερ",
            "फ़ोन",
            "फोन",
            "मोबाइल",
            "โทรศัพท์",
            "มือถือ",
        ],
    ),
    (
        "address",
        &["address"],
        &[
            "地址",
            "住址",
            "住所",
            "주소",
            "عنوان",
            "כתובת",
            "адрес",
            "διεύθυνσ",
            "ที่อยู่",
        ],
    ),
    (
        "email",
        &["email", "e-mail", "mail", "inbox"],
        &[
            "邮箱",
            "郵箱",
            "电子邮件",
            "電子郵件",
            "メール",
            "이메일",
            "بريد",
            "מייל",
            "почт",
            "пошт",
            "ईमेल",
            "อีเมล",
        ],
    ),
    (
        "salary",
        &[
            "salary", "wage", "wages", "pay", "paid", "earn", "earns", "income",
        ],
        &[
            "工资",
            "工資",
            "薪水",
            "薪资",
            "薪資",
            "年薪",
            "月薪",
            "給与",
            "給料",
            "年収",
            "연봉",
            "월급",
            "급여",
            "راتب",
            "משכורת",
            "зарплат",
            "оклад",
            "заробітн",
            "μισθ",
            "वेतन",
            "तनख्वाह",
            "เงินเดือน",
        ],
    ),
    (
        "doctor",
        &["doctor", "physician", "gp", "attending", "clinician"],
        &[
            "医生",
            "醫生",
            "大夫",
            "医師",
            "医者",
            "主治医",
            "의사",
            "주치의",
            "طبيب",
            "רופא",
            "врач",
            "лікар",
            "γιατρ",
            "डॉक्टर",
            "चिकित्सक",
            "แพทย์",
            "หมอ",
        ],
    ),
    (
        "medication",
        &[
            "medication",
            "medicine",
            "drug",
            "prescription",
            "prescribed",
            "dose",
            "pill",
        ],
        &[
            "药物",
            "藥物",
            "处方",
            "處方",
            "服药",
            "薬",
            "약물",
            "처방",
            "دواء",
            "أدوية",
            "תרופ",
            "лекарств",
            "препарат",
            "ліки",
            "φάρμακ",
            "दवा",
        ],
    ),
    (
        "insurance",
        &["insurance", "insurer", "insured", "policy", "coverage"],
        &[
            "保险",
            "保險",
            "医保",
            "醫保",
            "保険",
            "보험",
            "تأمين",
            "ביטוח",
            "страхов",
            "полис",
            "ασφάλ",
            "बीमा",
            "ประกัน",
        ],
    ),
    (
        "account",
        &["account"],
        &[
            "账户",
            "帳戶",
            "户口",
            "戶口",
            "账号",
            "帳號",
            "口座",
            "계좌",
            "حساب",
            "חשבון",
            "счет",
            "счёт",
            "рахун",
            "λογαριασμ",
            "खाता",
            "खाते",
            "บัญชี",
        ],
    ),
    (
        "card",
        &["card"],
        &[
            "信用卡",
            "借记卡",
            "储蓄卡",
            "銀行卡",
            "银行卡",
            "卡号",
            "卡號",
            "カード",
            "카드",
            "بطاقة",
            "כרטיס",
            "карт",
            "κάρτ",
            "कार्ड",
            "บัตร",
        ],
    ),
    (
        "loan",
        &["loan", "mortgage", "credit"],
        &[
            "贷款",
            "貸款",
            "房贷",
            "房貸",
            "按揭",
            "ローン",
            "融資",
            "대출",
            "قرض",
            "رهن",
            "משכנתא",
            "הלוואה",
            "ипотек",
            "кредит",
            "іпотек",
            "δάνει",
            "ऋण",
            "लोन",
            "สินเชื่อ",
            "เงินกู้",
        ],
    ),
    (
        "passport",
        &["passport"],
        &[
            "护照",
            "護照",
            "旅券",
            "パスポート",
            "여권",
            "جواز",
            "דרכון",
            "паспорт",
            "διαβατήρι",
            "पासपोर्ट",
            "หนังสือเดินทาง",
            "พาสปอร์ต",
        ],
    ),
    (
        "visa",
        &["visa"],
        &[
            "签证",
            "簽證",
            "ビザ",
            "査証",
            "비자",
            "تأشيرة",
            "ויזה",
            "אשרה",
            "виза",
            "визы",
            "визу",
            "візи",
            "віза",
            "βίζα",
            "वीज़ा",
            "वीजा",
            "วีซ่า",
        ],
    ),
    (
        "flight",
        &["flight", "fly", "flies", "flying"],
        &[
            "航班",
            "フライト",
            "항공편",
            "رحلة",
            "טיסה",
            "рейс",
            "πτήσ",
            "उड़ान",
            "เที่ยวบิน",
        ],
    ),
    (
        "hotel",
        &["hotel", "accommodation"],
        &[
            "酒店",
            "宾馆",
            "賓館",
            "ホテル",
            "호텔",
            "فندق",
            "מלון",
            "гостиниц",
            "отел",
            "готел",
            "ξενοδοχ",
            "होटल",
            "โรงแรม",
        ],
    ),
    (
        "seat",
        &["seat"],
        &["座位", "座席", "좌석", "مقعد", "מושב", "सीट", "ที่นั่ง"],
    ),
    (
        "birthday",
        &["birthday", "born", "birth"],
        &[
            "生日",
            "誕生日",
            "생일",
            "ميلاد",
            "הולדת",
            "рождени",
            "народжен",
            "γενέθλι",
            "जन्मदिन",
            "วันเกิด",
        ],
    ),
    (
        "school",
        &["school"],
        &[
            "学校",
            "學校",
            "학교",
            "مدرسة",
            "школ",
            "σχολεί",
            "स्कूल",
            "विद्यालय",
            "โรงเรียน",
        ],
    ),
    (
        "employer",
        &["employer", "company", "job", "work", "works", "employed"],
        &[
            "公司",
            "会社",
            "勤務",
            "회사",
            "직장",
            "شركة",
            "חברת",
            "работ",
            "компани",
            "робот",
            "εταιρ",
            "εργάζ",
            "नौकरी",
            "कंपनी",
            "บริษัท",
        ],
    ),
    (
        "password",
        &["password", "passcode", "passphrase", "pin"],
        &[
            "密码",
            "密碼",
            "パスワード",
            "暗証",
            "비밀번호",
            "암호",
            "المرور",
            "סיסמ",
            "парол",
            "κωδικ",
            "पासवर्ड",
            "รหัสผ่าน",
        ],
    ),
    (
        "pager",
        &["pager", "beeper", "bleep"],
        &[
            "传呼",
            "ポケベル",
            "삐삐",
            "بيجر",
            "ביפר",
            "זימונית",
            "пейджер",
            "पेजर",
            "เพจเจอร์",
        ],
    ),
    (
        "branch",
        &["branch"],
        &[
            "分行",
            "支行",
            "支店",
            "지점",
            "فرع",
            "סניף",
            "отделени",
            "филиал",
            "відділен",
            "філі",
            "κατάστημα",
            "शाखा",
            "สาขา",
        ],
    ),
    (
        "adviser",
        &[
            "adviser",
            "advisor",
            "consultant",
            "banker",
            "manager",
            "officer",
        ],
        &[
            "顾问",
            "顧問",
            "经理",
            "經理",
            "担当",
            "담당",
            "상담",
            "مستشار",
            "יועץ",
            "консультант",
            "менеджер",
            "σύμβουλ",
            "सलाहकार",
            "ผู้ดูแล",
        ],
    ),
    (
        "limit",
        &["limit", "cap", "ceiling"],
        &[
            "额度",
            "額度",
            "限额",
            "限額",
            "限度",
            "上限",
            "한도",
            "מסגרת",
            "лимит",
            "ліміт",
            "όριο",
            "सीमा",
            "วงเงิน",
        ],
    ),
    (
        "balance",
        &["balance", "outstanding"],
        &[
            "余额",
            "餘額",
            "残高",
            "잔액",
            "잔고",
            "رصيد",
            "יתרה",
            "остат",
            "баланс",
            "залиш",
            "υπόλοιπ",
            "शेष",
            "ยอดคงเหลือ",
        ],
    ),
    (
        "coach",
        &[
            "coach",
            "trainer",
            "tutor",
            "teacher",
            "instructor",
            "lesson",
            "lessons",
        ],
        &[
            "教练",
            "教練",
            "老师",
            "老師",
            "家教",
            "コーチ",
            "코치",
            "مدرب",
            "معلم",
            "מאמן",
            "מורה",
            "тренер",
            "учител",
            "репетитор",
            "вчител",
            "προπονητ",
            "δάσκαλ",
            "शिक्षक",
            "โค้ช",
            "ครู",
        ],
    ),
    (
        "key",
        &["key", "keys"],
        &[
            "钥匙",
            "鑰匙",
            "合鍵",
            "열쇠",
            "مفتاح",
            "מפתח",
            "ключ",
            "κλειδ",
            "चाबी",
            "กุญแจ",
        ],
    ),
    (
        "lawyer",
        &["lawyer", "solicitor", "attorney", "notary"],
        &[
            "律师",
            "律師",
            "弁護士",
            "변호사",
            "محامي",
            "адвокат",
            "юрист",
            "δικηγόρ",
            "वकील",
            "ทนาย",
        ],
    ),
    // Days of the week: a request fixing "Friday" and a row saying 금요일 or пятница name the
    // same day. (Month names are left out: East Asian languages write months with digits.
    // Hebrew names the days by ordinals, "יום שני" "day two", so its forms would match every
    // "second"; the ordinal-like forms of Ukrainian and Russian are written out in full.)
    (
        "monday",
        &["monday"],
        &[
            "星期一",
            "周一",
            "週一",
            "礼拜一",
            "月曜",
            "월요일",
            "الاثنين",
            "الإثنين",
            "понедельник",
            "понеділ",
            "δευτέρ",
            "सोमवार",
            "วันจันทร์",
        ],
    ),
    (
        "tuesday",
        &["tuesday"],
        &[
            "星期二",
            "周二",
            "週二",
            "礼拜二",
            "火曜",
            "화요일",
            "الثلاثاء",
            "вторник",
            "вівтор",
            "τρίτη",
            "मंगलवार",
            "วันอังคาร",
        ],
    ),
    (
        "wednesday",
        &["wednesday"],
        &[
            "星期三",
            "周三",
            "週三",
            "礼拜三",
            "水曜",
            "수요일",
            "الأربعاء",
            "среда",
            "среду",
            "середа",
            "середу",
            "τετάρτ",
            "बुधवार",
            "วันพุธ",
        ],
    ),
    (
        "thursday",
        &["thursday"],
        &[
            "星期四",
            "周四",
            "週四",
            "礼拜四",
            "木曜",
            "목요일",
            "الخميس",
            "четверг",
            "πέμπτ",
            "गुरुवार",
            "बृहस्पतिवार",
            "วันพฤหัส",
        ],
    ),
    (
        "friday",
        &["friday"],
        &[
            "星期五",
            "周五",
            "週五",
            "礼拜五",
            "金曜",
            "금요일",
            "الجمعة",
            "пятниц",
            "п'ятниц",
            "παρασκευ",
            "शुक्रवार",
            "วันศุกร์",
        ],
    ),
    (
        "saturday",
        &["saturday"],
        &[
            "星期六",
            "周六",
            "週六",
            "礼拜六",
            "土曜",
            "토요일",
            "السبت",
            "שבת",
            "суббот",
            "субот",
            "σάββατ",
            "शनिवार",
            "วันเสาร์",
        ],
    ),
    (
        "sunday",
        &["sunday"],
        &[
            "星期日",
            "星期天",
            "周日",
            "週日",
            "礼拜天",
            "日曜",
            "일요일",
            "الأحد",
            "воскресень",
            "неділ",
            "κυριακ",
            "रविवार",
            "วันอาทิตย์",
        ],
    ),
];

/// Scripts written without spaces between words: their chunks (one per syllable for Han and
/// Hangul) are joined into runs before matching.
pub fn unspaced(script: Script) -> bool {
    matches!(
        script,
        Script::Han | Script::Kana | Script::Hangul | Script::Thai
    )
}

/// How a foreign form meets a word of its script: contained in it (unspaced scripts, and the
/// abjads, whose words carry clitics), or starting it (inflecting scripts: the forms are stems).
fn contained(script: Script) -> bool {
    unspaced(script) || matches!(script, Script::Arabic | Script::Hebrew)
}

/// The foreign forms with their script, parsed once.
fn forms() -> &'static [(&'static str, Script, &'static str)] {
    static FORMS: OnceLock<Vec<(&'static str, Script, &'static str)>> = OnceLock::new();
    FORMS.get_or_init(|| {
        let mut v = Vec::new();
        for (name, _, fs) in CONCEPTS {
            for f in *fs {
                if let Some(c) = crate::canon::chunks(f).first() {
                    v.push((*name, c.script, *f));
                }
            }
        }
        v
    })
}

/// The concepts an English word (any inflection) names.
fn english() -> &'static BTreeMap<String, Vec<&'static str>> {
    static MAP: OnceLock<BTreeMap<String, Vec<&'static str>>> = OnceLock::new();
    MAP.get_or_init(|| {
        let mut m: BTreeMap<String, Vec<&'static str>> = BTreeMap::new();
        for (name, words, _) in CONCEPTS {
            for w in *words {
                let e = m.entry(lemma(w)).or_default();
                if !e.contains(name) {
                    e.push(name);
                }
            }
        }
        m
    })
}

/// The concepts one word names: `word` is its original text, `script` its script, `form` its
/// folded Latin form (for English words). For an unspaced script, `word` is a run of it.
pub fn concepts_of_word(word: &str, script: Script, form: &str) -> Vec<&'static str> {
    if script == Script::Latin {
        return english().get(&lemma(form)).cloned().unwrap_or_default();
    }
    let lower = word.to_lowercase();
    let mut out: Vec<&'static str> = Vec::new();
    for (name, fs, f) in forms() {
        let same = *fs == script || (unspaced(*fs) && unspaced(script));
        let hit = same
            && if contained(script) {
                lower.contains(f)
            } else {
                lower.starts_with(f)
            };
        if hit && !out.contains(name) {
            out.push(name);
        }
    }
    out
}

/// The words of a text for concept matching: its chunks, with contiguous chunks of unspaced
/// scripts joined into one run. Each is `(index of its first chunk, byte span, script)`.
pub fn words(text: &str, chunks: &[Chunk]) -> Vec<(usize, Range<usize>, Script)> {
    let mut out: Vec<(usize, Range<usize>, Script)> = Vec::new();
    for (i, c) in chunks.iter().enumerate() {
        if let Some(last) = out.last_mut()
            && unspaced(c.script)
            && unspaced(last.2)
            && last.1.end == c.span.start
        {
            last.1.end = c.span.end;
            continue;
        }
        out.push((i, c.span.clone(), c.script));
    }
    debug_assert!(out.iter().all(|w| text.is_char_boundary(w.1.start)));
    out
}

/// True if two words of one abjad (Arabic or Hebrew) hold the same foreign form of a concept:
/// the same attribute word with different clitics ("החדר", "the room", and "בחדר", "in the
/// room").
pub fn same_abjad_form(a: &str, b: &str, script: Script) -> bool {
    if !matches!(script, Script::Arabic | Script::Hebrew) {
        return false;
    }
    forms()
        .iter()
        .any(|(_, fs, f)| *fs == script && a.contains(f) && b.contains(f))
}

/// The concepts written in a script without letter case in `text` (with its `chunks`), each
/// with its byte span: the whole word in Arabic, Hebrew and Devanagari, the form itself inside
/// a run of an unspaced script ("電話" in "鈴木さんの電話番号", not the whole run). In those
/// scripts no capital tells a name from an attribute word; a chunk inside such a span names an
/// attribute, not a person.
pub fn caseless_forms(text: &str, chunks: &[Chunk]) -> Vec<(&'static str, Range<usize>)> {
    let mut out = Vec::new();
    for (i, span, script) in words(text, chunks) {
        if matches!(script, Script::Latin | Script::Cyrillic | Script::Greek) {
            continue;
        }
        let word = &text[span.clone()];
        if !unspaced(script) {
            for k in concepts_of_word(word, script, &chunks[i].form) {
                out.push((k, span.clone()));
            }
            continue;
        }
        for (name, fs, f) in forms() {
            if !unspaced(*fs) {
                continue;
            }
            for (at, _) in word.match_indices(f) {
                out.push((*name, span.start + at..span.start + at + f.len()));
            }
        }
    }
    out
}

/// The concepts a text names, with the byte span of the word naming each.
pub fn concepts_of_text(text: &str) -> Vec<(&'static str, Range<usize>)> {
    let chunks = crate::canon::chunks(text);
    let mut out = Vec::new();
    for (i, span, script) in words(text, &chunks) {
        for k in concepts_of_word(&text[span.clone()], script, &chunks[i].form) {
            out.push((k, span.clone()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(text: &str) -> Vec<&'static str> {
        let mut v: Vec<&'static str> = concepts_of_text(text).into_iter().map(|c| c.0).collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    #[test]
    fn one_attribute_in_many_languages() {
        assert_eq!(names("rooms"), vec!["room"]);
        for row in [
            "Пациент лежит в палате 12.",
            "المريض في الغرفة 402.",
            "김민준의 병실은 305호입니다.",
            "王芳住在302病房。",
            "החדר שלו הוא 7.",
            "Ο ασθενής είναι στο δωμάτιο 4.",
        ] {
            assert!(names(row).contains(&"room"), "{row}: {:?}", names(row));
        }
    }

    #[test]
    fn generic_heads_and_unrelated_words_name_nothing() {
        assert!(names("number").is_empty());
        assert!(names("номер").is_empty());
        assert!(names("Kenta lives in Osaka.").is_empty());
    }

    #[test]
    fn syllables_of_unspaced_scripts_are_read_as_runs() {
        // Han and Hangul chunks are single syllables; 病房 and 병실 span two.
        assert!(names("王芳住在302病房。").contains(&"room"));
        assert!(names("山田花子の住宅ローン残高").contains(&"loan"));
        assert!(names("山田花子の住宅ローン残高").contains(&"balance"));
    }

    #[test]
    fn every_form_is_of_a_script_it_can_meet() {
        for (name, words, forms) in CONCEPTS {
            assert!(!words.is_empty(), "{name}");
            for f in *forms {
                let c = crate::canon::chunks(f);
                assert!(!c.is_empty(), "{name}: {f:?}");
                assert_ne!(c[0].script, Script::Latin, "{name}: {f:?} is Latin");
                assert_eq!(f.to_lowercase(), *f, "{name}: {f:?} is not lowercase");
            }
        }
    }
}
