//! The front end is a user of the library: its sources name ambsolve's public API only —
//! never `__private` (the macro's support) nor a crate-internal path.

use std::fs;
use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("a source directory") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn the_front_end_names_no_private_part_of_the_library() {
    let mut files = Vec::new();
    rust_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    assert!(files.len() >= 10, "the front end's sources are found");
    for file in files {
        let text = fs::read_to_string(&file).expect("a source file");
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            assert!(
                !code.contains("__private") && !code.contains("#[doc(hidden)]"),
                "{}:{}: the front end uses the public API only: {line}",
                file.display(),
                n + 1
            );
        }
    }
}
