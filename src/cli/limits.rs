//! The limit flags: one `--NAME` per row of the limit table ([`rootbound::config::LIMITS`]), built
//! with clap's builder API so that the table, not this file, says which flags there are, their
//! types, help and short forms. `SandboxOpts` flattens [`LimitFlags`] in.

use clap::{value_parser, Arg, ArgMatches, Args, Command, FromArgMatches};
use rootbound::config::{LimitField, LimitType, LIMITS};
use rootbound::Limits;

/// The limit flags given on the command line, each with its row of the table.
#[derive(Clone, Default)]
pub(crate) struct LimitFlags(Vec<(&'static LimitField, u64)>);

impl LimitFlags {
    /// Sets each given flag's field in `limits`.
    pub(crate) fn apply(&self, limits: &mut Limits) {
        for (f, n) in &self.0 {
            // The value was parsed as the field's own type: it fits.
            f.set(limits, *n);
        }
    }

    /// Removes the flag of field `name` and returns its value (a subcommand that reads the flag
    /// with its own meaning, as `grep` does rg's `--max-columns`).
    pub(crate) fn take(&mut self, name: &str) -> Option<u64> {
        let i = self.0.iter().position(|(f, _)| f.name == name)?;
        Some(self.0.remove(i).1)
    }

    /// `value` for the field `name` unless a flag gave one.
    pub(crate) fn or_default(&mut self, name: &str, value: u64) {
        let f = LimitField::named(name).expect("a limit field");
        if !self.0.iter().any(|(g, _)| g.name == f.name) {
            self.0.push((f, value));
        }
    }
}

/// The flag of a row: `max_read_bytes` is `--max-read-bytes MAX_READ_BYTES`.
fn arg(f: &'static LimitField) -> Arg {
    // clap (without its `string` feature) takes `&'static str` names; the arguments are built once.
    let long: &'static str = Box::leak(f.name.replace('_', "-").into_boxed_str());
    let value_name: &'static str = Box::leak(f.name.to_ascii_uppercase().into_boxed_str());
    let arg = Arg::new(f.name)
        .long(long)
        .value_name(value_name)
        .help(f.doc.trim().trim_end_matches('.'))
        // A config file sets the limits itself.
        .conflicts_with("config");
    let arg = match f.ty {
        LimitType::U64 => arg.value_parser(value_parser!(u64)),
        LimitType::Usize => arg.value_parser(value_parser!(usize)),
    };
    match f.short {
        Some(c) => arg.short(c),
        None => arg,
    }
}

impl Args for LimitFlags {
    fn augment_args(cmd: Command) -> Command {
        LIMITS.iter().fold(cmd, |cmd, f| cmd.arg(arg(f)))
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

impl FromArgMatches for LimitFlags {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let given = LIMITS
            .iter()
            .filter_map(|f| {
                let n = match f.ty {
                    LimitType::U64 => m.get_one::<u64>(f.name).copied(),
                    LimitType::Usize => m.get_one::<usize>(f.name).map(|n| *n as u64),
                };
                n.map(|n| (f, n))
            })
            .collect();
        Ok(LimitFlags(given))
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}
