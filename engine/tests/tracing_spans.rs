//! `tracing` spans: every public store operation opens one (level debug, named
//! `oubli::Store::<method>`), and no span carries a field, so no row text, query or key can
//! reach a log through them. Nothing is emitted unless the application installs a subscriber.

use std::sync::{Arc, Mutex};

use oubli::{Inscription, RecallQuery, Store, StoreOptions};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

/// A span's name and the names of its fields.
type SpanRecord = (String, Vec<String>);

/// Records the name and field names of every span opened while it is the default subscriber.
#[derive(Clone, Default)]
struct Recorder(Arc<Mutex<Vec<SpanRecord>>>);

impl Subscriber for Recorder {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, span: &Attributes<'_>) -> Id {
        let mut spans = self.0.lock().unwrap();
        let fields = span.fields().iter().map(|f| f.name().to_string()).collect();
        spans.push((span.metadata().name().to_string(), fields));
        Id::from_u64(spans.len() as u64)
    }
    fn record(&self, _: &Id, _: &Record<'_>) {}
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, _: &Event<'_>) {}
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}

#[test]
fn public_operations_open_spans_without_fields() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.oubli");
    let recorder = Recorder::default();
    tracing::subscriber::with_default(recorder.clone(), || {
        let s = Store::create_with(&path, StoreOptions::default().durable(false)).unwrap();
        s.inscribe(Inscription::new("Ana's door code is x5151w").key("door"))
            .unwrap();
        s.recall(&RecallQuery::new("door code")).unwrap();
        s.verify_log(None).unwrap();
        s.close().unwrap();
    });
    let spans = recorder.0.lock().unwrap().clone();
    let names: Vec<&str> = spans.iter().map(|(n, _)| n.as_str()).collect();
    for wanted in [
        "oubli::Store::create_with",
        "oubli::Store::inscribe",
        "oubli::Store::recall",
        "oubli::Store::verify_log",
        "oubli::Store::close",
    ] {
        assert!(names.contains(&wanted), "no span {wanted} in {names:?}");
    }
    for (name, fields) in spans.iter().filter(|(n, _)| n.starts_with("oubli::")) {
        assert!(fields.is_empty(), "span {name} records fields {fields:?}");
    }
}
