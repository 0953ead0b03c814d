//! The C ABI driven from Rust, exactly as a C caller would: raw pointers, NUL-terminated
//! strings, status codes, explicit frees.

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
fn open_flags_and_closed_store() {
    let dir = tempfile::tempdir().unwrap();
    let path = c(dir.path().join("x.oubli").to_str().unwrap());
    let mut store = ptr::null_mut();
    // SAFETY: valid arguments; the handle is freed.
    unsafe {
        assert_eq!(
            oubli_store_open(path.as_ptr(), ptr::null(), &mut store),
            OubliStatus::NotFound
        );
        let mut opts = OubliOpenOptions {
            flags: OUBLI_OPEN_CREATE | OUBLI_OPEN_EXCLUSIVE,
            hash_dim: 64,
            seed: ptr::null(),
            signing_key: ptr::null(),
        };
        assert_eq!(
            oubli_store_open(path.as_ptr(), &opts, &mut store),
            OubliStatus::Ok
        );
        let mut second = ptr::null_mut();
        assert_eq!(
            oubli_store_open(path.as_ptr(), &opts, &mut second),
            OubliStatus::Conflict
        );
        opts.flags = 0;
        assert_eq!(
            oubli_store_open(path.as_ptr(), &opts, &mut second),
            OubliStatus::Locked
        );
        assert_eq!(oubli_store_close(store), OubliStatus::Ok);
        assert_eq!(oubli_store_close(store), OubliStatus::Ok);
        let q = c("anything");
        let mut hits = ptr::null_mut();
        assert_eq!(
            oubli_recall_text(store, q.as_ptr(), 5, &mut hits),
            OubliStatus::Closed
        );
        oubli_store_free(store);

        // Another embedder than the store's is refused; 0 reopens with the store's own.
        opts.hash_dim = 128;
        assert_eq!(
            oubli_store_open(path.as_ptr(), &opts, &mut store),
            OubliStatus::Integrity
        );
        assert!(last_error().contains("embedder"));
        opts.hash_dim = 0;
        opts.flags = OUBLI_OPEN_READ_ONLY;
        assert_eq!(
            oubli_store_open(path.as_ptr(), &opts, &mut store),
            OubliStatus::Ok
        );
        let t = c("x");
        let mut id = 0;
        assert_eq!(
            oubli_inscribe_text(store, t.as_ptr(), ptr::null(), ptr::null(), &mut id),
            OubliStatus::ReadOnly
        );
        oubli_store_free(store);
    }
}

#[test]
fn one_handle_many_threads() {
    let f = Fixture::new();
    struct Shared(*mut OubliStore);
    // SAFETY: OubliStore is documented as usable from many threads at once.
    unsafe impl Sync for Shared {}
    let shared = Shared(f.store);
    std::thread::scope(|s| {
        for t in 0..4 {
            let shared = &shared;
            s.spawn(move || {
                for i in 0..10 {
                    let text = c(&format!("thread {t} memory {i}"));
                    let mut id = 0;
                    // SAFETY: the handle outlives the scope.
                    let st = unsafe {
                        oubli_inscribe_text(
                            shared.0,
                            text.as_ptr(),
                            ptr::null(),
                            ptr::null(),
                            &mut id,
                        )
                    };
                    assert_eq!(st, OubliStatus::Ok);
                    let q = c("memory");
                    let mut hits = ptr::null_mut();
                    // SAFETY: as above; hits freed.
                    unsafe {
                        assert_eq!(
                            oubli_recall_text(shared.0, q.as_ptr(), 3, &mut hits),
                            OubliStatus::Ok
                        );
                        oubli_hits_free(hits);
                    }
                }
            });
        }
    });
    let mut events = 0;
    // SAFETY: valid arguments.
    unsafe {
        assert_eq!(
            oubli_store_verify_log(f.store, ptr::null(), &mut events),
            OubliStatus::Ok
        )
    };
    assert_eq!(events, 40);
    // SAFETY: static string.
    let v = unsafe { CStr::from_ptr(oubli_version()) }.to_str().unwrap();
    assert_eq!(v, oubli::ENGINE_VERSION);
}

/// An opening the caller never received (its delivery failed) is listed as pending and
/// returned by `oubli_take_opening` exactly once, and it checks against the stored receipt.
#[test]
fn a_pending_opening_is_taken_exactly_once() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.oubli");
    let purge_id = {
        // A hash-embedder store: the C open below (no options) reopens it with its own embedder.
        let opts = || {
            oubli::StoreOptions::default()
                .embedder(std::sync::Arc::new(oubli::HashEmbedder::default()))
        };
        let s = oubli::Store::create_with(&file, opts()).unwrap();
        s.inscribe(oubli::Inscription::new(
            "Maria Keller's phone is +49 30 5550 1188",
        ))
        .unwrap();
        s.inscribe(oubli::Inscription::new("The office plant needs water"))
            .unwrap();
        let failed = s.purge_delivering(oubli::Target::query("Maria Keller's phone"), |_| {
            Err(oubli::Error::InvalidArgument("delivery failed".into()))
        });
        assert!(failed.is_err());
        let pending = s.pending_openings().unwrap();
        assert_eq!(pending.len(), 1);
        s.close().unwrap();
        pending[0]
    };
    let path = c(file.to_str().unwrap());
    let mut store = ptr::null_mut();
    // SAFETY: valid arguments; every returned string and handle is freed.
    unsafe {
        assert_eq!(
            oubli_store_open(path.as_ptr(), ptr::null(), &mut store),
            OubliStatus::Ok
        );
        let mut json = ptr::null_mut();
        assert_eq!(
            oubli_pending_openings_json(store, &mut json),
            OubliStatus::Ok
        );
        assert_eq!(text(json).unwrap(), format!("[{purge_id}]"));
        oubli_string_free(json);

        let mut opening = ptr::null_mut();
        assert_eq!(
            oubli_take_opening(store, purge_id, &mut opening),
            OubliStatus::Ok
        );
        let opening_doc = CStr::from_ptr(opening).to_bytes().to_vec();
        let mut second = ptr::null_mut();
        assert_eq!(
            oubli_take_opening(store, purge_id, &mut second),
            OubliStatus::InvalidArgument
        );
        assert!(second.is_null());
        assert!(last_error().contains("pending"), "{}", last_error());
        let mut json = ptr::null_mut();
        assert_eq!(
            oubli_pending_openings_json(store, &mut json),
            OubliStatus::Ok
        );
        assert_eq!(text(json).unwrap(), "[]");
        oubli_string_free(json);
        assert_eq!(
            oubli_take_opening(store, purge_id, ptr::null_mut()),
            OubliStatus::NullPointer
        );
        assert_eq!(oubli_store_close(store), OubliStatus::Ok);
        oubli_store_free(store);

        // The opening checks against the receipt the store holds.
        let s = oubli::Store::open_with(
            &file,
            oubli::StoreOptions::default()
                .embedder(std::sync::Arc::new(oubli::HashEmbedder::default())),
        )
        .unwrap();
        let receipt = s
            .receipts()
            .unwrap()
            .into_iter()
            .find(|(id, _)| *id == purge_id)
            .unwrap()
            .1
            .to_document()
            .unwrap();
        assert_eq!(
            oubli_receipt_check_opening(
                receipt.as_ptr().cast(),
                receipt.len(),
                opening.cast_const(),
                opening_doc.len()
            ),
            OubliStatus::Ok
        );
        oubli_string_free(opening);
    }
}

#[test]
fn forget_user_erases_one_users_namespaces() {
    let f = Fixture::new();
    let mut ids = Vec::new();
    for (t, ns) in [
        ("Ana's door code is 4417", "user:ana"),
        ("Ana likes green tea", "user:ana:notes"),
        ("Ben's door code is 8812", "user:ben"),
    ] {
        let (t, ns) = (c(t), c(ns));
        let mut id = 0;
        // SAFETY: valid arguments.
        let s =
            unsafe { oubli_inscribe_text(f.store, t.as_ptr(), ns.as_ptr(), ptr::null(), &mut id) };
        assert_eq!(s, OubliStatus::Ok, "{}", last_error());
        ids.push(id);
    }
    let ana = c("ana");
    let mut report = ptr::null_mut();
    // SAFETY: valid arguments; the report is freed below.
    unsafe {
        assert_eq!(
            oubli_forget_user(f.store, ana.as_ptr(), &mut report),
            OubliStatus::Ok
        );
        assert_eq!(oubli_purge_report_erased_len(report), 2);
        assert_eq!(oubli_purge_report_erased(report, 0), ids[0]);
        assert_eq!(oubli_purge_report_erased(report, 1), ids[1]);
        let mut rlen = 0;
        let receipt = oubli_purge_report_receipt(report, &mut rlen);
        let mut purge_id = 0;
        assert_eq!(
            oubli_receipt_verify(receipt, rlen, ptr::null(), &mut purge_id),
            OubliStatus::Ok
        );
        oubli_purge_report_free(report);
        let mut again = ptr::null_mut();
        assert_eq!(
            oubli_forget_user(f.store, ana.as_ptr(), &mut again),
            OubliStatus::NoMatch
        );
        assert!(again.is_null());
        assert_eq!(
            oubli_forget_user(f.store, ptr::null(), &mut again),
            OubliStatus::NullPointer
        );
    }
    assert_eq!(f.recall("door code"), vec!["Ben's door code is 8812"]);
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

#[test]
fn memory_path_opens_a_store_that_never_touches_disk() {
    let dir = tempfile::tempdir().unwrap();
    let cwd = std::env::current_dir().unwrap();
    let memory = c(":memory:");
    let opts = OubliOpenOptions {
        flags: OUBLI_OPEN_CREATE,
        hash_dim: 0,
        seed: ptr::null(),
        signing_key: ptr::null(),
    };
    let (mut a, mut b) = (ptr::null_mut(), ptr::null_mut());
    // SAFETY: valid arguments; the handles are freed.
    unsafe {
        assert_eq!(
            oubli_store_open(memory.as_ptr(), ptr::null(), &mut a),
            OubliStatus::InvalidArgument
        );
        assert!(last_error().contains("OUBLI_OPEN_CREATE"));
        assert_eq!(
            oubli_store_open(memory.as_ptr(), &opts, &mut a),
            OubliStatus::Ok
        );
        assert_eq!(
            oubli_store_open(memory.as_ptr(), &opts, &mut b),
            OubliStatus::Ok
        );
        let t = c("Ana's door code is 4417");
        let mut id = 0;
        assert_eq!(
            oubli_inscribe_text(a, t.as_ptr(), ptr::null(), ptr::null(), &mut id),
            OubliStatus::Ok
        );
        let q = c("door code");
        for (store, want) in [(a, 1), (b, 0)] {
            let mut hits = ptr::null_mut();
            assert_eq!(
                oubli_recall_text(store, q.as_ptr(), 5, &mut hits),
                OubliStatus::Ok
            );
            assert_eq!(oubli_hits_len(hits), want, "each :memory: store is its own");
            oubli_hits_free(hits);
        }
        oubli_store_free(a);
        oubli_store_free(b);
    }
    // Nothing was written where the process stands, nor in the temp dir.
    assert!(!cwd.join(":memory:").exists());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}
