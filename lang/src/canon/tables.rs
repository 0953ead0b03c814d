//! Small linguistic tables: extra romanizations of common East Asian surnames written in Han
//! characters, and exonyms of major cities.
//!
//! Sources: the surname lists are the most frequent Japanese surnames (kanji, Hepburn
//! romanization without macrons, as in passports) and Korean surnames (hanja, with the Revised
//! Romanization and the customary passport spellings), as published in national frequency
//! tables and standard romanization references. The city list pairs endonyms (in the form
//! [`crate::canon::transliterate`] gives them, e.g. `Москва` -> `moskva`, `東京` -> `dong jing`)
//! with their usual English, German, French, Italian and Spanish exonyms. They are generic
//! language resources, like a transliteration table, not data about anyone.

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

/// Extra romanizations of a Han surname (`"佐藤"` -> `["sato"]`, `"金"` -> `["kim", "gim"]`):
/// Japanese and Korean readings that the per-character Chinese transliteration of [`chunks`]
/// cannot give. Pass the original text of a run of Han chunks; empty if unknown.
///
/// [`chunks`]: crate::canon::chunks
pub fn han_readings(han: &str) -> &'static [&'static str] {
    let han = han.trim();
    HAN_READINGS
        .iter()
        .find(|(k, _)| *k == han)
        .map_or(&[], |(_, v)| v)
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
];

fn squash(s: &str) -> String {
    s.chars().filter(char::is_ascii_alphanumeric).collect()
}

/// Other names of a major city: the group of endonym and exonyms (in transliterated,
/// lowercase form, e.g. `["moskva", "moscow", "moskau", ...]`) that contains `word_form`
/// (compared after transliteration, ignoring case, spaces and punctuation), or empty.
/// `exonyms("Москва")`, `exonyms("moscow")` and `exonyms("moskva")` give the same group.
pub fn exonyms(word_form: &str) -> &'static [&'static str] {
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
            Ok(q) if !q.is_empty() => exonym_index().get(q).copied().unwrap_or(&[]),
            _ => &[],
        };
    }
    let q = squash(&super::transliterate(word_form));
    if q.is_empty() {
        return &[];
    }
    exonym_index().get(&q).copied().unwrap_or(&[])
}

/// Upper bound of the squashed length of every name of [`EXONYMS`] (checked by a test), so an
/// ASCII lookup squashes into a buffer on the stack.
const MAX_SQUASHED_NAME: usize = 32;

/// Every squashed name of [`EXONYMS`] to its group, built once: lookups are on the indexing
/// path of every row. (A `BTreeMap`, whose nodes stay reachable from the static, so leak
/// checkers such as valgrind see the table as still reachable, not possibly lost.)
fn exonym_index() -> &'static std::collections::BTreeMap<String, &'static [&'static str]> {
    static INDEX: std::sync::OnceLock<std::collections::BTreeMap<String, &'static [&'static str]>> =
        std::sync::OnceLock::new();
    INDEX.get_or_init(|| {
        let mut m = std::collections::BTreeMap::new();
        for g in EXONYMS {
            for n in g.iter() {
                m.entry(squash(n)).or_insert(*g);
            }
        }
        m
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_fits_the_lookup_buffer() {
        for g in EXONYMS {
            for n in g.iter() {
                assert!(squash(n).len() <= MAX_SQUASHED_NAME, "{n}");
                assert!(!exonyms(n).is_empty(), "{n}");
            }
        }
    }
}
