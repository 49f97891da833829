//! The confinement core: the one syscall layer (`sys`), the one open path, directory reads and
//! metadata (`dirs`), the write operations (`mutate`), request resolution, deny rules, the
//! admission gate, the operator policy, errors, the call budget and the audit event. Everything above this layer reaches the filesystem
//! only through it (`tests/gate/layout.rs` checks that no filesystem call is made elsewhere). May import
//! nothing from `walk`, `search`, `tools` or `config`.

pub(crate) mod admission;
pub(crate) mod admit;
pub(crate) mod audit;
pub(crate) mod cache;
pub(crate) mod deadline;
pub(crate) mod deny;
pub(crate) mod dirs;
pub(crate) mod error;
pub(crate) mod handle;
pub(crate) mod io;
pub(crate) mod limits;
pub(crate) mod memory;
pub(crate) mod mutant;
pub(crate) mod mutate;
pub(crate) mod names;
pub(crate) mod narrow;
pub(crate) mod open;
pub(crate) mod policy;
pub(crate) mod pool;
pub(crate) mod resolve;
pub(crate) mod roots;
pub(crate) mod sandbox;
pub(crate) mod sys;
pub(crate) mod watch;
