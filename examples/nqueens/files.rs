//! The files nqueens writes (boards, the search tree, the animated page), opened before the
//! search so that a bad path is reported at once.

use std::fs::File;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use ambsolve_examples::cli;
use ambsolve_examples::{animate, svg};

use crate::Outcome;
use crate::args::{Args, what};
use crate::setup::Setup;

/// The files the program writes pictures and pages to, opened before the search.
pub(crate) struct Files {
    pub(crate) picture: Option<OutputFile>,
    pub(crate) tree: Option<OutputFile>,
    pub(crate) animation: Option<OutputFile>,
}

impl Files {
    pub(crate) fn open(args: &Args) -> Result<Self, ExitCode> {
        let open = |path: &Option<PathBuf>| path.as_deref().map(OutputFile::create).transpose();
        Ok(Files {
            picture: open(&args.svg)?,
            tree: open(&args.tree)?,
            animation: open(&args.animate)?,
        })
    }

    /// Draws the boards, the animated page and the search tree, where asked for.
    pub(crate) fn write(
        &mut self,
        args: &Args,
        setup: &Setup,
        outcome: &Outcome,
    ) -> Result<(), ExitCode> {
        let n = args.n;
        let partial = if cli::is_partial(outcome.stop) {
            " (partial)"
        } else {
            ""
        };
        if let Some(file) = &mut self.picture {
            let title = if args.first {
                format!("{n} queens: the first solution")
            } else {
                format!("{n} queens: {} {}{partial}", outcome.count, what(args))
            };
            file.write(&svg::boards(&title, &outcome.shown, outcome.count))?;
        }
        // How the search checked its constraints, for the titles of its pictures.
        let how = if args.naive {
            "generate and test"
        } else {
            "checked early"
        };
        let engine = setup.engine;
        if let Some(file) = &mut self.animation {
            let title = format!("{n} queens, {engine} engine, {how}");
            let recorder = &setup.recorder;
            let page =
                animate::board_page(n as usize, &title, &recorder.events(), recorder.dropped());
            file.write(&page)?;
        }
        if let Some(file) = &mut self.tree {
            let title = format!("{n} queens, {engine} engine, {how}{partial}");
            file.write(&svg::tree_with(&setup.tree, &title, |node| {
                (node.value + 1).to_string()
            }))?;
        }
        Ok(())
    }
}

/// A file the program writes a picture or a page to, opened before the search.
pub(crate) struct OutputFile {
    pub(crate) path: PathBuf,
    pub(crate) file: File,
}

impl OutputFile {
    /// Creates `path`; a path that cannot be written is a usage error (status 2).
    pub(crate) fn create(path: &Path) -> Result<Self, ExitCode> {
        match File::create(path) {
            Ok(file) => Ok(OutputFile {
                path: path.to_path_buf(),
                file,
            }),
            Err(e) => Err(Self::error(path, &e)),
        }
    }

    /// Writes `text`; a failed write is reported as a usage error (status 2).
    pub(crate) fn write(&mut self, text: &str) -> Result<(), ExitCode> {
        self.file
            .write_all(text.as_bytes())
            .map_err(|e| Self::error(&self.path, &e))
    }

    pub(crate) fn error(path: &Path, e: &std::io::Error) -> ExitCode {
        cli::input_error("nqueens", format!("cannot write {}: {e}", path.display()))
    }
}
