//! Colours as rg 13 writes them (through termcolor's ANSI writer): a reset, the spec's styles and
//! colours, the text, a reset. rg's defaults are `path:fg:magenta`, `line:fg:green`,
//! `match:fg:red`, `match:style:bold`; `--colors` specs change them in order.

/// The end of coloured text.
pub(super) const RESET: &str = "\x1b[0m";

/// One colour spec (termcolor's `ColorSpec` subset rg's `--colors` can set).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Spec {
    fg: Option<Col>,
    bg: Option<Col>,
    bold: bool,
    intense: bool,
    underline: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Col {
    /// One of the eight named colours, by its ANSI number (black 0 ... white 7).
    Named(u8),
    Ansi256(u8),
    Rgb(u8, u8, u8),
}

impl Spec {
    /// The escape sequence that starts text in this spec.
    fn start(&self) -> String {
        let mut s = String::from(RESET);
        if self.bold {
            s.push_str("\x1b[1m");
        }
        if self.underline {
            s.push_str("\x1b[4m");
        }
        for (c, fg) in [(self.fg, true), (self.bg, false)] {
            let Some(c) = c else { continue };
            let ext = if fg { 38 } else { 48 };
            match c {
                Col::Named(n) if self.intense => s.push_str(&format!("\x1b[{ext};5;{}m", n + 8)),
                Col::Named(n) => s.push_str(&format!("\x1b[{}{n}m", if fg { 3 } else { 4 })),
                Col::Ansi256(n) => s.push_str(&format!("\x1b[{ext};5;{n}m")),
                Col::Rgb(r, g, b) => s.push_str(&format!("\x1b[{ext};2;{r};{g};{b}m")),
            }
        }
        s
    }

    fn is_none(&self) -> bool {
        *self == Spec::default()
    }
}

/// The escape sequences of the four kinds of coloured text.
#[derive(Debug, Clone)]
pub(super) struct Colors {
    pub path: String,
    pub line: String,
    pub column: String,
    /// `None` when the match spec is empty: rg then leaves matches uncoloured altogether.
    pub matched: Option<String>,
}

impl Colors {
    /// rg's defaults, then the `--colors` specs in order (checked by the flag parsing; a spec that
    /// does not parse is ignored).
    pub fn new(specs: &[String]) -> Colors {
        let mut path = Spec {
            fg: Some(Col::Named(5)),
            ..Spec::default()
        };
        let mut line = Spec {
            fg: Some(Col::Named(2)),
            ..Spec::default()
        };
        let mut column = Spec::default();
        let mut matched = Spec {
            fg: Some(Col::Named(1)),
            bold: true,
            ..Spec::default()
        };
        for spec in specs {
            let mut parts = spec.splitn(3, ':');
            let (Some(kind), Some(what)) = (parts.next(), parts.next()) else {
                continue;
            };
            let value = parts.next().unwrap_or("");
            let target = match kind {
                "path" => &mut path,
                "line" => &mut line,
                "column" => &mut column,
                "match" => &mut matched,
                _ => continue,
            };
            match what {
                "none" => *target = Spec::default(),
                "fg" => target.fg = color(value).or(target.fg),
                "bg" => target.bg = color(value).or(target.bg),
                "style" => match value {
                    "bold" => target.bold = true,
                    "nobold" => target.bold = false,
                    "intense" => target.intense = true,
                    "nointense" => target.intense = false,
                    "underline" => target.underline = true,
                    "nounderline" => target.underline = false,
                    _ => {}
                },
                _ => {}
            }
        }
        Colors {
            path: path.start(),
            line: line.start(),
            column: column.start(),
            matched: (!matched.is_none()).then(|| matched.start()),
        }
    }
}

/// A colour as rg parses it: a name, an ANSI 256 number (decimal or `0x..`), or `r,g,b`.
fn color(s: &str) -> Option<Col> {
    let names = [
        "black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
    ];
    if let Some(i) = names.iter().position(|n| *n == s) {
        return Some(Col::Named(i as u8));
    }
    let num = |t: &str| match t.strip_prefix("0x") {
        Some(h) => u8::from_str_radix(h, 16).ok(),
        None => t.parse::<u8>().ok(),
    };
    if s.contains(',') {
        let v: Vec<u8> = s.split(',').map(num).collect::<Option<_>>()?;
        return match v[..] {
            [r, g, b] => Some(Col::Rgb(r, g, b)),
            _ => None,
        };
    }
    num(s).map(Col::Ansi256)
}
