//! count_lines: how many lines a text file holds (a scratch tool, to count the files a new tool
//! touches).

use crate::core::error::Result;
use crate::engine::Within;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Arguments of `count_lines`.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct CountLinesArgs {
    /// A text file under a root.
    pub path: String,
}

/// The result of `count_lines`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq, JsonSchema)]
#[non_exhaustive]
pub struct CountLinesResult {
    /// The displayed path.
    pub path: String,
    /// Newlines in the page read (the file's first page).
    pub lines: u64,
}

impl Within<'_> {
    /// Counts the lines of a text file's first page.
    pub fn count_lines(&self, args: &CountLinesArgs) -> Result<CountLinesResult> {
        let r = self.read_file(&crate::ReadArgs::path(&args.path))?;
        Ok(CountLinesResult {
            path: r.path,
            lines: r.content.matches('\n').count() as u64,
        })
    }
}

/// The row of count_lines.
pub(crate) struct CountLines;

impl crate::tools::tool::Tool for CountLines {
    const NAME: &'static str = "count_lines";
    const TITLE: &'static str = "Count lines";
    const ONE_OBJECT: bool = true;
    const READS_CONTENT: bool = true;
    type Args = CountLinesArgs;
    type Output = CountLinesResult;

    fn run(w: &Within<'_>, args: &CountLinesArgs) -> Result<CountLinesResult> {
        w.count_lines(args)
    }

    fn describe(_sb: &crate::Sandbox) -> String {
        "Count the lines of a text file's first page.".into()
    }
}
