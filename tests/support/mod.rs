//! What the test binaries share: `rg`, the one way to run ripgrep beside rootbound and compare the
//! two; `grep`, a tree writer and a sandbox for the search tests; `read`, trees with a canary
//! outside the root and the checks that nothing of it comes back; `doc`, builders of documents
//! (zip packages, DOCX, PDFs, deflate bombs); `mcp`, the one MCP stdio client; `child`, a child
//! process waited for with a bound, and the one way to skip (never under CI); `data`, the one
//! deterministic generator (xorshift) and the texts built from it; `time`, the one wall-clock
//! bound of calls that must return promptly, and the one of the index's background work. Each binary includes the whole module.

pub mod child;
pub mod data;
pub mod doc;
pub mod grep;
pub mod mcp;
pub mod read;
pub mod rg;
pub mod time;
