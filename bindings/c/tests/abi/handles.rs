//! Store handles through the C ABI: open flags, a closed store, one handle shared by many
//! threads, and a store that never touches disk.

use super::*;

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
