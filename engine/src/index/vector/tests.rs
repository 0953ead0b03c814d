//! Tests of the vector index: exact distances whatever the kernel, snapshots, graphs built on
//! several threads.

use super::*;

fn unit(seed: u64, dim: usize) -> Vec<f32> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut v: Vec<f32> = (0..dim)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % 2000) as f32 / 1000.0 - 1.0
        })
        .collect();
    let n = v.iter().map(|a| a * a).sum::<f32>().sqrt();
    v.iter_mut().for_each(|a| *a /= n);
    v
}

proptest::proptest! {
    /// Any bytes under `snapshot_segments` decode to a list of ascending segments ending at
    /// `snapshot_max_row`, or to an error: never a panic, never a list the layout forbids; a
    /// well-formed list decodes to itself.
    #[test]
    fn the_segment_list_decodes_or_is_refused(
        rows in proptest::collection::vec(proptest::prelude::any::<u64>(), 0..5),
        lens in proptest::collection::vec(proptest::prelude::any::<u64>(), 5),
        extra in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..3),
        other_max in proptest::prelude::any::<Option<u64>>(),
    ) {
        use redb::ReadableDatabase as _;
        let mut rows = rows;
        rows.sort_unstable();
        rows.dedup();
        let list: Vec<(RowId, u64)> = rows.iter().copied().zip(lens.iter().copied()).collect();
        let mut bytes: Vec<u8> = list
            .iter()
            .flat_map(|(r, l)| r.to_le_bytes().into_iter().chain(l.to_le_bytes()))
            .collect();
        bytes.extend(&extra);
        let max_row = other_max.or(rows.last().copied()).unwrap_or(0);
        let db = redb::Database::builder()
            .create_with_backend(redb::backends::InMemoryBackend::new())
            .unwrap();
        let tx = db.begin_write().unwrap();
        {
            let mut m = tx.open_table(META).unwrap();
            m.insert(meta::SNAPSHOT_MAX_ROW, max_row.to_le_bytes().as_slice()).unwrap();
            m.insert(meta::SNAPSHOT_SEGMENTS, bytes.as_slice()).unwrap();
        }
        tx.commit().unwrap();
        let tx = db.begin_read().unwrap();
        let m = tx.open_table(META).unwrap();
        let read = super::super::vector_segment::read_segment_list(&m);
        if let Ok(got) = &read {
            proptest::prop_assert_eq!(got.len() * 16, bytes.len());
            proptest::prop_assert!(got.windows(2).all(|w| w[0].0 < w[1].0));
            proptest::prop_assert_eq!(got.last().map(|x| x.0), Some(max_row));
        }
        if extra.is_empty() && !list.is_empty() && rows.last() == Some(&max_row) {
            proptest::prop_assert_eq!(read.ok(), Some(list));
        }
    }

    /// Selecting the best before sorting them keeps exactly what sorting all and truncating
    /// keeps, in the same order (ties on score included).
    #[test]
    fn best_first_is_sort_then_truncate(
        scored in proptest::collection::vec((0u64..50, 0u8..8), 0..120),
        limit in 0usize..60,
    ) {
        // Few distinct scores, so ties are common; row ids are distinct as in a search.
        let mut seen = std::collections::BTreeSet::new();
        let scored: Vec<(RowId, f32)> = scored
            .into_iter()
            .filter(|(id, _)| seen.insert(*id))
            .map(|(id, s)| (id, f32::from(s) / 4.0 - 1.0))
            .collect();
        let mut want = scored.clone();
        want.sort_by(|a, b| b.1.total_cmp(&a.1).then(b.0.cmp(&a.0)));
        want.truncate(limit);
        let mut got = scored;
        best_first(&mut got, limit);
        proptest::prop_assert_eq!(got, want);
    }
}

proptest::proptest! {
    /// Zeroing ranges chunk by chunk, reading only the chunks they touch, leaves the chunks
    /// exactly as zeroing the whole blob and cutting it into chunks does, ranges across a
    /// boundary and repeated ranges included; a range past the stored bytes is a typed error.
    #[test]
    fn zeroing_in_chunks_is_zeroing_the_whole_blob(
        len in 1usize..600,
        chunk in 1usize..90,
        ranges in proptest::collection::vec((0usize..600, 0usize..40), 0..8),
    ) {
        let blob: Vec<u8> = (0..len).map(|i| (i % 251) as u8 + 1).collect();
        let ranges: Vec<std::ops::Range<usize>> =
            ranges.into_iter().map(|(a, n)| a..a + n).collect();
        let stored: Vec<Vec<u8>> = blob.chunks(chunk).map(<[u8]>::to_vec).collect();
        let mut reads = Vec::new();
        let got = zero_in_chunks(&ranges, chunk, |c| {
            reads.push(c);
            stored.get(c as usize).cloned().ok_or_else(|| Error::Corrupt("missing".into()))
        });
        if ranges.iter().any(|r| r.end > len && !r.is_empty()) {
            proptest::prop_assert!(got.is_err());
        } else {
            let got = got.unwrap();
            let mut want = blob.clone();
            for r in ranges.iter().filter(|r| !r.is_empty()) {
                want[r.clone()].fill(0);
            }
            // Every chunk read once, each one a range touches, and only those changed.
            let mut distinct = reads.clone();
            distinct.dedup();
            proptest::prop_assert_eq!(&distinct, &reads);
            for (i, c) in want.chunks(chunk).enumerate() {
                match got.get(&(i as u64)) {
                    Some(bytes) => proptest::prop_assert_eq!(bytes.as_slice(), c),
                    None => proptest::prop_assert_eq!(&stored[i][..], c),
                }
            }
        }
    }
}

/// A graph of `n` vectors with keys `step`, `2 * step`, ..., and its serialized form.
fn graph(dim: usize, n: u64, step: u64) -> (Index, Vec<u8>) {
    let index = new_usearch(dim).unwrap();
    index.reserve(n as usize).unwrap();
    for i in 1..=n {
        index.add(i * step, &unit(i, dim)).unwrap();
    }
    let mut blob = vec![0u8; index.serialized_length()];
    index.save_to_buffer(&mut blob).unwrap();
    (index, blob)
}

/// The slots kept beside a snapshot give the ranges a full parse finds, for any keys asked
/// (absent and repeated ones included).
#[test]
fn vector_slots_give_the_ranges_of_the_full_parse() {
    let dim = 24;
    let (index, blob) = graph(dim, 300, 3);
    let slots = vector_slots(&blob, dim).unwrap();
    let keys = [3, 900, 450, 451, 3, 12, 600];
    let mut want = removed_vector_ranges(&blob, dim, &keys).unwrap();
    want.sort_by_key(|r| r.start);
    let mut got = slots.ranges(&keys);
    got.sort_by_key(|r| r.start);
    assert_eq!(got, want);
    assert_eq!(
        got.len(),
        5,
        "keys 3, 900, 450, 12 and 600, 3 once: {got:?}"
    );
    for (r, key) in slots.ranges(&[450]).iter().zip([450u64]) {
        let mut v = vec![0i8; dim];
        index.get(key, &mut v).unwrap();
        let bytes: Vec<i8> = blob[r.clone()].iter().map(|b| *b as i8).collect();
        assert_eq!(bytes, v);
    }
    assert!(vector_slots(&blob, dim + 1).is_none());
}

#[test]
fn removed_vector_ranges_find_each_slot_and_reject_other_layouts() {
    let dim = 32;
    let (index, mut blob) = graph(dim, 200, 7);
    let ranges = removed_vector_ranges(&blob, dim, &[7 * 5, 7 * 150]).unwrap();
    assert_eq!(ranges.len(), 2);
    // Each range holds exactly the i8 vector usearch stores for the key.
    for (r, key) in ranges.iter().zip([7 * 5u64, 7 * 150]) {
        let mut got = vec![0i8; dim];
        index.get(key, &mut got).unwrap();
        let bytes: Vec<i8> = blob[r.clone()].iter().map(|b| *b as i8).collect();
        assert_eq!(bytes, got);
    }
    // Zeroed, the snapshot still loads, and the other vectors are intact.
    for r in &ranges {
        blob[r.clone()].fill(0);
    }
    let restored = Index::restore_from_buffer(&blob).unwrap();
    assert_eq!(restored.search(&unit(77, dim), 1).unwrap().keys[0], 77 * 7);
    // Another dimension, or a truncated or extended blob, is not this layout.
    assert!(removed_vector_ranges(&blob, dim + 1, &[7]).is_none());
    assert!(removed_vector_ranges(&blob[..blob.len() - 1], dim, &[7]).is_none());
    let mut longer = blob.clone();
    longer.push(0);
    assert!(removed_vector_ranges(&longer, dim, &[7]).is_none());
}

/// What every usearch kernel must return for an i8 pair under the inner product metric:
/// `1 - a·b` over the raw i8 values, the dot product exact in integers.
fn exact_i8_distance(a: &[i8], b: &[i8]) -> f32 {
    let dot: i32 = a
        .iter()
        .zip(b)
        .map(|(x, y)| i32::from(*x) * i32::from(*y))
        .sum();
    1.0 - dot as f32
}

#[test]
fn every_distance_is_the_exact_integer_inner_product_whatever_the_kernel() {
    // The graph a build makes depends on the vectors, their order and the distances alone;
    // with every distance exact, usearch's generic loop and its SIMD kernels (feature
    // `simd`, picked at run time for the CPU) make the same graph, byte for byte. Checked
    // on every pair, in dimensions that fill whole SIMD registers and one that leaves a tail,
    // with the extreme vectors (all +127, all -127) among them.
    for dim in [256usize, 384, 100] {
        let index = new_usearch(dim).unwrap();
        let kernel = index.hardware_acceleration();
        if !cfg!(feature = "simd") {
            assert_eq!(kernel, "serial");
        }
        #[cfg(all(feature = "simd", target_arch = "x86_64"))]
        if std::arch::is_x86_feature_detected!("avx2") {
            assert_ne!(kernel, "serial", "the simd feature did not reach usearch");
        }
        let n = 150;
        index.reserve(n).unwrap();
        let mut x = 0x9E37_79B9_7F4A_7C15u64 ^ dim as u64;
        let vectors: Vec<Vec<i8>> = (0..n)
            .map(|i| match i {
                0 => vec![127; dim],
                1 => vec![-127; dim],
                _ => (0..dim)
                    .map(|_| {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        ((x % 255) as i16 - 127) as i8
                    })
                    .collect(),
            })
            .collect();
        for (key, v) in vectors.iter().enumerate() {
            index.add(key as u64, v).unwrap();
        }
        for q in &vectors[..25] {
            let m = index.exact_search(q, n).unwrap();
            assert_eq!(m.keys.len(), n);
            for (key, d) in m.keys.iter().zip(&m.distances) {
                let want = exact_i8_distance(q, &vectors[*key as usize]);
                assert_eq!(
                    d.to_bits(),
                    want.to_bits(),
                    "{kernel}, dim {dim}, key {key}"
                );
            }
        }
    }
}

#[test]
fn usearch_round_trip_finds_exact_vectors() {
    let dim = 32;
    let index = new_usearch(dim).unwrap();
    index.reserve(300).unwrap();
    for i in 1..=300u64 {
        index.add(i, &unit(i, dim)).unwrap();
    }
    let mut blob = vec![0u8; index.serialized_length()];
    index.save_to_buffer(&mut blob).unwrap();
    let restored = Index::restore_from_buffer(&blob).unwrap();
    for idx in [&index, &restored] {
        // i8 quantization: the exact vector is still the nearest.
        let m = idx.search(&unit(201, dim), 5).unwrap();
        assert_eq!(m.keys[0], 201, "{:?} {:?}", m.keys, m.distances);
    }
}

/// The store's graph over `vectors`, built on `threads` threads as the background build does.
fn build_on(vectors: &[(RowId, Vec<f32>)], threads: usize) -> Built {
    let dim = vectors[0].1.len();
    run_build(
        || new_usearch(dim),
        None,
        0,
        vectors.to_vec(),
        vectors.len(),
        threads,
    )
    .unwrap()
}

/// Recall@10 of the graph's search against usearch's exact scan of the same i8 vectors (the
/// graph's own error, quantization aside), over `queries`.
fn graph_recall(index: &Index, queries: &[Vec<f32>]) -> f64 {
    let mut found = 0;
    for q in queries {
        let want = index.exact_search(q, 10).unwrap().keys;
        let got = index.search(q, 10).unwrap().keys;
        found += got.iter().filter(|k| want.contains(k)).count();
    }
    found as f64 / (10 * queries.len()) as f64
}

#[test]
fn a_graph_built_on_several_threads_holds_the_same_rows_and_bytes_and_finds_the_neighbours() {
    let dim = 48;
    // Clusters of near-duplicates (the hard case for HNSW): 100 centres, 20 noisy copies of
    // each, row ids with gaps as a store's are after purges.
    let noisy = |centre: u64, seed: u64, noise: f32| -> Vec<f32> {
        let (c, n) = (unit(centre, dim), unit(seed, dim));
        let mut v: Vec<f32> = c.iter().zip(&n).map(|(a, b)| a + noise * b).collect();
        let len = v.iter().map(|a| a * a).sum::<f32>().sqrt();
        v.iter_mut().for_each(|a| *a /= len);
        v
    };
    let vectors: Vec<(RowId, Vec<f32>)> = (0..2_000u64)
        .map(|i| (i * 3 + 1, noisy(i % 100 + 1, i + 10_000, 0.4)))
        .collect();
    let one = build_on(&vectors, 1);
    assert_eq!(
        one.blob,
        build_on(&vectors, 1).blob,
        "one thread, same bytes"
    );
    let several = build_on(&vectors, 4);
    assert_eq!(several.max_row, one.max_row);
    assert_eq!(several.index.size(), vectors.len());
    // Every row is in the graph with the bytes a one-thread build stores for it, and the
    // erasure path's parse finds it in the serialized form, wherever its slot is.
    let (mut a, mut b) = (vec![0i8; dim], vec![0i8; dim]);
    for (n, &(key, _)) in vectors.iter().enumerate() {
        assert_eq!(one.index.get(key, &mut a).unwrap(), 1);
        assert_eq!(several.index.get(key, &mut b).unwrap(), 1);
        assert_eq!(a, b, "row {key}");
        if n % 50 == 0 {
            let r1 = removed_vector_ranges(&one.blob, dim, &[key]).unwrap();
            let r4 = removed_vector_ranges(&several.blob, dim, &[key]).unwrap();
            assert_eq!(one.blob[r1[0].clone()], several.blob[r4[0].clone()]);
        }
    }
    // Both graphs find the true neighbours of queries near the clusters.
    let queries: Vec<Vec<f32>> = (0..200u64)
        .map(|q| noisy(q % 100 + 1, q + 90_000, 0.3))
        .collect();
    let (r1, r4) = (
        graph_recall(&one.index, &queries),
        graph_recall(&several.index, &queries),
    );
    assert!(
        r1 >= 0.95 && r4 >= 0.95,
        "recall@10: {r1} (1 thread), {r4} (4)"
    );
}

/// A graph's first [`super::super::vector_build::SEED_ROWS`] vectors are linked with the wider
/// search (the graph is the bytes usearch makes at that breadth), and the graph is left at the
/// ordinary breadth for the vectors added after them.
#[test]
fn the_first_vectors_of_a_graph_are_linked_with_the_wider_search() {
    use super::super::vector_build::{SEED_EXPANSION_ADD, SEED_ROWS};
    let dim = 32;
    let vectors: Vec<(RowId, Vec<f32>)> = (1..=600u64).map(|i| (i * 2, unit(i, dim))).collect();
    assert!(vectors.len() < SEED_ROWS);
    let built = build_on(&vectors, 1);
    assert_eq!(built.index.expansion_add(), EXPANSION_ADD);
    let wide = new_usearch(dim).unwrap();
    wide.change_expansion_add(SEED_EXPANSION_ADD);
    wide.reserve(vectors.len()).unwrap();
    for (id, v) in &vectors {
        wide.add(*id, v).unwrap();
    }
    assert_eq!(built.blob, serialize(&wide).unwrap());
    // At the ordinary breadth the same vectors make another graph (what the seed changes).
    let narrow = new_usearch(dim).unwrap();
    narrow.reserve(vectors.len()).unwrap();
    for (id, v) in &vectors {
        narrow.add(*id, v).unwrap();
    }
    assert_ne!(built.blob, serialize(&narrow).unwrap());
}

/// A table of snapshot chunks in memory: `sizes[i]` bytes for key `i`, byte `j` of the whole
/// blob being `j % 251`.
fn chunk_table(sizes: &[usize]) -> (redb::Database, Vec<u8>) {
    let db = redb::Database::builder()
        .create_with_backend(redb::backends::InMemoryBackend::new())
        .unwrap();
    let total: usize = sizes.iter().sum();
    let blob: Vec<u8> = (0..total).map(|j| (j % 251) as u8).collect();
    let tx = db.begin_write().unwrap();
    {
        let mut t = tx.open_table(VECTOR_SNAPSHOT).unwrap();
        let mut at = 0;
        for (i, n) in sizes.iter().enumerate() {
            t.insert(i as u64, &blob[at..at + n]).unwrap();
            at += n;
        }
    }
    tx.commit().unwrap();
    (db, blob)
}

#[test]
fn the_snapshot_blob_reads_the_same_in_halves_and_in_order() {
    use redb::ReadableDatabase as _;
    for sizes in [
        // The current layout, read in two halves: an odd and an even count of chunks.
        vec![CHUNK, CHUNK, 1000],
        vec![CHUNK, CHUNK, CHUNK, CHUNK],
        // One chunk, and chunks of another size (an older layout): read in order.
        vec![5000],
        vec![700_000, 700_000, 700_000, 12],
        // A short chunk in the middle is not the current layout either.
        vec![CHUNK, 10, CHUNK, 7],
    ] {
        let (db, blob) = chunk_table(&sizes);
        let tx = db.begin_read().unwrap();
        let t = tx.open_table(VECTOR_SNAPSHOT).unwrap();
        assert_eq!(
            read_blob(&t, 0, blob.len() as u64, CHUNK).unwrap(),
            blob,
            "{sizes:?}"
        );
        // A recorded length that does not match is an error, never a short or padded blob.
        assert!(
            read_blob(&t, 0, blob.len() as u64 - 1, CHUNK).is_err(),
            "{sizes:?}"
        );
        assert!(
            read_blob(&t, 0, blob.len() as u64 + 1, CHUNK).is_err(),
            "{sizes:?}"
        );
    }
    // A missing chunk: the keys do not run 0, 1, 2, ...
    let (db, blob) = chunk_table(&[CHUNK, CHUNK, CHUNK]);
    let tx = db.begin_write().unwrap();
    tx.open_table(VECTOR_SNAPSHOT).unwrap().remove(1).unwrap();
    tx.commit().unwrap();
    let tx = db.begin_read().unwrap();
    let t = tx.open_table(VECTOR_SNAPSHOT).unwrap();
    assert!(read_blob(&t, 0, blob.len() as u64, CHUNK).is_err());
    assert!(read_blob(&t, 0, 2 * CHUNK as u64, CHUNK).is_err());
}
