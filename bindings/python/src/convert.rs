//! Argument conversion: strict types, UTF-8 checked strings, targets, times, typed metadata
//! and filters.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

use oubli::{
    AsOf, Condition, Filter, Inscription, Kind, Legs, MetaValue, Metadata, Millis, Op, RowId,
    Scalar, Target,
};

use crate::errors::{invalid, invalid_utf8};
use crate::types::PyTarget;

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into())
}

/// A Python `str` that encodes to UTF-8. Anything else is a `TypeError`; a string with a lone
/// surrogate is an `InvalidInputError` (code `invalid_utf8`).
pub struct Utf8(pub String);

impl<'a, 'py> FromPyObject<'a, 'py> for Utf8 {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        text(&obj, "string").map(Utf8)
    }
}

/// Reads a `str` argument named `what`.
pub fn text(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<String> {
    let s = obj
        .cast::<PyString>()
        .map_err(|_| PyTypeError::new_err(format!("{what} must be str, not {}", type_name(obj))))?;
    match s.to_str() {
        Ok(s) => Ok(s.to_owned()),
        Err(e) => Err(invalid_utf8(obj.py(), what, e)),
    }
}

/// Reads an optional `str` argument.
pub fn opt_text(obj: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Option<String>> {
    match obj {
        None => Ok(None),
        Some(o) if o.is_none() => Ok(None),
        Some(o) => text(o, what).map(Some),
    }
}

/// The string form of a tuple namespace (`("user", "ana")` is `"user:ana"`, the MCP server's
/// `user_id` namespace): [`oubli::namespace::join`], with its error as text.
pub fn join_namespace(labels: &[String]) -> Result<String, String> {
    oubli::namespace::join(labels).map_err(|e| match e {
        oubli::Error::InvalidArgument(m) => m,
        other => other.to_string(),
    })
}

/// The labels of a namespace's string form: [`oubli::namespace::split`].
pub fn split_namespace(s: &str) -> Vec<String> {
    oubli::namespace::split(s)
}

/// Reads a namespace: a `str` as is, or a tuple (or list) of `str` labels in the string form of
/// [`join_namespace`].
pub fn namespace(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    if obj.is_instance_of::<PyTuple>() || obj.is_instance_of::<PyList>() {
        let mut labels = Vec::new();
        for item in obj.try_iter()? {
            labels.push(text(&item?, "namespace label")?);
        }
        return join_namespace(&labels).map_err(invalid);
    }
    if !obj.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(format!(
            "namespace must be str or a tuple of str, not {}",
            type_name(obj)
        )));
    }
    text(obj, "namespace")
}

/// Reads an optional namespace (`None` when absent).
pub fn opt_namespace(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<String>> {
    match obj {
        None => Ok(None),
        Some(o) if o.is_none() => Ok(None),
        Some(o) => namespace(o).map(Some),
    }
}

/// A namespace argument: `str` or tuple of `str` (see [`namespace`]).
pub struct Ns(pub String);

impl<'a, 'py> FromPyObject<'a, 'py> for Ns {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        namespace(&obj).map(Ns)
    }
}

/// Reads one metadata scalar: `str`, `bool` (checked first: a bool is never an int), `int`
/// (within i64) or `float` (finite).
pub fn meta_scalar(v: &Bound<'_, PyAny>, what: &str) -> PyResult<Scalar> {
    if v.is_instance_of::<PyString>() {
        return text(v, what).map(Scalar::Str);
    }
    if let Ok(b) = v.cast::<PyBool>() {
        return Ok(Scalar::Bool(b.is_true()));
    }
    if v.is_instance_of::<PyInt>() {
        return v
            .extract::<i64>()
            .map(Scalar::Int)
            .map_err(|_| invalid(format!("{what} is outside the 64-bit integer range")));
    }
    if v.is_instance_of::<PyFloat>() {
        let f: f64 = v.extract()?;
        if !f.is_finite() {
            return Err(invalid(format!("{what} must be a finite number, not {f}")));
        }
        return Ok(Scalar::Float(f));
    }
    Err(PyTypeError::new_err(format!(
        "{what} must be str, int, float or bool, not {}",
        type_name(v)
    )))
}

/// Reads one metadata value: a scalar ([`meta_scalar`]) or a `list` / `tuple` of scalars.
pub fn meta_value(v: &Bound<'_, PyAny>, what: &str) -> PyResult<MetaValue> {
    if v.is_instance_of::<PyList>() || v.is_instance_of::<PyTuple>() {
        let items = v
            .try_iter()?
            .map(|i| meta_scalar(&i?, &format!("{what} item")))
            .collect::<PyResult<Vec<_>>>()?;
        return Ok(MetaValue::List(items));
    }
    Ok(meta_scalar(v, what)?.into())
}

/// A metadata value as the Python object it was written from (`str`, `int`, `float`,
/// `bool`, `list`).
pub fn meta_to_py<'py>(py: Python<'py>, v: &MetaValue) -> PyResult<Bound<'py, PyAny>> {
    fn scalar<'py>(py: Python<'py>, s: &Scalar) -> PyResult<Bound<'py, PyAny>> {
        Ok(match s {
            Scalar::Str(s) => PyString::new(py, s).into_any(),
            Scalar::Int(i) => i.into_pyobject(py)?.into_any(),
            Scalar::Float(f) => PyFloat::new(py, *f).into_any(),
            Scalar::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        })
    }
    Ok(match v {
        MetaValue::List(items) => PyList::new(
            py,
            items
                .iter()
                .map(|i| scalar(py, i))
                .collect::<PyResult<Vec<_>>>()?,
        )?
        .into_any(),
        MetaValue::Str(s) => scalar(py, &Scalar::Str(s.clone()))?,
        MetaValue::Int(i) => scalar(py, &Scalar::Int(*i))?,
        MetaValue::Float(f) => scalar(py, &Scalar::Float(*f))?,
        MetaValue::Bool(b) => scalar(py, &Scalar::Bool(*b))?,
    })
}

/// Metadata as a fresh `dict`.
pub fn metadata_to_py<'py>(py: Python<'py>, m: &Metadata) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (k, v) in m {
        d.set_item(k, meta_to_py(py, v)?)?;
    }
    Ok(d)
}

fn as_dict<'a, 'py>(obj: &'a Bound<'py, PyAny>, what: &str) -> PyResult<&'a Bound<'py, PyDict>> {
    obj.cast::<PyDict>()
        .map_err(|_| PyTypeError::new_err(format!("{what} must be a dict, not {}", type_name(obj))))
}

/// Reads `metadata=`: a `dict[str, str | int | float | bool | list]`.
pub fn metadata(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Metadata> {
    let mut out = Metadata::new();
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(out);
    };
    for (k, v) in as_dict(obj, "metadata")?.iter() {
        let k = text(&k, "metadata key")?;
        let v = meta_value(&v, &format!("metadata value for {k:?}"))?;
        out.insert(k, v);
    }
    Ok(out)
}

/// Reads `filters=`: a dict of field to a scalar (equality) or a dict of operators
/// (`$eq`, `$ne`, `$gt`, `$gte`, `$lt`, `$lte`, `$in`, `$exists`); every entry must hold.
pub fn filter(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Filter> {
    let mut f = Filter::new();
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(f);
    };
    for (k, spec) in as_dict(obj, "filters")?.iter() {
        let field = text(&k, "filter field")?;
        let what = format!("filter on {field:?}");
        let Ok(ops) = spec.cast::<PyDict>() else {
            if spec.is_instance_of::<PyList>() || spec.is_instance_of::<PyTuple>() {
                return Err(PyTypeError::new_err(format!(
                    "{what}: a list is not a value to compare with; use {{\"$in\": [...]}}"
                )));
            }
            let x = meta_scalar(&spec, &what)?;
            f.conditions.push(Condition::new(field, Op::Eq(x)));
            continue;
        };
        if ops.is_empty() {
            return Err(invalid(format!("{what}: no operator")));
        }
        for (op, x) in ops.iter() {
            let op = text(&op, &format!("{what}: operator"))?;
            let op = match op.as_str() {
                "$eq" => Op::Eq(meta_scalar(&x, &what)?),
                "$ne" => Op::Ne(meta_scalar(&x, &what)?),
                "$gt" => Op::Gt(meta_scalar(&x, &what)?),
                "$gte" => Op::Gte(meta_scalar(&x, &what)?),
                "$lt" => Op::Lt(meta_scalar(&x, &what)?),
                "$lte" => Op::Lte(meta_scalar(&x, &what)?),
                "$in" => {
                    if x.is_instance_of::<PyString>() || x.is_instance_of::<PyDict>() {
                        return Err(PyTypeError::new_err(format!(
                            "{what}: $in needs a list, tuple or set of values"
                        )));
                    }
                    let items = x
                        .try_iter()
                        .map_err(|_| {
                            PyTypeError::new_err(format!(
                                "{what}: $in needs a list, tuple or set of values"
                            ))
                        })?
                        .map(|i| meta_scalar(&i?, &what))
                        .collect::<PyResult<Vec<_>>>()?;
                    Op::In(items)
                }
                "$exists" => match x.cast::<PyBool>() {
                    Ok(b) if b.is_true() => Op::Exists,
                    Ok(_) => Op::Missing,
                    Err(_) => {
                        return Err(PyTypeError::new_err(format!(
                            "{what}: $exists needs True or False"
                        )));
                    }
                },
                other => {
                    return Err(invalid(format!(
                        "{what}: unknown operator {other:?} (expected $eq, $ne, $in, $gt, \
                         $gte, $lt, $lte or $exists)"
                    )));
                }
            };
            f.conditions.push(Condition::new(field.clone(), op));
        }
    }
    f.validate().map_err(crate::errors::to_py)?;
    Ok(f)
}

/// Reads a non-negative integer (not a bool).
pub fn uint(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<u64> {
    if obj.is_instance_of::<PyBool>() || !obj.is_instance_of::<PyInt>() {
        return Err(PyTypeError::new_err(format!(
            "{what} must be int, not {}",
            type_name(obj)
        )));
    }
    obj.extract::<u64>()
        .map_err(|_| invalid(format!("{what} must be a non-negative integer below 2**64")))
}

/// Reads a time: `int` milliseconds since the Unix epoch, or a `datetime.datetime`.
pub fn millis(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Millis> {
    let py = obj.py();
    if obj.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(format!(
            "{what} must be int or datetime, not bool"
        )));
    }
    if obj.is_instance_of::<PyInt>() {
        return obj
            .extract::<i64>()
            .map_err(|_| invalid(format!("{what} is out of range")));
    }
    let datetime = py.import("datetime")?.getattr("datetime")?;
    if obj.is_instance(&datetime)? {
        let secs: f64 = obj.call_method0("timestamp")?.extract()?;
        return Ok((secs * 1000.0).round() as Millis);
    }
    Err(PyTypeError::new_err(format!(
        "{what} must be int (ms since the epoch) or datetime, not {}",
        type_name(obj)
    )))
}

/// Reads `valid_until=`: a `datetime` (aware; a naive one is local time, as
/// `datetime.timestamp` reads it), a `timedelta` from now (a time to live), or an `int` of
/// milliseconds since the Unix epoch. Never a log sequence number: that is `as_of`.
pub fn valid_until(obj: &Bound<'_, PyAny>) -> PyResult<Millis> {
    let timedelta = obj.py().import("datetime")?.getattr("timedelta")?;
    if obj.is_instance(&timedelta)? {
        let secs: f64 = obj.call_method0("total_seconds")?.extract()?;
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as Millis);
        return Ok(now.saturating_add((secs * 1000.0).round() as Millis));
    }
    millis(obj, "valid_until").map_err(|e| {
        if e.is_instance_of::<PyTypeError>(obj.py()) {
            PyTypeError::new_err(format!(
                "valid_until must be datetime, timedelta or int (ms since the epoch), not {}",
                type_name(obj)
            ))
        } else {
            e
        }
    })
}

/// Reads a list of floats (any sequence of numbers, e.g. a list or a NumPy array).
pub fn vector(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Vec<f32>>> {
    let Some(obj) = obj else { return Ok(None) };
    if obj.is_none() {
        return Ok(None);
    }
    if obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyBytes>() {
        return Err(PyTypeError::new_err(
            "vector must be a sequence of floats, not str or bytes",
        ));
    }
    let items = obj.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "vector must be a sequence of floats, not {}",
            type_name(obj)
        ))
    })?;
    let mut out = Vec::new();
    for item in items {
        let item = item?;
        if item.is_instance_of::<PyBool>()
            || !(item.is_instance_of::<PyFloat>() || item.is_instance_of::<PyInt>())
        {
            // NumPy scalars and other number types convert through __float__.
            if !item.hasattr("__float__")? || item.is_instance_of::<PyBool>() {
                return Err(PyTypeError::new_err(format!(
                    "vector items must be float, not {}",
                    type_name(&item)
                )));
            }
        }
        out.push(item.extract::<f64>()? as f32);
    }
    Ok(Some(out))
}

/// Reads a list of row ids.
pub fn ids(obj: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Vec<RowId>> {
    let Some(obj) = obj else {
        return Ok(Vec::new());
    };
    if obj.is_none() {
        return Ok(Vec::new());
    }
    if obj.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(format!(
            "{what} must be a list of int, not str"
        )));
    }
    let mut out = Vec::new();
    for item in obj.try_iter()? {
        out.push(uint(&item?, &format!("{what} item"))?);
    }
    Ok(out)
}

/// Parses `source`, `derived` or `note`.
pub fn kind(s: &str) -> PyResult<Kind> {
    Kind::parse(s).map_err(crate::errors::to_py)
}

/// Reads `kinds=`: a kind name or a list of them.
pub fn kinds(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<Kind>> {
    let Some(obj) = obj else {
        return Ok(Vec::new());
    };
    if obj.is_none() {
        return Ok(Vec::new());
    }
    if obj.is_instance_of::<PyString>() {
        return Ok(vec![kind(&text(obj, "kinds")?)?]);
    }
    let mut out = Vec::new();
    for item in obj.try_iter()? {
        out.push(kind(&text(&item?, "kinds item")?)?);
    }
    Ok(out)
}

/// Parses `hybrid`, `lexical` or `vector`.
pub fn legs(s: &str) -> PyResult<Legs> {
    match s {
        "hybrid" => Ok(Legs::Hybrid),
        "lexical" => Ok(Legs::Lexical),
        "vector" => Ok(Legs::Vector),
        other => Err(invalid(format!(
            "legs must be 'hybrid', 'lexical' or 'vector', not {other:?}"
        ))),
    }
}

/// Reads `as_of=`: an `int` log sequence number or a `datetime`.
pub fn as_of(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<AsOf>> {
    let Some(obj) = obj else { return Ok(None) };
    if obj.is_none() {
        return Ok(None);
    }
    if obj.is_instance_of::<PyInt>() && !obj.is_instance_of::<PyBool>() {
        return Ok(Some(AsOf::Seq(uint(obj, "as_of")?)));
    }
    let datetime = obj.py().import("datetime")?.getattr("datetime")?;
    if obj.is_instance(&datetime)? {
        return Ok(Some(AsOf::Time(millis(obj, "as_of")?)));
    }
    Err(PyTypeError::new_err(format!(
        "as_of must be int (a log sequence number) or datetime, not {}",
        type_name(obj)
    )))
}

/// Resolves the target arguments shared by the mutating calls: `target` is a row id (`int`),
/// a query (`str`, restricted to `namespace` when given) or a `Target`; without a target,
/// `key=` (in `namespace`, default `"default"`) names a row by natural key.
pub fn target(
    target: Option<&Bound<'_, PyAny>>,
    key: Option<&Bound<'_, PyAny>>,
    namespace: Option<&Bound<'_, PyAny>>,
) -> PyResult<Target> {
    let ns = opt_namespace(namespace)?;
    let key = opt_text(key, "key")?;
    let target = target.filter(|t| !t.is_none());
    match (target, key) {
        (Some(_), Some(_)) => Err(PyTypeError::new_err(
            "give either a target or key=, not both",
        )),
        (None, Some(k)) => Ok(Target::key(
            ns.unwrap_or_else(|| oubli::DEFAULT_NAMESPACE.to_owned()),
            k,
        )),
        (None, None) => Err(PyTypeError::new_err(
            "missing target: give a row id (int), a query (str), a Target, or key=",
        )),
        (Some(t), None) => {
            if let Ok(t) = t.cast::<PyTarget>() {
                if ns.is_some() {
                    return Err(PyTypeError::new_err(
                        "namespace= cannot be combined with a Target object",
                    ));
                }
                return Ok(t.get().0.clone());
            }
            if t.is_instance_of::<PyString>() {
                let q = text(t, "target")?;
                return Ok(match ns {
                    Some(ns) => Target::query_in(ns, q),
                    None => Target::query(q),
                });
            }
            if t.is_instance_of::<PyInt>() && !t.is_instance_of::<PyBool>() {
                if ns.is_some() {
                    return Err(PyTypeError::new_err(
                        "namespace= cannot be combined with a row id",
                    ));
                }
                return Ok(Target::id(uint(t, "target")?));
            }
            Err(PyTypeError::new_err(format!(
                "target must be int (row id), str (query) or Target, not {}",
                type_name(t)
            )))
        }
    }
}

/// The optional fields of an inscription, as keyword arguments.
pub struct InsFields<'a, 'py> {
    pub namespace: Option<&'a Bound<'py, PyAny>>,
    pub key: Option<&'a Bound<'py, PyAny>>,
    pub metadata: Option<&'a Bound<'py, PyAny>>,
    pub kind: Option<&'a Bound<'py, PyAny>>,
    pub valid_until: Option<&'a Bound<'py, PyAny>>,
    pub derived_from: Option<&'a Bound<'py, PyAny>>,
    pub vector: Option<&'a Bound<'py, PyAny>>,
}

/// Builds an inscription from a text and keyword fields.
pub fn inscription(text_obj: &Bound<'_, PyAny>, f: &InsFields<'_, '_>) -> PyResult<Inscription> {
    let mut ins = Inscription::new(text(text_obj, "text")?);
    ins.namespace = opt_namespace(f.namespace)?;
    ins.key = opt_text(f.key, "key")?;
    ins.metadata = metadata(f.metadata)?;
    if let Some(k) = opt_text(f.kind, "kind")? {
        ins.kind = kind(&k)?;
    }
    if let Some(t) = f.valid_until.filter(|t| !t.is_none()) {
        ins.valid_until = Some(valid_until(t)?);
    }
    ins.derived_from = ids(f.derived_from, "derived_from")?;
    ins.vector = vector(f.vector)?;
    Ok(ins)
}

const INSCRIPTION_FIELDS: [&str; 8] = [
    "text",
    "namespace",
    "key",
    "metadata",
    "kind",
    "valid_until",
    "derived_from",
    "vector",
];

/// Builds an inscription from a `str` or a `dict` with the keyword fields of `inscribe`.
pub fn inscription_item(item: &Bound<'_, PyAny>, index: usize) -> PyResult<Inscription> {
    if item.is_instance_of::<PyString>() {
        return Ok(Inscription::new(text(item, &format!("item {index}"))?));
    }
    let d = item.cast::<PyDict>().map_err(|_| {
        PyTypeError::new_err(format!(
            "item {index} must be str or dict, not {}",
            type_name(item)
        ))
    })?;
    for k in d.keys() {
        let k = text(&k, "inscription field")?;
        if !INSCRIPTION_FIELDS.contains(&k.as_str()) {
            return Err(PyTypeError::new_err(format!(
                "item {index}: unknown inscription field {k:?}"
            )));
        }
    }
    let text_obj = d
        .get_item("text")?
        .ok_or_else(|| PyTypeError::new_err(format!("item {index} has no 'text'")))?;
    let get = |k: &str| d.get_item(k).ok().flatten();
    let (namespace, key, metadata, kind, valid_until, derived_from, vector) = (
        get("namespace"),
        get("key"),
        get("metadata"),
        get("kind"),
        get("valid_until"),
        get("derived_from"),
        get("vector"),
    );
    inscription(
        &text_obj,
        &InsFields {
            namespace: namespace.as_ref(),
            key: key.as_ref(),
            metadata: metadata.as_ref(),
            kind: kind.as_ref(),
            valid_until: valid_until.as_ref(),
            derived_from: derived_from.as_ref(),
            vector: vector.as_ref(),
        },
    )
}

/// Reads a 32-byte key or seed.
pub fn bytes32(obj: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Option<[u8; 32]>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(None);
    };
    let b = obj.cast::<PyBytes>().map_err(|_| {
        PyTypeError::new_err(format!("{what} must be bytes, not {}", type_name(obj)))
    })?;
    let b: [u8; 32] = b
        .as_bytes()
        .try_into()
        .map_err(|_| invalid(format!("{what} must be exactly 32 bytes")))?;
    Ok(Some(b))
}
