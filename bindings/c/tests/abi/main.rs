//! The C ABI driven from Rust, exactly as a C caller would: raw pointers, NUL-terminated
//! strings, status codes, explicit frees.

mod erasure;
mod handles;

use std::ffi::{CStr, CString, c_char};
use std::ptr;

use oubli_c::*;

fn c(s: &str) -> CString {
    CString::new(s).unwrap()
}

fn last_error() -> String {
    let p = oubli_last_error();
    assert!(!p.is_null(), "a failed call leaves a message");
    // SAFETY: valid until the next call on this thread.
    unsafe { CStr::from_ptr(p) }.to_str().unwrap().to_owned()
}

fn text(p: *const c_char) -> Option<String> {
    // SAFETY: the pointer comes from a live handle.
    (!p.is_null()).then(|| unsafe { CStr::from_ptr(p) }.to_str().unwrap().to_owned())
}

fn zero_ins(t: &CString) -> OubliInscription {
    OubliInscription {
        text: t.as_ptr(),
        ns: ptr::null(),
        key: ptr::null(),
        kind: ptr::null(),
        metadata: ptr::null(),
        metadata_len: 0,
        vector: ptr::null(),
        vector_len: 0,
        valid_until: ptr::null(),
        derived_from: ptr::null(),
        derived_from_len: 0,
        metadata_json: ptr::null(),
    }
}

fn query_target(q: &CString) -> OubliTarget {
    OubliTarget {
        kind: OUBLI_TARGET_QUERY,
        id: 0,
        ns: ptr::null(),
        key: ptr::null(),
        query: q.as_ptr(),
    }
}

struct Fixture {
    _dir: tempfile::TempDir,
    path: CString,
    store: *mut OubliStore,
}

impl Fixture {
    fn new() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let path = c(dir.path().join("c.oubli").to_str().unwrap());
        let opts = OubliOpenOptions {
            flags: OUBLI_OPEN_CREATE,
            hash_dim: 0,
            seed: ptr::null(),
            signing_key: ptr::null(),
        };
        let mut store = ptr::null_mut();
        // SAFETY: valid arguments.
        let s = unsafe { oubli_store_open(path.as_ptr(), &opts, &mut store) };
        assert_eq!(s, OubliStatus::Ok);
        assert!(oubli_last_error().is_null());
        Fixture {
            _dir: dir,
            path,
            store,
        }
    }

    fn inscribe(&self, t: &str) -> u64 {
        let t = c(t);
        let mut id = 0;
        // SAFETY: valid arguments.
        let s = unsafe {
            oubli_inscribe_text(self.store, t.as_ptr(), ptr::null(), ptr::null(), &mut id)
        };
        assert_eq!(s, OubliStatus::Ok, "{}", last_error());
        id
    }

    fn recall(&self, q: &str) -> Vec<String> {
        let q = c(q);
        let mut hits = ptr::null_mut();
        // SAFETY: valid arguments; the handle is freed below.
        unsafe {
            assert_eq!(
                oubli_recall_text(self.store, q.as_ptr(), 10, &mut hits),
                OubliStatus::Ok
            );
            let out = (0..oubli_hits_len(hits))
                .map(|i| text(oubli_row_text(oubli_hits_row(hits, i))).unwrap())
                .collect();
            oubli_hits_free(hits);
            out
        }
    }
}

impl Drop for Fixture {
    fn drop(&mut self) {
        // SAFETY: the handle is live and freed once.
        unsafe { oubli_store_free(self.store) };
    }
}

#[test]
fn inscribe_recall_supersede_purge_verify() {
    let f = Fixture::new();
    let meta_k = c("category");
    let meta_v = c("contact");
    let pairs = [OubliPair {
        key: meta_k.as_ptr(),
        value: meta_v.as_ptr(),
    }];
    let t = c("Maria Keller's phone number is +49 30 1234567");
    let ns = c("crm");
    let key = c("maria");
    let mut ins = zero_ins(&t);
    ins.ns = ns.as_ptr();
    ins.key = key.as_ptr();
    ins.metadata = pairs.as_ptr();
    ins.metadata_len = 1;
    let mut maria = 0;
    // SAFETY: valid arguments throughout; every handle is freed.
    unsafe {
        assert_eq!(oubli_inscribe(f.store, &ins, &mut maria), OubliStatus::Ok);
        f.inscribe("The standup moved to 9:30");

        let mut row = ptr::null_mut();
        assert_eq!(
            oubli_get_by_key(f.store, ns.as_ptr(), key.as_ptr(), &mut row),
            OubliStatus::Ok
        );
        assert_eq!(oubli_row_id(row), maria);
        assert_eq!(text(oubli_row_namespace(row)).unwrap(), "crm");
        assert_eq!(text(oubli_row_key(row)).unwrap(), "maria");
        assert_eq!(text(oubli_row_kind(row)).unwrap(), "source");
        assert_eq!(text(oubli_row_state(row)).unwrap(), "surface");
        assert_eq!(oubli_row_depth(row), 1.0);
        assert!(oubli_row_created_at(row) > 0);
        assert_eq!(oubli_row_metadata_len(row), 1);
        assert_eq!(text(oubli_row_metadata_key(row, 0)).unwrap(), "category");
        assert_eq!(text(oubli_row_metadata_value(row, 0)).unwrap(), "contact");
        assert!(oubli_row_metadata_key(row, 1).is_null());
        oubli_row_free(row);

        let new_text = c("Maria Keller's phone number is +49 30 7654321");
        let replacement = zero_ins(&new_text);
        let target = OubliTarget {
            kind: OUBLI_TARGET_KEY,
            id: 0,
            ns: ns.as_ptr(),
            key: key.as_ptr(),
            query: ptr::null(),
        };
        let mut new_id = 0;
        assert_eq!(
            oubli_supersede(f.store, &target, &replacement, &mut new_id),
            OubliStatus::Ok
        );
        assert_eq!(
            f.recall("Maria phone number")[0],
            "Maria Keller's phone number is +49 30 7654321"
        );

        let q = c("Maria Keller phone number");
        let mut report = ptr::null_mut();
        assert_eq!(
            oubli_purge(f.store, &query_target(&q), &mut report),
            OubliStatus::Ok
        );
        assert_eq!(oubli_purge_report_erased_len(report), 2);
        assert_eq!(oubli_purge_report_erased(report, 0), maria);
        assert_eq!(oubli_purge_report_erased(report, 1), new_id);
        assert_eq!(oubli_purge_report_erased(report, 2), 0);
        assert!(oubli_purge_report_audit_clean(report));
        let mut rlen = 0;
        let mut olen = 0;
        let receipt = oubli_purge_report_receipt(report, &mut rlen);
        let opening = oubli_purge_report_opening(report, &mut olen);
        assert_eq!(CStr::from_ptr(receipt).to_bytes().len(), rlen);

        let mut pk = [0u8; 32];
        assert_eq!(
            oubli_store_public_key(f.store, pk.as_mut_ptr()),
            OubliStatus::Ok
        );
        let mut purge_id = 0;
        assert_eq!(
            oubli_receipt_verify(receipt, rlen, pk.as_ptr(), &mut purge_id),
            OubliStatus::Ok
        );
        assert_eq!(purge_id, oubli_purge_report_seq(report));
        assert_eq!(
            oubli_receipt_check_opening(receipt, rlen, opening, olen),
            OubliStatus::Ok
        );
        let content = c("Maria Keller's phone number is +49 30 1234567");
        let mut covering = 0;
        assert_eq!(
            oubli_receipt_covers(
                receipt,
                rlen,
                opening,
                olen,
                content.as_ptr(),
                &mut covering
            ),
            OubliStatus::Ok
        );
        assert_eq!(covering, maria);
        let other = c("The standup moved to 9:30");
        assert_eq!(
            oubli_receipt_covers(
                receipt,
                rlen,
                opening,
                olen,
                other.as_ptr(),
                ptr::null_mut()
            ),
            OubliStatus::Verification
        );
        let wrong_key = [7u8; 32];
        assert_eq!(
            oubli_receipt_verify(receipt, rlen, wrong_key.as_ptr(), ptr::null_mut()),
            OubliStatus::Verification
        );
        let mut tampered = CStr::from_ptr(receipt).to_bytes().to_vec();
        let at = tampered.len() - 10;
        tampered[at] ^= 1;
        assert_eq!(
            oubli_receipt_verify(
                tampered.as_ptr().cast(),
                tampered.len(),
                ptr::null(),
                ptr::null_mut()
            ),
            OubliStatus::Verification
        );
        oubli_purge_report_free(report);

        let mut gone = ptr::null_mut();
        assert_eq!(oubli_get(f.store, maria, &mut gone), OubliStatus::Ok);
        assert!(oubli_row_text(gone).is_null());
        assert_eq!(text(oubli_row_state(gone)).unwrap(), "void");
        assert!(oubli_row_depth(gone).is_nan());
        assert_eq!(oubli_row_superseded_by(gone), new_id);
        oubli_row_free(gone);

        let mut events = 0;
        assert_eq!(
            oubli_store_verify_log(f.store, ptr::null(), &mut events),
            OubliStatus::Ok
        );
        let mut head = 0;
        assert_eq!(oubli_store_head(f.store, &mut head), OubliStatus::Ok);
        assert_eq!(events, head);

        let mut json = ptr::null_mut();
        assert_eq!(
            oubli_history_json(f.store, new_id, &mut json),
            OubliStatus::Ok
        );
        let h: serde_json::Value =
            serde_json::from_str(CStr::from_ptr(json).to_str().unwrap()).unwrap();
        assert_eq!(h["chain"].as_array().unwrap().len(), 2);
        oubli_string_free(json);
    }
    let bytes = std::fs::read(f.path.to_str().unwrap()).unwrap();
    for needle in [&b"1234567"[..], b"7654321", b"Maria Keller"] {
        assert!(!bytes.windows(needle.len()).any(|w| w == needle));
    }
}

#[test]
fn release_pin_resurface_list_and_filters() {
    let f = Fixture::new();
    let a = f.inscribe("Hannah likes green tea");
    let b = f.inscribe("Hannah lives in Oslo");
    f.inscribe("Bob likes coffee");
    let q = c("Hannah");
    let mut n = 0;
    // SAFETY: valid arguments; handles freed.
    unsafe {
        assert_eq!(
            oubli_release(f.store, &query_target(&q), &mut n),
            OubliStatus::Ok
        );
        assert_eq!(n, 2);
        assert!(f.recall("Hannah").iter().all(|t| !t.contains("Hannah")));
        let by_id = OubliTarget {
            kind: OUBLI_TARGET_ID,
            id: a,
            ns: ptr::null(),
            key: ptr::null(),
            query: ptr::null(),
        };
        assert_eq!(oubli_resurface(f.store, &by_id, &mut n), OubliStatus::Ok);
        assert_eq!(n, 1);
        assert_eq!(oubli_pin(f.store, &by_id, ptr::null_mut()), OubliStatus::Ok);

        let mut rows = ptr::null_mut();
        assert_eq!(oubli_list(f.store, ptr::null(), &mut rows), OubliStatus::Ok);
        assert_eq!(oubli_rows_len(rows), 2);
        assert_eq!(
            text(oubli_row_state(oubli_rows_get(rows, 0))).unwrap(),
            "pinned"
        );
        assert!(oubli_row_depth(oubli_rows_get(rows, 0)).is_infinite());
        assert!(oubli_rows_get(rows, 2).is_null());
        oubli_rows_free(rows);

        let lq = OubliListQuery {
            ns: ptr::null(),
            filters: ptr::null(),
            filters_len: 0,
            flags: OUBLI_RECALL_INCLUDE_SUBMERGED,
            after: a,
            limit: 1,
            as_of_kind: OUBLI_AS_OF_NOW,
            as_of: 0,
            filter_json: ptr::null(),
        };
        assert_eq!(oubli_list(f.store, &lq, &mut rows), OubliStatus::Ok);
        assert_eq!(oubli_rows_len(rows), 1);
        assert_eq!(oubli_row_id(oubli_rows_get(rows, 0)), b);
        oubli_rows_free(rows);

        // As of seq 3 (after the three inscriptions), Hannah's rows were live.
        let hq = c("Hannah");
        let rq = OubliRecallQuery {
            text: hq.as_ptr(),
            k: 0,
            ns: ptr::null(),
            filters: ptr::null(),
            filters_len: 0,
            flags: OUBLI_RECALL_LEXICAL,
            vector: ptr::null(),
            vector_len: 0,
            as_of_kind: OUBLI_AS_OF_SEQ,
            as_of: 3,
            min_score: 0.0,
            filter_json: ptr::null(),
        };
        let mut hits = ptr::null_mut();
        assert_eq!(oubli_recall(f.store, &rq, &mut hits), OubliStatus::Ok);
        assert_eq!(oubli_hits_len(hits), 2);
        assert!(oubli_hits_score(hits, 0) > 0.0);
        assert!(oubli_hits_score(hits, 5).is_nan());
        oubli_hits_free(hits);

        let both = OubliRecallQuery {
            flags: OUBLI_RECALL_LEXICAL | OUBLI_RECALL_VECTOR,
            as_of_kind: OUBLI_AS_OF_NOW,
            ..rq
        };
        assert_eq!(
            oubli_recall(f.store, &both, &mut hits),
            OubliStatus::InvalidArgument
        );

        // A threshold above every hit's score returns no hit; one outside [0, 1] is refused.
        let strict = OubliRecallQuery {
            min_score: 1.0,
            as_of_kind: OUBLI_AS_OF_NOW,
            flags: 0,
            ..rq
        };
        let zxq = c("zxqv wplk");
        let strict = OubliRecallQuery {
            text: zxq.as_ptr(),
            ..strict
        };
        assert_eq!(oubli_recall(f.store, &strict, &mut hits), OubliStatus::Ok);
        assert_eq!(oubli_hits_len(hits), 0);
        oubli_hits_free(hits);
        let bad = OubliRecallQuery {
            min_score: 1.5,
            ..strict
        };
        assert_eq!(
            oubli_recall(f.store, &bad, &mut hits),
            OubliStatus::InvalidArgument
        );
    }
}

#[test]
fn bad_input_is_typed_and_changes_nothing() {
    let f = Fixture::new();
    f.inscribe("The staging password is tulip-4417");
    let mut hits = ptr::null_mut();
    let mut id = 0;
    let bad: &[u8] = b"pass\xffword\0";
    // SAFETY: every pointer is valid or deliberately NULL.
    unsafe {
        assert_eq!(
            oubli_recall_text(f.store, bad.as_ptr().cast(), 5, &mut hits),
            OubliStatus::InvalidUtf8
        );
        assert!(hits.is_null(), "out-parameters stay untouched on failure");
        assert!(last_error().contains("UTF-8"));
        assert_eq!(
            oubli_inscribe_text(
                f.store,
                bad.as_ptr().cast(),
                ptr::null(),
                ptr::null(),
                &mut id
            ),
            OubliStatus::InvalidUtf8
        );
        assert_eq!(
            oubli_recall_text(f.store, ptr::null(), 5, &mut hits),
            OubliStatus::NullPointer
        );
        let q = c("password");
        assert_eq!(
            oubli_recall_text(f.store, q.as_ptr(), 5, ptr::null_mut()),
            OubliStatus::NullPointer
        );
        assert_eq!(
            oubli_recall_text(ptr::null(), q.as_ptr(), 5, &mut hits),
            OubliStatus::NullPointer
        );
        let empty = c("   ");
        assert_eq!(
            oubli_inscribe_text(f.store, empty.as_ptr(), ptr::null(), ptr::null(), &mut id),
            OubliStatus::InvalidArgument
        );
        let t = c("vector row");
        let mut ins = zero_ins(&t);
        let v = [1.0f32, 2.0];
        ins.vector = v.as_ptr();
        ins.vector_len = 2;
        assert_eq!(
            oubli_inscribe(f.store, &ins, &mut id),
            OubliStatus::InvalidArgument
        );
        // The message names the store's dimension (the default embedder's).
        let dim = oubli::Embedder::dim(&oubli::StaticEmbedder::new().unwrap()).to_string();
        assert!(last_error().contains(&dim), "{}", last_error());
        ins.vector = ptr::null();
        ins.vector_len = 3;
        assert_eq!(
            oubli_inscribe(f.store, &ins, &mut id),
            OubliStatus::NullPointer
        );
        let kind = c("opinion");
        let mut ins = zero_ins(&t);
        ins.kind = kind.as_ptr();
        assert_eq!(
            oubli_inscribe(f.store, &ins, &mut id),
            OubliStatus::InvalidArgument
        );

        let bad_target = OubliTarget {
            kind: 99,
            id: 0,
            ns: ptr::null(),
            key: ptr::null(),
            query: ptr::null(),
        };
        assert_eq!(
            oubli_release(f.store, &bad_target, ptr::null_mut()),
            OubliStatus::InvalidArgument
        );
        let nothing = c("zebra xylophone quartz");
        assert_eq!(
            oubli_release(f.store, &query_target(&nothing), ptr::null_mut()),
            OubliStatus::NoMatch
        );
        let mut row = ptr::null_mut();
        assert_eq!(oubli_get(f.store, 999, &mut row), OubliStatus::NotFound);
        let dup_key = c("pw");
        assert_eq!(
            oubli_inscribe_text(f.store, t.as_ptr(), ptr::null(), dup_key.as_ptr(), &mut id),
            OubliStatus::Ok
        );
        assert_eq!(
            oubli_inscribe_text(f.store, t.as_ptr(), ptr::null(), dup_key.as_ptr(), &mut id),
            OubliStatus::Conflict
        );
        let mut seq = 0;
        assert_eq!(oubli_store_head(f.store, &mut seq), OubliStatus::Ok);
        assert_eq!(seq, 2, "only the two good inscriptions were logged");
        assert_eq!(
            oubli_receipt_verify(ptr::null(), 0, ptr::null(), ptr::null_mut()),
            OubliStatus::NullPointer
        );
        let junk = b"{}";
        assert_eq!(
            oubli_receipt_verify(
                junk.as_ptr().cast(),
                junk.len(),
                ptr::null(),
                ptr::null_mut()
            ),
            OubliStatus::Verification
        );

        // Accessors tolerate NULL.
        assert_eq!(oubli_hits_len(ptr::null()), 0);
        assert!(oubli_row_text(ptr::null()).is_null());
        assert_eq!(oubli_row_id(ptr::null()), 0);
        oubli_hits_free(ptr::null_mut());
        oubli_rows_free(ptr::null_mut());
        oubli_row_free(ptr::null_mut());
        oubli_purge_report_free(ptr::null_mut());
        oubli_string_free(ptr::null_mut());
        oubli_store_free(ptr::null_mut());
    }
}

#[test]
fn typed_metadata_in_and_json_filters_out() {
    let f = Fixture::new();
    let texts = [
        "Ticket one about the printer",
        "Ticket two about the printer",
    ];
    let metas = [
        c(r#"{"priority": 3, "tags": ["ops", "hw"], "score": 0.5, "open": true}"#),
        c(r#"{"priority": 1, "tags": ["hw"], "open": false}"#),
    ];
    let mut ids = [0u64; 2];
    // SAFETY: valid arguments; handles freed.
    unsafe {
        for i in 0..2 {
            let t = c(texts[i]);
            let mut ins = zero_ins(&t);
            ins.metadata_json = metas[i].as_ptr();
            assert_eq!(oubli_inscribe(f.store, &ins, &mut ids[i]), OubliStatus::Ok);
        }
        let mut row = ptr::null_mut();
        assert_eq!(oubli_get(f.store, ids[0], &mut row), OubliStatus::Ok);
        let json: serde_json::Value =
            serde_json::from_str(&text(oubli_row_metadata_json(row)).unwrap()).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"open": true, "priority": 3, "score": 0.5, "tags": ["ops", "hw"]})
        );
        // Entries come sorted by key; non-string values read as JSON text.
        assert_eq!(text(oubli_row_metadata_key(row, 1)).unwrap(), "priority");
        assert_eq!(text(oubli_row_metadata_value(row, 1)).unwrap(), "3");
        oubli_row_free(row);

        let list = |filter: &CString| {
            let lq = OubliListQuery {
                ns: ptr::null(),
                filters: ptr::null(),
                filters_len: 0,
                flags: 0,
                after: 0,
                limit: 0,
                as_of_kind: OUBLI_AS_OF_NOW,
                as_of: 0,
                filter_json: filter.as_ptr(),
            };
            let mut rows = ptr::null_mut();
            let status = oubli_list(f.store, &lq, &mut rows);
            if status != OubliStatus::Ok {
                return Err(status);
            }
            let out: Vec<u64> = (0..oubli_rows_len(rows))
                .map(|i| oubli_row_id(oubli_rows_get(rows, i)))
                .collect();
            oubli_rows_free(rows);
            Ok(out)
        };
        assert_eq!(list(&c(r#"{"priority": {"$gte": 2}}"#)), Ok(vec![ids[0]]));
        assert_eq!(list(&c(r#"{"tags": "hw"}"#)), Ok(ids.to_vec()));
        assert_eq!(
            list(&c(r#"{"score": {"$exists": false}}"#)),
            Ok(vec![ids[1]])
        );
        assert_eq!(list(&c(r#"{"open": {"$ne": true}}"#)), Ok(vec![ids[1]]));

        let rq = OubliRecallQuery {
            text: c("printer").into_raw(),
            k: 0,
            ns: ptr::null(),
            filters: ptr::null(),
            filters_len: 0,
            flags: OUBLI_RECALL_LEXICAL,
            vector: ptr::null(),
            vector_len: 0,
            as_of_kind: OUBLI_AS_OF_NOW,
            as_of: 0,
            min_score: 0.0,
            filter_json: c(r#"{"tags": {"$in": ["ops"]}}"#).into_raw(),
        };
        let mut hits = ptr::null_mut();
        assert_eq!(oubli_recall(f.store, &rq, &mut hits), OubliStatus::Ok);
        assert_eq!(oubli_hits_len(hits), 1);
        assert_eq!(oubli_row_id(oubli_hits_row(hits, 0)), ids[0]);
        oubli_hits_free(hits);
        drop(CString::from_raw(rq.text as *mut c_char));
        drop(CString::from_raw(rq.filter_json as *mut c_char));

        // Bad JSON, an unknown operator and a NaN-free but oversized list are refused.
        assert_eq!(list(&c("{nope")), Err(OubliStatus::InvalidArgument));
        assert!(last_error().contains("filter_json"));
        assert_eq!(
            list(&c(r#"{"x": {"$near": 1}}"#)),
            Err(OubliStatus::InvalidArgument)
        );
        let t = c("Ticket three");
        let mut ins = zero_ins(&t);
        let nested = c(r#"{"tags": [["nested"]]}"#);
        ins.metadata_json = nested.as_ptr();
        let mut id = 0;
        assert_ne!(oubli_inscribe(f.store, &ins, &mut id), OubliStatus::Ok);
        assert!(last_error().contains("metadata"));
    }
}
