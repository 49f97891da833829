//! The port of ripgrep 13's integration tests: the cases ([`cases`]), rg's test API re-made to run
//! both programs ([`util`], [`runner`]), and what each case is expected to do ([`expect`]).

pub mod cases;
pub mod expect;
pub mod hay;
pub mod runner;
pub mod util;
