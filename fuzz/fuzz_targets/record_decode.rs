//! The record decoders of the store file: row records of format 2 (postcard) and format 1 (the
//! hand-written bincode reader used by migration), payload records, and `oubli-audit`'s own
//! row-record reader, and vector records. No panic and no huge allocation on any bytes; whatever the engine decodes
//! re-encodes to a record that decodes to the same value.
#![no_main]
use libfuzzer_sys::fuzz_target;
use oubli::Row;
use oubli::storage::{self, Payload, format1};
use oubli_audit::row_record::RowRecord;

fuzz_target!(|data: &[u8]| {
    if let Ok(row) = storage::decode::<Row>(data) {
        let again = storage::encode(&row).expect("a decoded row encodes");
        assert_eq!(storage::decode::<Row>(&again).expect("round trip"), row);
    }
    let _ = format1::decode::<Row>(data);
    if let Ok(p) = Payload::decode(data) {
        assert_eq!(Payload::decode(&p.encode()).expect("round trip"), p);
    }
    for format in 0..=5 {
        let _ = RowRecord::decode_format(data, format);
    }
    // Vector records (format 4: half precision; older: single), told apart by length.
    for dim in [1usize, 2, 3, 64] {
        if let Some(v) = oubli_audit::vector::decode(data, dim) {
            assert_eq!(v.len(), dim);
        }
    }
});
