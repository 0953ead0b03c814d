//! The `oubli` command-line tool: create, write, query, forget and audit a store file.

fn main() {
    std::process::exit(oubli::cli::main());
}
