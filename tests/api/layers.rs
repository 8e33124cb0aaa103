//! The core crate's floors, as ARCHITECTURE.md states them: every path into the crate
//! (`crate::`, `self::`, `super::`, in `use` trees, code and macro bodies) in `ambsolve/src`
//! must name a module on a lower floor (or on its own floor, where the table allows it), no
//! modules may import each other in a circle, every module has a floor, and no code names
//! the facade instead of the module that owns an item. Files are parsed with `syn`; items
//! under `#[cfg(test)]` (unit tests) may reach anywhere and are skipped.
//!
//! A module of the table may be nested (`engine::trail`): a path belongs to the longest
//! module of the table it starts with, so siblings of one folder are told apart.
//!
//! The other crates (`ambsolve-macros`, `ambsolve-fzn`) have no floors table: there every
//! file is a module, and only circles are checked, with the same reading of paths.
//!
//! And the tests' layout, as its "Where the tests are" states it: each folder of `tests/`
//! with a `main.rs` is one test binary whose `main.rs` declares every other file of the
//! folder (a file it forgot would never be compiled), no test file sits directly in
//! `tests/` (a binary of its own, linked separately), and the section's table names every
//! test file and only files that exist.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use proc_macro2::{TokenStream, TokenTree};
use syn::visit::Visit;

/// A floor of the architecture table.
#[derive(Debug)]
struct Floor {
    number: u32,
    name: String,
    /// Whether modules of this floor may import each other.
    same_floor: bool,
}

/// The floors table of ARCHITECTURE.md: module path (`store`, `engine::trail`) -> its floor.
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

/// The module path of a file of `ambsolve/src`: `engine/trail/mod.rs` is `engine::trail`,
/// `store.rs` is `store`, `lib.rs` is the root (no segment).
fn module_path(root: &Path, file: &Path) -> Vec<String> {
    let relative = file.strip_prefix(root).expect("a file under the root");
    let mut segments: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let last = segments.pop().expect("a file name");
    let stem = last.strip_suffix(".rs").unwrap_or(&last);
    if stem != "mod" && !(segments.is_empty() && stem == "lib") {
        segments.push(stem.to_string());
    }
    segments
}

/// Whether `attrs` hold `#[cfg(test)]`: unit-test code, which may reach anywhere.
fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|attr| {
        attr.path().is_ident("cfg")
            && attr
                .parse_args::<syn::Ident>()
                .is_ok_and(|ident| ident == "test")
    })
}

/// The absolute path (segments after `crate`) that `segments`, written in module
/// `module`, names inside the crate; `None` for paths outside it (`std::..`, a local name).
fn resolve(module: &[String], segments: &[String]) -> Option<Vec<String>> {
    let first = segments.first()?;
    match first.as_str() {
        "crate" | "$crate" => Some(segments[1..].to_vec()),
        "self" => Some(module.iter().chain(&segments[1..]).cloned().collect()),
        "super" => {
            let ups = segments.iter().take_while(|s| *s == "super").count();
            let base = module.len().checked_sub(ups)?;
            Some(
                module[..base]
                    .iter()
                    .chain(&segments[ups..])
                    .cloned()
                    .collect(),
            )
        }
        _ => None,
    }
}

/// Collects the crate paths a file names, module by module.
struct Names {
    /// The module being read (inline `mod x { .. }` blocks push a segment).
    module: Vec<String>,
    /// Modules written inline in the file (`mod x { .. }`): their paths are the file's own.
    inline: Vec<Vec<String>>,
    found: Vec<Vec<String>>,
}

impl Names {
    fn add(&mut self, segments: &[String]) {
        if let Some(path) = resolve(&self.module, segments) {
            self.found.push(path);
        }
    }

    /// Every path of a `use` tree, groups expanded at any depth.
    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(path) => {
                prefix.push(path.ident.to_string());
                self.use_tree(prefix, &path.tree);
                prefix.pop();
            }
            syn::UseTree::Name(name) if name.ident == "self" && !prefix.is_empty() => {
                self.add(prefix);
            }
            syn::UseTree::Name(name) => {
                prefix.push(name.ident.to_string());
                self.add(prefix);
                prefix.pop();
            }
            syn::UseTree::Rename(rename) => {
                prefix.push(rename.ident.to_string());
                self.add(prefix);
                prefix.pop();
            }
            syn::UseTree::Glob(_) => self.add(prefix),
            syn::UseTree::Group(group) => {
                for tree in &group.items {
                    self.use_tree(prefix, tree);
                }
            }
        }
    }

    /// Paths in a macro's tokens (`crate::a::b`, `$crate::a::b`), which syn does not parse.
    fn tokens(&mut self, tokens: TokenStream) {
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
        for (at, token) in tokens.iter().enumerate() {
            match token {
                TokenTree::Group(group) => self.tokens(group.stream()),
                TokenTree::Ident(ident) if ident == "crate" || ident == "super" => {
                    let dollar = at > 0
                        && matches!(&tokens[at - 1], TokenTree::Punct(p) if p.as_char() == '$');
                    let mut segments = vec![if dollar {
                        "$crate".to_string()
                    } else {
                        ident.to_string()
                    }];
                    let mut next = at + 1;
                    while let [
                        TokenTree::Punct(a),
                        TokenTree::Punct(b),
                        TokenTree::Ident(name),
                        ..,
                    ] = &tokens[next.min(tokens.len())..]
                    {
                        if a.as_char() != ':' || b.as_char() != ':' {
                            break;
                        }
                        segments.push(name.to_string());
                        next += 3;
                    }
                    // `super` in a macro body names the expansion site's parent: only a
                    // path that goes on is read.
                    if segments.len() > 1 {
                        self.add(&segments);
                    }
                }
                _ => {}
            }
        }
    }
}

impl<'ast> Visit<'ast> for Names {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let attrs: &[syn::Attribute] = match item {
            syn::Item::Const(i) => &i.attrs,
            syn::Item::Enum(i) => &i.attrs,
            syn::Item::Fn(i) => &i.attrs,
            syn::Item::Impl(i) => &i.attrs,
            syn::Item::Macro(i) => &i.attrs,
            syn::Item::Mod(i) => &i.attrs,
            syn::Item::Static(i) => &i.attrs,
            syn::Item::Struct(i) => &i.attrs,
            syn::Item::Trait(i) => &i.attrs,
            syn::Item::Type(i) => &i.attrs,
            syn::Item::Union(i) => &i.attrs,
            syn::Item::Use(i) => &i.attrs,
            _ => &[],
        };
        if !is_test(attrs) {
            syn::visit::visit_item(self, item);
        }
    }

    fn visit_impl_item(&mut self, item: &'ast syn::ImplItem) {
        let attrs: &[syn::Attribute] = match item {
            syn::ImplItem::Const(i) => &i.attrs,
            syn::ImplItem::Fn(i) => &i.attrs,
            syn::ImplItem::Type(i) => &i.attrs,
            syn::ImplItem::Macro(i) => &i.attrs,
            _ => &[],
        };
        if !is_test(attrs) {
            syn::visit::visit_impl_item(self, item);
        }
    }

    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        self.module.push(item.ident.to_string());
        if item.content.is_some() {
            self.inline.push(self.module.clone());
        }
        syn::visit::visit_item_mod(self, item);
        self.module.pop();
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        self.use_tree(&mut Vec::new(), &item.tree);
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        self.add(&segments);
        syn::visit::visit_path(self, path);
    }

    /// `pub(crate)`, `pub(super)`, `pub(in crate::a)` restrict who sees an item: they
    /// name no item, so they are not imports.
    fn visit_visibility(&mut self, _: &'ast syn::Visibility) {}

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.tokens(mac.tokens.clone());
        syn::visit::visit_macro(self, mac);
    }
}

/// The crate paths (absolute, as `a::b::C`) the code of `source`, written in the module
/// `module` (`a::b`, or empty for the crate root), names outside unit tests.
fn crate_paths(module: &str, source: &str) -> Vec<String> {
    let file = syn::parse_file(source).expect("a file that parses");
    let mut names = Names {
        module: module
            .split("::")
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect(),
        inline: Vec::new(),
        found: Vec::new(),
    };
    names.visit_file(&file);
    names
        .found
        .iter()
        .filter(|path| !names.inline.iter().any(|m| path.starts_with(m)))
        .map(|p| p.join("::"))
        .collect()
}

/// The module a path belongs to: its longest prefix listed in `modules` (the floors
/// table, or a crate's files).
fn unit_of<'m, T>(path: &str, modules: &'m BTreeMap<String, T>) -> Option<&'m str> {
    let segments: Vec<&str> = path.split("::").collect();
    (1..=segments.len())
        .rev()
        .map(|n| segments[..n].join("::"))
        .find_map(|prefix| modules.get_key_value(&prefix).map(|(k, _)| k.as_str()))
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

/// One source file of a crate: its path as shown, its module (`a::b`, empty for the crate
/// root) and the crate paths its code names outside unit tests.
struct Source {
    shown: String,
    module: String,
    paths: Vec<String>,
}

/// Every file of the library under `top/src` (a binary's `main.rs` is another crate),
/// sorted, read and parsed.
fn sources(top: &Path, src: &str) -> Vec<Source> {
    let root = top.join(src);
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    files.retain(|file| file != &root.join("main.rs"));
    files.sort();
    files
        .iter()
        .map(|file| {
            let module = module_path(&root, file).join("::");
            let source = fs::read_to_string(file).expect("a readable source file");
            Source {
                shown: file.strip_prefix(top).unwrap_or(file).display().to_string(),
                paths: crate_paths(&module, &source),
                module,
            }
        })
        .collect()
}

/// The problems of one file's paths (modules `unit` imports go to `edges`).
fn check_paths(
    shown: &str,
    unit: &str,
    paths: &[String],
    floors: &BTreeMap<String, Floor>,
    edges: &mut BTreeMap<String, BTreeSet<String>>,
) -> Vec<String> {
    let floor = &floors[unit];
    let mut problems = Vec::new();
    for path in paths {
        if path.starts_with(|c: char| c.is_uppercase()) {
            if unit != "lib" {
                problems.push(format!(
                    "{shown}: names the facade (`crate::{path}`): import it from its module"
                ));
            }
            continue;
        }
        if path.is_empty() {
            continue; // `use super::*` in a top-level file: the crate root's own names
        }
        let Some(target) = unit_of(path, floors) else {
            problems.push(format!(
                "{shown}: `crate::{path}` is not in a module with a floor"
            ));
            continue;
        };
        if target == unit {
            continue;
        }
        let to = &floors[target];
        let allowed = to.number < floor.number || (to.number == floor.number && floor.same_floor);
        if !allowed {
            problems.push(format!(
                "{shown}: `{unit}` (floor {} {}) imports `{target}` (floor {} {})",
                floor.number, floor.name, to.number, to.name
            ));
        }
        edges
            .entry(unit.to_string())
            .or_default()
            .insert(target.to_string());
    }
    problems
}

/// Import circles: a module reaching itself through its imports.
fn circles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let mut problems = Vec::new();
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
    problems
}

#[test]
fn the_core_keeps_to_its_floors() {
    let top = Path::new(env!("CARGO_MANIFEST_DIR"));
    let table = fs::read_to_string(top.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let floors = floors(&table);
    assert!(floors.len() > 10, "the floors table was not found");
    let mut problems = Vec::new();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for Source {
        shown,
        module,
        paths,
    } in sources(top, "ambsolve/src")
    {
        let unit = if module.is_empty() {
            Some("lib")
        } else {
            unit_of(&module, &floors)
        };
        let Some(unit) = unit else {
            problems.push(format!(
                "{shown}: module `{module}` has no floor in ARCHITECTURE.md"
            ));
            continue;
        };
        problems.extend(check_paths(&shown, unit, &paths, &floors, &mut edges));
    }
    problems.extend(circles(&edges));
    problems.sort();
    problems.dedup();
    assert!(
        problems.is_empty(),
        "the core breaks the floors of ARCHITECTURE.md:\n{}",
        problems.join("\n")
    );
}

/// The imports between the files of a crate without a floors table: a path belongs to the
/// longest file module it starts with, else to the crate root (`lib`).
fn file_edges(files: &[Source]) -> BTreeMap<String, BTreeSet<String>> {
    let name = |module: &str| {
        if module.is_empty() {
            "lib".to_string()
        } else {
            module.to_string()
        }
    };
    let modules: BTreeMap<String, ()> = files
        .iter()
        .filter(|file| !file.module.is_empty())
        .map(|file| (file.module.clone(), ()))
        .collect();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let unit = name(&file.module);
        // An empty path names the root's own items: `use super::*` in a top-level file.
        for path in file.paths.iter().filter(|path| !path.is_empty()) {
            let target = name(unit_of(path, &modules).unwrap_or_default());
            if target != unit {
                edges.entry(unit.clone()).or_default().insert(target);
            }
        }
    }
    edges
}

#[test]
fn the_other_crates_have_no_import_circles() {
    let top = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut problems = Vec::new();
    for src in ["ambsolve-macros/src", "ambsolve-fzn/src"] {
        let files = sources(top, src);
        assert!(files.len() > 5, "{src}: its files were not found");
        for circle in circles(&file_edges(&files)) {
            problems.push(format!("{src}: {circle}"));
        }
    }
    problems.sort();
    problems.dedup();
    assert!(
        problems.is_empty(),
        "modules import each other:\n{}",
        problems.join("\n")
    );
}

#[test]
fn files_that_import_each_other_make_a_circle() {
    let source = |module: &str, paths: &[&str]| Source {
        shown: format!("{module}.rs"),
        module: module.to_string(),
        paths: paths.iter().map(|p| p.to_string()).collect(),
    };
    let files = [
        source("", &["a::f", ""]),
        source("a", &["b::c::T", "Root"]),
        source("b", &["a"]),
        source("b::c", &["a::g", "b::c::d::e"]),
    ];
    let edges = file_edges(&files);
    let names = |unit: &str| edges[unit].iter().map(String::as_str).collect::<Vec<_>>();
    assert_eq!(names("lib"), ["a"]);
    assert_eq!(names("a"), ["b::c", "lib"]);
    assert_eq!(names("b::c"), ["a"]);
    assert!(!edges.contains_key("b::c::d"));
    let found = circles(&edges);
    assert!(found.contains(&"import circle: a -> b::c -> a".to_string()));
    assert!(found.contains(&"import circle: lib -> a -> lib".to_string()));
}

#[test]
fn code_after_a_unit_test_item_is_read_and_the_test_items_are_not() {
    let source = "#[cfg(test)]\nuse crate::engine::trail::TrailEngine;\n\
                  use crate::store::Store;\n\
                  #[cfg(test)]\nfn helper() { crate::solve::x(); }\n\
                  fn real() { crate::trail::Trail::new(); }\n\
                  impl A { #[cfg(test)] fn t() { crate::a::b(); } fn f() { crate::c::d(); } }\n\
                  #[cfg(test)]\nmod tests { use crate::d::D; }\n\
                  #[cfg(any(test, feature = \"x\"))]\nuse crate::checked::Kept;";
    assert_eq!(
        crate_paths("propagate", source),
        ["store::Store", "trail::Trail::new", "c::d", "checked::Kept"]
    );
}

#[test]
fn super_and_self_resolve_from_the_module_they_are_written_in() {
    let source = "use super::super::replay::Amb;\nuse super::Frame;\nuse self::inner::X;\n\
                  fn f() { super::super::super::model::Model::new(); }\n\
                  mod nested { use super::super::Y; use self::Z; }";
    assert_eq!(
        crate_paths("engine::trail::parts", source),
        [
            "engine::replay::Amb",
            "engine::trail::Frame",
            "engine::trail::parts::inner::X",
            "model::Model::new",
            "engine::trail::Y"
        ]
    );
}

#[test]
fn nested_use_groups_are_read_whole() {
    let source = "use crate::{a::{B, c::{self, D}}, e, f::{g::{H as I}}, j::*};";
    assert_eq!(
        crate_paths("x", source),
        ["a::B", "a::c", "a::c::D", "e", "f::g::H", "j"]
    );
}

#[test]
fn paths_in_macro_bodies_are_read() {
    let source = "macro_rules! setters { () => { fn f() -> $crate::options::Options { \
                  crate::limits::Limits::new(); $crate::x } }; }";
    assert_eq!(
        crate_paths("options", source),
        ["options::Options", "limits::Limits::new", "x"]
    );
}

#[test]
fn visibilities_are_not_imports() {
    let source = "pub(crate) fn f() {}\npub(super) struct S;\npub(in crate::a) fn g() {}";
    assert!(crate_paths("b::c", source).is_empty());
}

#[test]
fn a_path_belongs_to_the_longest_module_of_the_table() {
    let floors = floors(
        "| 0 | words | `choice` `var` | yes | x |\n\
         | 4 | engines | `engine` `engine::trail` `engine::replay` | no | y |",
    );
    assert_eq!(floors["var"].number, 0);
    assert!(!floors["engine::trail"].same_floor);
    assert_eq!(
        unit_of("engine::trail::parts::X", &floors),
        Some("engine::trail")
    );
    assert_eq!(unit_of("engine::Y", &floors), Some("engine"));
    assert_eq!(unit_of("choice::Frame", &floors), Some("choice"));
    assert_eq!(unit_of("store::Store", &floors), None);
    let mut edges = BTreeMap::new();
    let problems = check_paths(
        "f.rs",
        "engine::trail",
        &["engine::replay::Amb".to_string(), "var::VarId".to_string()],
        &floors,
        &mut edges,
    );
    assert_eq!(
        problems,
        ["f.rs: `engine::trail` (floor 4 engines) imports `engine::replay` (floor 4 engines)"]
    );
    let root = Path::new("/src");
    assert_eq!(
        module_path(root, Path::new("/src/engine/trail/mod.rs")),
        ["engine", "trail"]
    );
    assert_eq!(module_path(root, Path::new("/src/store.rs")), ["store"]);
    assert!(module_path(root, Path::new("/src/lib.rs")).is_empty());
}

/// The test files of one package's `tests/` folder, from there (`api/model_api.rs`), and
/// what breaks its layout: each folder with a `main.rs` is one test binary (an area), every
/// other `.rs` file of it a module its `main.rs` declares; folders without a `main.rs`
/// hold data, shared code (`common/`, declared by each area that uses it) or trybuild's
/// cases (`ui/`).
fn test_modules(tests: &Path) -> (BTreeSet<String>, Vec<String>) {
    let mut modules = BTreeSet::new();
    let mut problems = Vec::new();
    let mut entries: Vec<PathBuf> = fs::read_dir(tests)
        .expect("a tests folder")
        .map(|entry| entry.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path
            .file_name()
            .expect("a name")
            .to_string_lossy()
            .into_owned();
        if path.extension().is_some_and(|e| e == "rs") {
            problems.push(format!(
                "{name}: a test binary of its own; make it a module of an area folder"
            ));
            continue;
        }
        let main = path.join("main.rs");
        if !main.is_file() {
            continue;
        }
        let source = fs::read_to_string(&main).expect("a readable main.rs");
        let parsed = syn::parse_file(&source).expect("main.rs parses");
        let declared: BTreeSet<String> = parsed
            .items
            .iter()
            .filter_map(|item| match item {
                syn::Item::Mod(module)
                    if module.content.is_none()
                        && !module.attrs.iter().any(|attr| attr.path().is_ident("path")) =>
                {
                    Some(module.ident.to_string())
                }
                _ => None,
            })
            .collect();
        let mut files = Vec::new();
        rust_files(&path, &mut files);
        for file in files {
            let relative = file.strip_prefix(&path).expect("a file of the area");
            let shown = format!("{name}/{}", relative.display());
            if relative == Path::new("main.rs") {
                continue;
            }
            let stem = relative.with_extension("").to_string_lossy().into_owned();
            if relative.components().count() > 1 {
                problems.push(format!("{shown}: keep an area flat, one file a module"));
            } else if declared.contains(&stem) {
                modules.insert(shown);
            } else {
                problems.push(format!(
                    "{shown}: `mod {stem};` is missing from {name}/main.rs: it is never compiled"
                ));
            }
        }
    }
    (modules, problems)
}

/// The paths the table of ARCHITECTURE.md's "Where the tests are" names in its tests
/// column (in backticks, ending in `.rs` or `/`).
fn tests_table(text: &str) -> BTreeSet<String> {
    let section = text
        .split("## Where the tests are\n")
        .nth(1)
        .expect("the section \"Where the tests are\"");
    let section = section.split("\n## ").next().unwrap_or(section);
    let mut named = BTreeSet::new();
    for line in section.lines().filter(|line| line.starts_with('|')) {
        // | feature | tests |
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let Some(tests) = cells.get(2) else {
            continue;
        };
        for name in tests.split('`').skip(1).step_by(2) {
            if name.ends_with(".rs") || name.ends_with('/') {
                named.insert(name.to_string());
            }
        }
    }
    named
}

#[test]
fn every_test_file_is_a_module_of_its_area() {
    let top = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut problems = Vec::new();
    for package in ["tests", "ambsolve-fzn/tests"] {
        let (modules, found) = test_modules(&top.join(package));
        assert!(modules.len() >= 5, "{package}: {modules:?}");
        problems.extend(found.into_iter().map(|p| format!("{package}/{p}")));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_tests_table_names_every_test_file_and_only_files_that_exist() {
    let top = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = fs::read_to_string(top.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let named = tests_table(&text);
    assert!(named.len() > 40, "the tests table was not found: {named:?}");
    let tests = top.join("tests");
    let mut problems = Vec::new();
    for name in &named {
        // From `tests/`, or from the workspace root for another crate's tests.
        let path = if name.starts_with("ambsolve-fzn/") || name.starts_with("ambsolve/") {
            top.join(name)
        } else {
            tests.join(name)
        };
        if !path.exists() {
            problems.push(format!("the table names {name}, which is not there"));
        }
    }
    let (modules, _) = test_modules(&tests);
    for module in modules.difference(&named) {
        problems.push(format!("the table does not name {module}"));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_tests_table_is_read_from_its_tests_column() {
    let text = "## Where the tests are\n\n| feature | tests |\n|---|---|\n\
                | `among` in `x.rs` | `a/b.rs`; its cases: `ui/` (`tests/x`) |\n\
                | c | `a/c.rs` / `a/d.rs` |\n\n## Next\n\n| x | `a/e.rs` |\n";
    assert_eq!(
        tests_table(text).into_iter().collect::<Vec<_>>(),
        ["a/b.rs", "a/c.rs", "a/d.rs", "ui/"]
    );
}
