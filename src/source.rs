//! Source files: the text every span points into, and the byte-offset → line/column index.
//!
//! In: file paths and their text. Out: `Sources`, indexed by `FileId`, which every later stage
//! uses to turn a `Span` into `file:line:column` for humans and tools.

use std::path::{Path, PathBuf};

use crate::span::{FileId, Span};

/// One input file (a `.fab` or `.yaml`), kept whole for diagnostics.
#[derive(Debug, Clone)]
pub struct SourceFile {
    pub path: PathBuf,
    /// The path as the user should see it in diagnostics (relative where possible).
    pub display: String,
    pub text: String,
    line_starts: Vec<usize>,
}

/// 1-based line and column; the column counts characters, not bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct LineCol {
    pub line: usize,
    pub column: usize,
}

impl SourceFile {
    pub fn new(path: impl Into<PathBuf>, display: impl Into<String>, text: String) -> Self {
        let line_starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Self {
            path: path.into(),
            display: display.into(),
            text,
            line_starts,
        }
    }

    /// Line and column (both 1-based, column in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> LineCol {
        let offset = offset.min(self.text.len());
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts[line];
        let column = self
            .text
            .get(start..offset)
            .map_or(offset - start, |s| s.chars().count())
            + 1;
        LineCol {
            line: line + 1,
            column,
        }
    }

    /// The text of the 1-based line `line`, without its newline.
    pub fn line_text(&self, line: usize) -> &str {
        let Some(&start) = self.line_starts.get(line.saturating_sub(1)) else {
            return "";
        };
        let end = self
            .line_starts
            .get(line)
            .map_or(self.text.len(), |&e| e.saturating_sub(1));
        self.text
            .get(start..end)
            .unwrap_or("")
            .trim_end_matches('\r')
    }
}

/// Every file read for one compilation, in the order they were first read.
#[derive(Debug, Clone, Default)]
pub struct Sources {
    files: Vec<SourceFile>,
}

impl Sources {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn add(&mut self, file: SourceFile) -> FileId {
        let id = FileId(u32::try_from(self.files.len()).expect("invariant: fewer than 2^32 files"));
        self.files.push(file);
        id
    }

    pub fn get(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    pub fn files(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files
            .iter()
            .enumerate()
            .map(|(i, f)| (FileId(i as u32), f))
    }

    pub fn find(&self, path: &Path) -> Option<FileId> {
        self.files
            .iter()
            .position(|f| f.path == path)
            .map(|i| FileId(i as u32))
    }

    /// Start and end positions of a span, for machine-readable output.
    pub fn span_lines(&self, span: Span) -> (LineCol, LineCol) {
        let file = self.get(span.file);
        (
            file.line_col(span.start as usize),
            file.line_col(span.end as usize),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn case(text: &str, offset: usize, line: usize, column: usize) {
        let f = SourceFile::new("x.fab", "x.fab", text.to_string());
        assert_eq!(f.line_col(offset), LineCol { line, column });
    }

    #[test]
    fn line_col() {
        case("abc", 0, 1, 1);
        case("abc\ndef", 4, 2, 1);
        case("abc\ndef", 6, 2, 3);
        case("äb\nc", 2, 1, 2);
        case("abc\n", 4, 2, 1);
        case("", 0, 1, 1);
    }

    #[test]
    fn line_text() {
        let f = SourceFile::new("x", "x", "one\r\ntwo\nthree".to_string());
        assert_eq!(f.line_text(1), "one");
        assert_eq!(f.line_text(2), "two");
        assert_eq!(f.line_text(3), "three");
        assert_eq!(f.line_text(9), "");
    }
}
