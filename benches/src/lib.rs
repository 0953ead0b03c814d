//! oubli-bench
