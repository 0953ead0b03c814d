//! Erasure through the C ABI: a purge's pending opening taken exactly once, and forgetting one
//! user's namespaces.

use super::*;

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
