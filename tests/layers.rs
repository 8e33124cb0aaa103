//! The core crate's floors, as ARCHITECTURE.md states them: every `crate::` path in
//! `ambsolve/src` must name a module on a lower floor (or on its own floor, where the table
//! allows it), no modules may import each other in a circle, every module has a floor, and
//! no code names the facade instead of the module that owns an item.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// A floor of the architecture table.
#[derive(Debug)]
struct Floor {
    number: u32,
    name: String,
    /// Whether modules of this floor may import each other.
    same_floor: bool,
}

/// The floors table of ARCHITECTURE.md: module name -> its floor.
fn floors(text: &str) -> BTreeMap<String, Floor> {
    let mut by_module = BTreeMap::new();
    for line in text.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        // | floor | name | modules | same floor | what it owns |
        if cells.len() < 6 {
            continue;
        }
        let Ok(number) = cells[1].parse::<u32>() else {
            continue;
        };
        let same_floor = match cells[4] {
            "yes" => true,
            "no" => false,
            other => panic!("floor {number}: 'same floor' must be yes or no, not {other:?}"),
        };
        for module in cells[3].split('`').skip(1).step_by(2) {
            let floor = Floor {
                number,
                name: cells[2].to_string(),
                same_floor,
            };
            let previous = by_module.insert(module.to_string(), floor);
            assert!(previous.is_none(), "{module} is on two floors");
        }
    }
    by_module
}

/// The source with comments and the unit-test module removed.
fn code_of(text: &str) -> String {
    let mut code = String::with_capacity(text.len());
    for line in text.lines() {
        if line.trim_start().starts_with("#[cfg(test)]") {
            // Unit tests come last in a file and may reach anywhere.
            break;
        }
        let line = match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        };
        code.push_str(line);
        code.push('\n');
    }
    code
}

/// The top-level module a file of `ambsolve/src` belongs to.
fn module_of(root: &Path, file: &Path) -> String {
    let relative = file.strip_prefix(root).expect("a file under the root");
    let first = relative
        .components()
        .next()
        .expect("a non-empty path")
        .as_os_str()
        .to_string_lossy()
        .into_owned();
    first.strip_suffix(".rs").unwrap_or(&first).to_string()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("a readable source folder") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Identifiers following `crate::` in `code`, with `use crate::{a, b::c}` groups expanded.
fn crate_paths(code: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        rest = &rest[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',') {
                let name: String = item
                    .trim()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    names.push(name);
                }
            }
        } else {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            names.push(name);
        }
    }
    names
}

#[test]
fn the_core_keeps_to_its_floors() {
    let top = Path::new(env!("CARGO_MANIFEST_DIR"));
    let table = fs::read_to_string(top.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let floors = floors(&table);
    assert!(floors.len() > 10, "the floors table was not found");
    let root = top.join("ambsolve/src");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    files.sort();

    let mut problems = Vec::new();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let module = module_of(&root, file);
        let shown = file.strip_prefix(top).unwrap_or(file).display().to_string();
        let Some(floor) = floors.get(&module) else {
            problems.push(format!(
                "{shown}: module `{module}` has no floor in ARCHITECTURE.md"
            ));
            continue;
        };
        let code = code_of(&fs::read_to_string(file).expect("a readable source file"));
        for name in crate_paths(&code) {
            if name.starts_with(|c: char| c.is_uppercase()) {
                if module == "lib" {
                    continue; // the facade re-exporting its own names
                }
                problems.push(format!(
                    "{shown}: names the facade (`crate::{name}`): import it from its module"
                ));
                continue;
            }
            if name == module || name == "__private" {
                continue;
            }
            let Some(target) = floors.get(&name) else {
                problems.push(format!(
                    "{shown}: `crate::{name}` is not a module with a floor"
                ));
                continue;
            };
            let allowed =
                target.number < floor.number || (target.number == floor.number && floor.same_floor);
            if !allowed {
                problems.push(format!(
                    "{shown}: `{module}` (floor {} {}) imports `{name}` (floor {} {})",
                    floor.number, floor.name, target.number, target.name
                ));
            }
            edges.entry(module.clone()).or_default().insert(name);
        }
    }

    // Circles: a module reaching itself through its imports.
    for start in edges.keys() {
        let mut stack: Vec<(String, Vec<String>)> = vec![(start.clone(), vec![start.clone()])];
        let mut seen = BTreeSet::new();
        while let Some((at, path)) = stack.pop() {
            for next in edges.get(&at).into_iter().flatten() {
                if next == start {
                    problems.push(format!("import circle: {} -> {start}", path.join(" -> ")));
                } else if seen.insert(next.clone()) {
                    let mut longer = path.clone();
                    longer.push(next.clone());
                    stack.push((next.clone(), longer));
                }
            }
        }
    }
    problems.sort();
    problems.dedup();
    assert!(
        problems.is_empty(),
        "the core breaks the floors of ARCHITECTURE.md:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_checker_sees_what_it_must() {
    let paths = crate_paths(
        "use crate::{model::Model, var::VarId};\nlet x = crate::store::Store::new(&[]);",
    );
    assert_eq!(paths, ["model", "var", "store"]);
    assert_eq!(
        code_of("a // crate::b\n#[cfg(test)]\nmod tests { crate::c }"),
        "a \n"
    );
    let floors =
        floors("| 0 | words | `choice` `var` | yes | x |\n| 4 | engines | `search` | no | y |");
    assert_eq!(floors["var"].number, 0);
    assert!(!floors["search"].same_floor);
}
