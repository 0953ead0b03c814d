//! A read-only handle's private copy of a store file: the file read into memory without any
//! lock, opened by redb over that memory, and proven to be a committed state of the file (every
//! page reachable from a commit checked against its checksum) before anything reads it.
//!
//! Why the proof is a checksum walk, and not a comparison of the file's header before and after
//! the copy: the writer's commits are one-phase (pages and header reach the file in one flush,
//! in the write buffer's order, with no fsync between them), so the header of a commit can land
//! in the file before the last of its pages. A header unchanged across the copy therefore does
//! not prove the copy holds the pages it names; the checksums, which chain from the commit slot
//! (itself checksummed) through every branch page to every leaf, do.

use crate::error::{Error, Result};

/// How much a copy's committed state is checked before it is handed out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Check {
    /// Every page checksum of the committed state, once (what a read-only open needs).
    Checksums,
    /// redb's whole integrity check (`Database::check_integrity`: the checksums, then the
    /// allocator state rebuilt from the trees and compared with the recorded one), for the
    /// explicit integrity checks of [`super::check_file_integrity`] and
    /// [`super::check_image_integrity`].
    Full,
}

/// Opens a private in-memory copy of the file at `path`. The file is only read, without any
/// lock: this is how read-only handles read a store, so they never block a writer in another
/// process, need no write permission, and read a store that was not closed cleanly (the copy is
/// recovered in memory). Every committed page of the copy is checked against its checksum, so a
/// copy torn by a writer committing in another process meanwhile is detected; the copy is then
/// taken again (up to five times in all, with short pauses), as is a copy that holds no store
/// (a consistent redb state without the meta table).
pub fn open_in_memory(path: &std::path::Path) -> Result<redb::Database> {
    open_copy(path, Check::Checksums)
}

pub(super) fn open_copy(path: &std::path::Path, check: Check) -> Result<redb::Database> {
    let mut last = None;
    for attempt in 0..5u32 {
        if attempt > 0 {
            // A writer in another process may be committing or swapping in a scrubbed copy:
            // give it a moment before copying again (10, 20, 40, 80 ms).
            std::thread::sleep(std::time::Duration::from_millis(10 << (attempt - 1)));
        }
        match read_image(path).and_then(|bytes| open_checked_bytes(bytes, check)) {
            Ok(db) => return Ok(db),
            Err(e @ Error::Io(_)) => return Err(e),
            Err(e) => last = Some(e),
        }
    }
    Err(last.unwrap_or_else(|| Error::Corrupt("unreadable store file".into())))
}

/// Opens a private in-memory database over `bytes` (a whole store image), checking every page
/// checksum of its committed state (`check`) and that it holds a store.
pub(super) fn open_checked_bytes(bytes: Vec<u8>, check: Check) -> Result<redb::Database> {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    let run = move || -> Result<redb::Database> {
        let backend = redb::backends::InMemoryBackend::from_bytes(bytes);
        let repaired = Arc::new(AtomicBool::new(false));
        let seen = repaired.clone();
        let mut db = redb::Builder::new()
            .set_repair_callback(move |_| seen.store(true, Ordering::Relaxed))
            .create_with_backend(backend)
            .map_err(|e| Error::Corrupt(e.to_string()))?;
        // Which committed state the open settled on, and whether it has been verified:
        // - A file not closed cleanly (a live writer keeps its recovery flag set from its open
        //   to its close; or a crash) is repaired in the copy by the open: redb verifies the
        //   checksum of every page reachable from the primary commit slot, falls back to the
        //   secondary slot when the primary does not verify (a commit the copy tore), fails when
        //   neither does, then rebuilds the allocator state from the verified trees and commits
        //   the repair into the copy. The state is verified; `check_integrity` would reload the
        //   header the repair wrote and verify the same trees again, so it could only agree.
        // - Otherwise (a file closed cleanly, or any whose last commit recorded its allocator
        //   state) the open loads that recorded state, with nothing verified: one walk checks every page of the primary commit's trees (and of
        //   any persistent savepoint) against its checksum. When one fails, the full check
        //   runs, exactly as it always did: it falls back to the secondary commit or reports the
        //   file as corrupted, so a damaged page is reported where it was before.
        // The full check's second walk (the allocator state rebuilt from the trees and compared
        // with the recorded one) reports no error for a state whose pages all verify: it only
        // replaces a recorded allocator state that differs. A copy is only read (but for the
        // migration of an older format, which allocates from the recorded state, as a writable
        // open of the same file does).
        let verified = match check {
            Check::Full => false,
            Check::Checksums => {
                repaired.load(Ordering::Relaxed)
                    || db
                        .verify_committed_checksums()
                        .map_err(|e| Error::Corrupt(format!("page checksums: {e}")))?
            }
        };
        if !verified {
            db.check_integrity()
                .map_err(|e| Error::Corrupt(format!("page checksums: {e}")))?;
        }
        // A copy taken while another process was writing can be a consistent redb state that
        // is not yet (or no longer) a whole store; the caller copies again.
        {
            use redb::ReadableDatabase;
            let tx = db.begin_read()?;
            if tx.open_table(super::META).is_err() {
                return Err(Error::Corrupt("not an oubli store (no meta table)".into()));
            }
        }
        Ok(db)
    };
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)) {
        Ok(r) => r,
        Err(_) => Err(Error::Corrupt(
            "the storage engine rejected the file".into(),
        )),
    }
}

/// The bytes of the file at `path`, read into fresh memory. On Linux the buffer is advised to
/// transparent huge pages first: the copy's cost is mostly the page faults of touching fresh
/// memory (one per 4 KiB page otherwise), and a 12 MB store file read in about half the time
/// with 2 MiB pages (where the kernel allows them: `transparent_hugepage` set to `madvise` or
/// `always`; elsewhere the advice is ignored).
fn read_image(path: &std::path::Path) -> Result<Vec<u8>> {
    use std::io::Read;
    let mut file = std::fs::File::open(path)?;
    let len = usize::try_from(file.metadata()?.len())
        .map_err(|_| Error::Storage("store file too large for memory".into()))?;
    // The file can grow while it is read (a writer in another process): `read_to_end` reads to
    // its end whatever the length was, growing the buffer past this capacity if needed.
    let mut bytes = Vec::with_capacity(len);
    #[cfg(target_os = "linux")]
    advise_huge_pages(bytes.spare_capacity_mut());
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Advises the kernel to back the 2 MiB-aligned part of `buf` with transparent huge pages,
/// before anything touches it. Advice only: a failure changes nothing but the speed.
#[cfg(target_os = "linux")]
fn advise_huge_pages(buf: &mut [std::mem::MaybeUninit<u8>]) {
    const HUGE: usize = 2 << 20;
    let start = buf.as_mut_ptr() as usize;
    let from = start.next_multiple_of(HUGE);
    let to = (start + buf.len()) / HUGE * HUGE;
    if to > from {
        // SAFETY: [from, to) lies within `buf`, memory this process owns and nothing else
        // references; madvise(MADV_HUGEPAGE) changes only how the kernel backs those pages, not
        // their contents or their mapping.
        unsafe {
            libc::madvise(from as *mut libc::c_void, to - from, libc::MADV_HUGEPAGE);
        }
    }
}
