//! Small linguistic tables: extra romanizations of common East Asian surnames written in Han
//! characters, and exonyms of major cities.
//!
//! Sources: the surname lists are the most frequent Japanese surnames (kanji, Hepburn
//! romanization without macrons, as in passports) and Korean surnames (hanja, with the Revised
//! Romanization and the customary passport spellings), as published in national frequency
//! tables and standard romanization references. The city list pairs the endonyms of major cities
//! (in their own script, or in the form [`crate::canon::transliterate`] gives them, e.g.
//! `Москва` -> `moskva`, `東京` -> `dong jing`) with their usual English, German, French, Italian
//! and Spanish exonyms and their former or customary romanizations (Bombay, Saigon). They are
//! generic language resources, like a transliteration table, not data about anyone.

/// Han surname -> extra romanizations (Japanese readings, Korean readings). Chinese readings
/// come from `transliterate` already.
static HAN_READINGS: &[(&str, &[&str])] = &[
    ("佐藤", &["sato"]),
    ("鈴木", &["suzuki"]),
    ("高橋", &["takahashi"]),
    ("田中", &["tanaka"]),
    ("伊藤", &["ito"]),
    ("渡辺", &["watanabe"]),
    ("渡邊", &["watanabe"]),
    ("山本", &["yamamoto"]),
    ("中村", &["nakamura"]),
    ("小林", &["kobayashi"]),
    ("加藤", &["kato"]),
    ("吉田", &["yoshida"]),
    ("山田", &["yamada"]),
    ("佐々木", &["sasaki"]),
    ("山口", &["yamaguchi"]),
    ("松本", &["matsumoto"]),
    ("井上", &["inoue"]),
    ("木村", &["kimura"]),
    ("林", &["hayashi", "lim", "im"]),
    ("斎藤", &["saito"]),
    ("斉藤", &["saito"]),
    ("清水", &["shimizu"]),
    ("山崎", &["yamazaki", "yamasaki"]),
    ("森", &["mori"]),
    ("池田", &["ikeda"]),
    ("橋本", &["hashimoto"]),
    ("阿部", &["abe"]),
    ("石川", &["ishikawa"]),
    ("山下", &["yamashita"]),
    ("中島", &["nakajima", "nakashima"]),
    ("石井", &["ishii"]),
    ("小川", &["ogawa"]),
    ("前田", &["maeda"]),
    ("岡田", &["okada"]),
    ("長谷川", &["hasegawa"]),
    ("藤田", &["fujita"]),
    ("後藤", &["goto"]),
    ("近藤", &["kondo"]),
    ("村上", &["murakami"]),
    ("遠藤", &["endo"]),
    ("青木", &["aoki"]),
    ("坂本", &["sakamoto"]),
    ("福田", &["fukuda"]),
    ("太田", &["ota", "ohta"]),
    ("西村", &["nishimura"]),
    ("藤井", &["fujii"]),
    ("金子", &["kaneko"]),
    ("岡本", &["okamoto"]),
    ("藤原", &["fujiwara"]),
    ("中野", &["nakano"]),
    ("三浦", &["miura"]),
    ("原田", &["harada"]),
    ("中川", &["nakagawa"]),
    ("松田", &["matsuda"]),
    ("竹内", &["takeuchi"]),
    ("小野", &["ono"]),
    ("田村", &["tamura"]),
    ("中山", &["nakayama"]),
    ("和田", &["wada"]),
    ("石田", &["ishida"]),
    ("森田", &["morita"]),
    // Korean surnames in hanja.
    ("金", &["kim", "gim"]),
    ("李", &["lee", "yi", "rhee", "i"]),
    ("朴", &["park", "bak", "pak"]),
    ("崔", &["choi", "choe"]),
    ("鄭", &["jung", "jeong", "chung"]),
    ("姜", &["kang", "gang"]),
    ("趙", &["cho", "jo"]),
    ("尹", &["yoon", "yun"]),
    ("張", &["jang", "chang"]),
    ("韓", &["han"]),
    ("吳", &["oh", "o"]),
    ("申", &["shin", "sin"]),
    ("徐", &["seo", "suh"]),
    ("權", &["kwon", "gwon"]),
    ("黃", &["hwang"]),
    ("安", &["ahn", "an"]),
    ("宋", &["song"]),
    ("柳", &["yoo", "yu", "ryu"]),
    ("洪", &["hong"]),
    ("全", &["jeon", "chun"]),
    ("高", &["ko", "go"]),
    ("文", &["moon", "mun"]),
    ("孫", &["son"]),
    ("梁", &["yang"]),
    ("裵", &["bae"]),
    ("白", &["baek", "paik"]),
    ("許", &["heo", "huh"]),
    ("劉", &["yoo", "yu"]),
    ("南", &["nam"]),
    ("沈", &["shim", "sim"]),
    ("盧", &["noh", "roh"]),
    ("河", &["ha"]),
    ("丁", &["jeong", "chung"]),
];

/// The table's readings of a Han surname written `han` (Japanese and Korean readings), without
/// the Cantonese spellings [`han_readings`] adds.
pub fn han_surname_readings(han: &str) -> &'static [&'static str] {
    let han = han.trim();
    HAN_READINGS
        .iter()
        .find(|(k, _)| *k == han)
        .map_or(&[], |(_, v)| v)
}

/// Extra romanizations of a Han surname (`"佐藤"` -> `["sato"]`, `"金"` -> `["kim", "gim"]`):
/// Japanese and Korean readings that the per-character Chinese transliteration of [`chunks`]
/// cannot give. Pass the original text of a run of Han chunks; empty if unknown.
///
/// A single character also gives its Cantonese readings as Hong Kong and Macau spell names
/// (`"陳"` -> `"chan"`, see `canon::cantonese`; [`han_surname_readings`] without them).
///
/// [`chunks`]: crate::canon::chunks
pub fn han_readings(han: &str) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = han_surname_readings(han).to_vec();
    let han = han.trim();
    let mut chars = han.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        for s in super::cantonese::spellings(c) {
            if !out.contains(&s.as_str()) {
                out.push(s.as_str());
            }
        }
    }
    out
}

/// Groups of names of one city: the endonym as transliterated, then exonyms.
static EXONYMS: &[&[&str]] = &[
    &["moskva", "moscow", "moskau", "moscou", "mosca", "moscu"],
    &["dong jing", "tokyo", "tokio"],
    &["bei jing", "beijing", "peking", "pekin", "pechino"],
    &["athina", "athens", "athen", "athenes", "atene", "atenas"],
    &[
        "munchen",
        "muenchen",
        "munich",
        "monaco di baviera",
        "munique",
    ],
    &["wien", "vienna", "vienne", "viena"],
    &["praha", "prague", "prag", "praga"],
    &[
        "warszawa", "warsaw", "warschau", "varsovie", "varsavia", "varsovia",
    ],
    &["lisboa", "lisbon", "lissabon", "lisbonne", "lisbona"],
    &["roma", "rome", "rom"],
    &["koln", "koeln", "cologne", "colonia"],
    &["firenze", "florence", "florenz", "florencia"],
    &["venezia", "venice", "venedig", "venise", "venecia"],
    &["milano", "milan", "mailand"],
    &["napoli", "naples", "neapel", "napoles"],
    &["torino", "turin"],
    &["genova", "genoa", "genua", "genes"],
    &["den haag", "the hague", "la haye", "s gravenhage"],
    &["bruxelles", "brussel", "brussels", "bruessel", "bruselas"],
    &["antwerpen", "antwerp", "anvers", "amberes"],
    &["kobenhavn", "copenhagen", "kopenhagen", "copenhague"],
    &["goteborg", "gothenburg"],
    &[
        "sankt peterburg",
        "saint petersburg",
        "st petersburg",
        "sankt petersburg",
    ],
    &["kyiv", "kiev", "kiew", "kyyiv"],
    &["beograd", "belgrade", "belgrad"],
    &["bucuresti", "bucharest", "bukarest", "bucarest"],
    &["krakow", "cracow", "krakau", "cracovie", "cracovia"],
    &["gdansk", "danzig"],
    &["wroclaw", "breslau"],
    &["bratislava", "pressburg"],
    &["zurich", "zuerich", "zurigo"],
    &["geneve", "geneva", "genf", "ginevra", "ginebra"],
    &["basel", "bale", "basle", "basilea"],
    &["nurnberg", "nuernberg", "nuremberg"],
    &["sevilla", "seville"],
    &["zaragoza", "saragossa"],
    &["marseille", "marseilles"],
    &["lyon", "lyons"],
    &["strasbourg", "strassburg"],
    &["thessaloniki", "salonica", "saloniki"],
    &["xiang gang", "hong kong", "hongkong"],
    &["shang hai", "shanghai"],
    &["guang zhou", "guangzhou", "canton"],
    &["nan jing", "nanjing", "nanking"],
    &["tai bei", "taipei", "taibei"],
    &["da ban", "osaka"],
    &["jing du", "kyoto"],
    &["seoul", "soul"],
    &["dilli", "delhi"],
    &["vilnius", "wilno", "vilna"],
    &["helsinki", "helsingfors"],
    &["ljubljana", "laibach"],
    &["zagreb", "agram"],
    &["sofiya", "sofia"],
    &["kishinev", "chisinau"],
    &["tbilisi", "tiflis"],
    &["yerevan", "erevan"],
    &["minsk", "mensk"],
    &["aachen", "aix la chapelle", "aquisgrana"],
    &["leuven", "louvain", "lovaina"],
    &["liege", "luik", "luttich"],
    &["mainz", "mayence", "magonza"],
    &["den bosch", "s hertogenbosch", "bois le duc"],
    // Beyond Europe: endonyms in their own script (transliterated when the index is built),
    // with the English, French, German, Italian and Spanish exonyms and the customary
    // romanizations. Cities whose name is a common word or a frequent personal name in some
    // language (Nice, Medina, Hue, Doha, Haifa, Shiraz) are left out, and so are forms that
    // are surnames elsewhere (Damas, Rodas, Patra) and abjad spellings of three letters or
    // fewer (دبي, حلب, كابل; their Latin forms stay): a place name must not meet a person.
    &[
        "القاهرة",
        "cairo",
        "le caire",
        "kairo",
        "il cairo",
        "el cairo",
        "al qahira",
    ],
    &[
        "الإسكندرية",
        "الاسكندرية",
        "alexandria",
        "alexandrie",
        "alexandrien",
        "alessandria d egitto",
        "alejandria",
        "al iskandariya",
    ],
    &["دمشق", "damascus", "damaskus", "damasco", "dimashq"],
    &["بيروت", "beirut", "beyrouth", "beirute"],
    &["بغداد", "baghdad", "bagdad"],
    &["الرياض", "riyadh", "riad", "riyad", "ar riyad"],
    &["aleppo", "alep", "alepo", "halab"],
    &["الدار البيضاء", "casablanca", "dar el beida"],
    &["مراكش", "marrakesh", "marrakech", "marrakesch"],
    &["الخرطوم", "khartoum", "khartum", "jartum"],
    &["dubai", "dubaj"],
    &[
        "ירושלים",
        "القدس",
        "jerusalem",
        "jerusalen",
        "gerusalemme",
        "jerusalém",
        "yerushalayim",
        "al quds",
    ],
    &["תל אביב", "tel aviv", "tel aviv yafo", "tel awiw"],
    &[
        "באר שבע",
        "beersheba",
        "beer sheva",
        "beersheva",
        "bersabee",
    ],
    &["נצרת", "الناصرة", "nazareth", "nazaret", "nazaré"],
    &["تهران", "طهران", "tehran", "teheran", "téhéran"],
    &["اصفهان", "isfahan", "esfahan", "ispahan"],
    &["kabul", "kaboul"],
    &[
        "إسطنبول",
        "İstanbul",
        "istanbul",
        "estambul",
        "istambul",
        "stambul",
    ],
    &["İzmir", "izmir", "smyrna", "smyrne", "esmirna"],
    &[
        "กรุงเทพฯ",
        "กรุงเทพมหานคร",
        "กรุงเทพ",
        "bangkok",
        "krung thep",
        "bangkoku",
    ],
    &["เชียงใหม่", "chiang mai", "chiengmai"],
    &["ภูเก็ต", "phuket"],
    &["พัทยา", "pattaya"],
    &[
        "sài gòn",
        "saigon",
        "thành phố hồ chí minh",
        "ho chi minh city",
        "ho chi minh ville",
        "hcmc",
    ],
    &["hà nội", "hanoi", "hanoï"],
    &["đà nẵng", "da nang", "danang", "tourane"],
    &["मुंबई", "मुम्बई", "mumbai", "bombay", "bombaim"],
    &[
        "नई दिल्ली",
        "new delhi",
        "neu delhi",
        "nuova delhi",
        "nueva delhi",
    ],
    &["कोलकाता", "kolkata", "calcutta", "kalkutta"],
    &["चेन्नई", "chennai", "madras"],
    &["बेंगलुरु", "बेंगलूरु", "bengaluru", "bangalore"],
    &["पुणे", "pune", "poona"],
    &["वाराणसी", "varanasi", "benares", "banaras"],
    &["हैदराबाद", "hyderabad", "haiderabad"],
    &[
        "Харків",
        "Харьков",
        "kharkiv",
        "kharkov",
        "charkiw",
        "kharkow",
    ],
    &[
        "Львів",
        "Львов",
        "lviv",
        "lvov",
        "lwow",
        "lemberg",
        "leopoli",
    ],
    &["Одеса", "Одесса", "odesa", "odessa"],
    &["Дніпро", "Днепр", "dnipro", "dnepr", "dnjepr"],
    &["Ηράκλειο", "heraklion", "iraklion", "iraklio"],
    &["Κέρκυρα", "corfu", "korfu", "corfou", "kerkyra"],
    &["Ρόδος", "rhodes", "rhodos"],
    &["Πάτρα", "patras", "patrai"],
    &["부산", "busan", "pusan"],
    &["평양", "pyongyang", "pjoengjang"],
    &["인천", "incheon", "inchon"],
    &["yangon", "rangoon", "rangun"],
    &["almaty", "alma ata"],
];

fn squash(s: &str) -> String {
    s.chars().filter(char::is_ascii_alphanumeric).collect()
}

/// Other names of a major city: the group of endonym and exonyms (in the form a text's chunks
/// take: transliterated, lowercase, one space between words, e.g. `["moskva", "moscow",
/// "moskau", ...]`) that contains `word_form` (compared after transliteration, ignoring case,
/// spaces and punctuation), or empty. `exonyms("Москва")`, `exonyms("moscow")` and
/// `exonyms("moskva")` give the same group.
pub fn exonyms(word_form: &str) -> &'static [&'static str] {
    let table = exonym_table();
    // ASCII transliterates to itself, lowercased (the match keys' forms are all ASCII).
    if word_form.is_ascii() {
        let mut buf = [0u8; MAX_SQUASHED_NAME];
        let mut n = 0;
        for b in word_form.bytes().filter(u8::is_ascii_alphanumeric) {
            if n == buf.len() {
                return &[]; // longer than every name of the table
            }
            buf[n] = b.to_ascii_lowercase();
            n += 1;
        }
        return match std::str::from_utf8(&buf[..n]) {
            Ok(q) if !q.is_empty() => table.group_of(q),
            _ => &[],
        };
    }
    let q = squash(&super::transliterate(word_form));
    if q.is_empty() {
        return &[];
    }
    table.group_of(&q)
}

/// Whether two neighbouring chunks may together write one place name of [`exonyms`]: two
/// chunks of a script written a syllable per character (Han, kana, Hangul, Thai...; `東京` is
/// `dong` `jing`), or two capitalized Latin words (Vietnamese writes a word per syllable:
/// `Sài Gòn`, `Hà Nội`; two-word names such as `Den Haag`). The caller looks the pair up in
/// both joined forms (`"sai gon"`, `"saigon"`).
pub fn place_pair(a: &super::Chunk, b: &super::Chunk) -> bool {
    if a.script != b.script {
        return false;
    }
    a.script != super::Script::Latin || (a.capitalized && b.capitalized)
}

/// Upper bound of the squashed length of every name of [`EXONYMS`] (checked by a test), so an
/// ASCII lookup squashes into a buffer on the stack.
const MAX_SQUASHED_NAME: usize = 32;

/// [`EXONYMS`] as lookups use it, built once (lookups are on the indexing path of every row).
struct ExonymTable {
    /// Each group, every name in the form a text's chunks take.
    groups: Vec<Vec<&'static str>>,
    /// Every squashed name to its group's index. (A `BTreeMap`, whose nodes stay reachable from
    /// the static, so leak checkers such as valgrind see the table as still reachable, not
    /// possibly lost.)
    index: std::collections::BTreeMap<String, usize>,
    /// A bit per hash of a squashed name (a one-hash Bloom filter of [`FILTER_BITS`] bits): a
    /// word whose bit is clear is looked up no further (most words of a text name no city).
    filter: [u64; FILTER_BITS / 64],
}

/// Bits of [`ExonymTable::filter`]: with about four hundred names, one word in forty that
/// names no city is still looked up in the index.
const FILTER_BITS: usize = 16_384;

/// The filter bit of a squashed name: its FNV-1a hash, modulo [`FILTER_BITS`].
fn filter_bit(squashed: &str) -> usize {
    (super::fnv1a(squashed) % FILTER_BITS as u64) as usize
}

impl ExonymTable {
    fn group_of(&'static self, squashed: &str) -> &'static [&'static str] {
        let bit = filter_bit(squashed);
        if self.filter[bit / 64] & (1 << (bit % 64)) == 0 {
            return &[];
        }
        self.index
            .get(squashed)
            .map_or(&[], |&g| self.groups[g].as_slice())
    }
}

/// A name of the table in the form a text's chunks take ("القاهرة" -> "lqhrh",
/// "thành phố hồ chí minh" -> "thanh pho ho chi minh"). The string lives as long as the table
/// that holds it (the static below), so it is leaked once, on purpose.
fn chunk_form(name: &str) -> &'static str {
    if name.bytes().all(|b| b.is_ascii_lowercase() || b == b' ') {
        return Box::leak(name.to_owned().into_boxed_str());
    }
    let forms: Vec<String> = super::chunks(name).into_iter().map(|c| c.form).collect();
    Box::leak(forms.join(" ").into_boxed_str())
}

fn exonym_table() -> &'static ExonymTable {
    static TABLE: std::sync::OnceLock<ExonymTable> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let groups: Vec<Vec<&'static str>> = EXONYMS
            .iter()
            .map(|g| g.iter().map(|n| chunk_form(n)).collect())
            .collect();
        let mut index = std::collections::BTreeMap::new();
        let mut filter = [0u64; FILTER_BITS / 64];
        for (i, g) in groups.iter().enumerate() {
            for n in g {
                let squashed = squash(n);
                let bit = filter_bit(&squashed);
                filter[bit / 64] |= 1 << (bit % 64);
                index.entry(squashed).or_insert(i);
            }
        }
        ExonymTable {
            groups,
            index,
            filter,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_fits_the_lookup_buffer() {
        for g in EXONYMS {
            for n in g.iter() {
                assert!(squash(chunk_form(n)).len() <= MAX_SQUASHED_NAME, "{n}");
                assert!(!exonyms(n).is_empty(), "{n}");
            }
        }
    }

    #[test]
    fn no_name_belongs_to_two_cities() {
        let mut seen = std::collections::BTreeMap::new();
        for (i, g) in EXONYMS.iter().enumerate() {
            for n in g.iter() {
                let k = squash(chunk_form(n));
                assert!(!k.is_empty(), "{n} has no letters once transliterated");
                if let Some(j) = seen.insert(k.clone(), i) {
                    assert_eq!(j, i, "{n} ({k}) names two cities");
                }
            }
        }
    }
}
