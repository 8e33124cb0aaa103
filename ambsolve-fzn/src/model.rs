//! [`FznModel`]: a FlatZinc file read and compiled, ready to solve (`solve.rs`).

use std::path::Path;
use std::time::{Duration, Instant};

use ambsolve::{Assignment, Model, Strategy};

use crate::ast::Ast;
use crate::compiler;
use crate::error::FznError;
use crate::output::Output;
use crate::parser::{self, ReadLimits};

/// A FlatZinc model compiled for ambsolve: the [`Model`], what each solution prints, and
/// the strategy its search annotations ask for.
pub struct FznModel {
    /// Shared with the solver, which would otherwise copy it.
    pub(crate) model: std::sync::Arc<Model<'static>>,
    output: Output,
    pub(crate) strategy: Option<Strategy>,
    /// The variables not `is_defined_var`: what a large neighbourhood search fixes.
    pub(crate) decisions: Vec<ambsolve::VarId>,
    notes: Vec<String>,
    init_time: Duration,
}

impl FznModel {
    /// Reads and compiles FlatZinc text.
    ///
    /// # Errors
    /// An [`FznError`] naming the line at fault.
    #[allow(clippy::should_implement_trait)]
    pub fn from_str(text: &str) -> Result<Self, FznError> {
        Self::from_reader(text.as_bytes(), 0, &ReadLimits::none())
    }

    /// Reads and compiles the FlatZinc file at `path`; `seed` seeds `indomain_random`.
    ///
    /// # Errors
    /// [`FznError::Io`] if the file cannot be read, else as [`from_str`](Self::from_str).
    pub fn from_path(path: impl AsRef<Path>, seed: u64) -> Result<Self, FznError> {
        let path = path.as_ref();
        let file = std::fs::File::open(path)
            .map_err(|e| FznError::Io(format!("cannot read {}: {e}", path.display())))?;
        Self::from_reader(std::io::BufReader::new(file), seed, &ReadLimits::none())
    }

    /// Reads and compiles FlatZinc from `reader` (a file, standard input); `seed` seeds
    /// `indomain_random`. Reading and compiling stop with [`FznError::Stopped`] when
    /// `limits` say so (a deadline passed, a flag set).
    ///
    /// # Errors
    /// As [`from_path`](Self::from_path), and [`FznError::Stopped`].
    pub fn from_reader(
        reader: impl std::io::BufRead,
        seed: u64,
        limits: &ReadLimits,
    ) -> Result<Self, FznError> {
        // Each item is compiled as it is read, not kept as an item until the end.
        let started = Instant::now();
        let mut compiler = compiler::Compiler::new();
        let solve = parser::parse_with(reader, limits, |item| compiler.item(item))?;
        let compiled = compiler.finish(solve, seed, limits)?;
        Ok(Self::from_compiled(compiled, started))
    }

    /// Compiles a parsed model; `seed` seeds `indomain_random`.
    ///
    /// # Errors
    /// An [`FznError`] naming the line at fault.
    pub fn from_ast(ast: &Ast, seed: u64) -> Result<Self, FznError> {
        Self::compile_with(|| Ok(ast.clone()), seed, &ReadLimits::none())
    }

    fn compile_with(
        parse: impl FnOnce() -> Result<Ast, FznError>,
        seed: u64,
        limits: &ReadLimits,
    ) -> Result<Self, FznError> {
        let started = Instant::now();
        let ast = parse()?;
        let compiled = compiler::compile(ast, seed, limits)?;
        Ok(Self::from_compiled(compiled, started))
    }

    fn from_compiled(compiled: compiler::Compiled, started: Instant) -> Self {
        FznModel {
            model: std::sync::Arc::new(compiled.model),
            output: compiled.output,
            strategy: compiled.strategy,
            decisions: compiled.decisions,
            notes: compiled.notes,
            init_time: started.elapsed(),
        }
    }

    /// The ambsolve model: every constraint of the file, with its meaning
    /// ([`Model::check`] checks a solution against them).
    pub fn model(&self) -> &Model<'static> {
        &self.model
    }

    /// What `solution` prints: `x = 3;` for each `output_var`, `a = array1d(1..3, [..]);`
    /// for each `output_array`, one a line, in the order of the file (without the
    /// `----------` line).
    ///
    /// # Panics
    /// If `solution` solves another model.
    pub fn render(&self, solution: &Assignment) -> String {
        self.output.render(solution)
    }

    /// The strategy the search annotations ask for (one phase per `int_search` or
    /// `bool_search`, the rest first-fail); `None` without annotations.
    pub fn strategy(&self) -> Option<&Strategy> {
        self.strategy.as_ref()
    }

    /// What the compiler followed only in part or ignored (search annotations with no
    /// counterpart in ambsolve), one note a line; `-v` prints them.
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// The time spent reading and compiling the file.
    pub fn init_time(&self) -> Duration {
        self.init_time
    }
}

impl std::fmt::Debug for FznModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FznModel")
            .field("vars", &self.model.num_vars())
            .field("constraints", &self.model.num_constraints())
            .field("notes", &self.notes)
            .finish_non_exhaustive()
    }
}
