//! What the test binaries share: `rg`, the one way to run ripgrep beside rootbound and compare the
//! two; `grep`, a tree writer and a sandbox for the search tests; `read`, trees with a canary
//! outside the root and the checks that nothing of it comes back; `doc`, builders of documents
//! (zip packages, DOCX, PDFs, deflate bombs). Each binary includes the whole module.

pub mod doc;
pub mod grep;
pub mod read;
pub mod rg;
