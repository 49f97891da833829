//! Unit tests of the reader (the file-level behaviour is tested in tests/frontends/config.rs).

use super::model::join;
use super::*;

fn parse(text: &str) -> Result<Config, ConfigError> {
    Config::parse_with_env(text, Format::Toml, Path::new("/cfg"), |k| {
        (k == "HOME_X").then(|| "/home/x".to_string())
    })
}

#[test]
fn nsed_example_shares_one_sandbox_when_settings_agree() {
    let c = parse(
        r#"
        [agents.GlmAggregatorBot.tools.read_file]
        roots = ["${HOME_X}/corpus", "linux"]
        [agents.GlmAggregatorBot.tools.grep_search]
        roots = ["${HOME_X}/corpus", "linux"]
        max_results = 100
        "#,
    )
    .unwrap();
    let a = c.agent(None).unwrap();
    assert_eq!(a.plan.len(), 1);
    assert_eq!(a.plan[0].tools, vec!["read_file", "grep_search"]);
    let roots: Vec<_> = a.plan[0]
        .policy
        .roots
        .iter()
        .map(|r| r.path.clone())
        .collect();
    assert_eq!(
        roots,
        vec![PathBuf::from("/home/x/corpus"), PathBuf::from("/cfg/linux")]
    );
}

#[test]
fn differing_limits_split_sandboxes() {
    let c = parse(
        r#"
        [agents.a]
        roots = ["/r"]
        [agents.a.tools.grep_search]
        max_results = 5
        [agents.a.tools.glob]
        [agents.a.tools.stat]
        "#,
    )
    .unwrap();
    let a = c.agent(Some("a")).unwrap();
    assert_eq!(a.plan.len(), 2);
    assert_eq!(a.plan[0].tools, vec!["grep_search"]);
    assert_eq!(a.plan[1].tools, vec!["glob", "stat"]);
    assert_eq!(a.plan[0].policy.limits.max_results, 5);
    assert_eq!(a.plan[1].policy.limits.max_results, 100);
}

#[test]
fn type_errors_and_unknown_keys_all_reported() {
    let e = parse(
        r#"
        [agents.bot]
        roots = ["/r"]
        symlinks = "sometimes"
        bogus = 1
        [agents.bot.tools.grep_search]
        max_results = "many"
        timeout_secs = -1
        [agents.bot.tools.grpe]
        "#,
    )
    .unwrap_err();
    let keys: Vec<_> = e.problems.iter().map(|p| p.key.as_str()).collect();
    assert_eq!(
        keys,
        vec![
            "agents.bot.bogus",
            "agents.bot.symlinks",
            "agents.bot.tools.grep_search.max_results",
            "agents.bot.tools.grep_search.timeout_secs",
            "agents.bot.tools.grpe",
        ],
        "{e}"
    );
    assert_eq!(e.problems[2].message, "expected an integer, found a string");
}

#[test]
fn key_parts_are_quoted_when_needed() {
    assert_eq!(join("agents", "my.bot"), "agents.\"my.bot\"");
    assert_eq!(join("agents", "bot-1"), "agents.bot-1");
}

#[test]
fn expansion_handles_several_and_bad_names() {
    let mut cx = Cx {
        problems: vec![],
        env: &|k: &str| Some(format!("<{k}>")),
        base: PathBuf::new(),
    };
    assert_eq!(
        cx.expand("k", "a${X}b${Y_2}").as_deref(),
        Some("a<X>b<Y_2>")
    );
    assert_eq!(
        cx.expand("k", "$HOME and $").as_deref(),
        Some("$HOME and $")
    );
    assert!(cx.expand("k", "${1X}").is_none());
    assert!(cx.expand("k", "${X").is_none());
    assert_eq!(cx.problems.len(), 2);
}

/// Settings a tool would ignore are refused: glob walks on the calling thread (no `threads`), stat
/// has no deadline to bound (no `timeout_secs`); the tools that use them still take them.
#[test]
fn settings_a_tool_ignores_are_refused() {
    let e = parse(
        r#"
        [agents.a]
        roots = ["/r"]
        [agents.a.tools.glob]
        threads = 2
        [agents.a.tools.stat]
        timeout_secs = 5
        "#,
    )
    .unwrap_err();
    let got: Vec<_> = e.problems.iter().map(|p| p.to_string()).collect();
    assert_eq!(
        got,
        vec![
            "agents.a.tools.glob.threads: unknown key (expected one of: roots, max_bytes, \
             max_results, timeout_secs)",
            "agents.a.tools.stat.timeout_secs: unknown key (expected one of: roots)",
        ]
    );
    let c = parse(
        r#"
        [agents.a]
        roots = ["/r"]
        [agents.a.tools.grep_search]
        threads = 2
        [agents.a.tools.list_dir]
        timeout_secs = 0.5
        max_entries = 7
        "#,
    )
    .unwrap();
    let a = c.agent(None).unwrap();
    assert_eq!(a.plan[0].tools, vec!["grep_search"]);
    assert_eq!(a.plan[0].policy.limits.threads, 2);
    assert_eq!(a.plan[1].tools, vec!["list_dir"]);
    assert_eq!(a.plan[1].policy.limits.timeout_ms, 500);
    assert_eq!(a.plan[1].policy.limits.max_list_entries, 7);
}

/// Every limit field is a key of `[agents.X.limits]` (the table drives the reader).
#[test]
fn every_limit_field_is_a_limits_key() {
    let mut text =
        String::from("[agents.a]\nroots = [\"/r\"]\n[agents.a.tools.stat]\n[agents.a.limits]\n");
    for (i, f) in LIMITS.iter().enumerate() {
        text.push_str(&format!("{} = {}\n", f.name, 100 + i));
    }
    let c = parse(&text).unwrap();
    let l = &c.agent(None).unwrap().plan[0].policy.limits;
    for (i, f) in LIMITS.iter().enumerate() {
        assert_eq!(f.get(l), 100 + i as u64, "{}", f.name);
    }
}

#[test]
fn index_keys_choose_the_index_options() {
    use crate::{IndexDir, IndexOptions, IndexVerify, IndexWhen};
    let agent = |extra: &str| {
        parse(&format!(
            "[agents.a]\nroots = [\"/r\"]\n{extra}\n[agents.a.tools.grep_search]\n"
        ))
        .map(|c| c.agent(None).unwrap().index.clone())
    };
    assert_eq!(agent("").unwrap(), None);
    assert_eq!(agent("index = false").unwrap(), None);
    assert_eq!(
        agent("index = true").unwrap(),
        Some(IndexOptions::default().index_dir(IndexDir::UserCache))
    );
    assert_eq!(
        agent("index = true\nindex_dir = false").unwrap(),
        Some(IndexOptions::default())
    );
    assert_eq!(
        agent("index = true\nindex_dir = \"/var/cache/rb\"").unwrap(),
        Some(IndexOptions::default().index_dir(IndexDir::Path("/var/cache/rb".into())))
    );
    assert_eq!(
        agent("index = \"auto\"\nindex_verify = \"strict\"").unwrap(),
        Some(
            IndexOptions::default()
                .when(IndexWhen::Auto)
                .verify(IndexVerify::Strict)
                .index_dir(IndexDir::UserCache)
        )
    );
    for (bad, key, says) in [
        ("index = \"yes\"", "agents.a.index", "\"auto\""),
        ("index = 1", "agents.a.index", "true, false"),
        (
            "index = false\nindex_verify = \"strict\"",
            "agents.a.index_verify",
            "index = false",
        ),
        (
            "index = true\nindex_verify = \"lazy\"",
            "agents.a.index_verify",
            "strict",
        ),
        (
            "index = true\nindex_dir = \"rel/dir\"",
            "agents.a.index_dir",
            "absolute",
        ),
        (
            "index = false\nindex_dir = \"/var/cache/rb\"",
            "agents.a.index_dir",
            "index = false",
        ),
    ] {
        let e = agent(bad).unwrap_err();
        assert_eq!(e.problems.len(), 1, "{bad}: {e}");
        assert_eq!(e.problems[0].key, key, "{bad}");
        assert!(e.problems[0].message.contains(says), "{bad}: {e}");
    }
}

/// Without `index`, `index_verify` and `index_dir` shape the index `rootbound mcp` starts by
/// default (`"auto"`), and the library starts none; with `index`, the default is the same options.
#[test]
fn index_keys_without_index_shape_the_default_index() {
    use crate::{IndexDir, IndexOptions, IndexVerify, IndexWhen};
    let agent = |extra: &str| {
        let c = parse(&format!(
            "[agents.a]\nroots = [\"/r\"]\n{extra}\n[agents.a.tools.grep_search]\n"
        ))
        .unwrap();
        let a = c.agent(None).unwrap();
        (a.index.clone(), a.unset_index(), a.index_set())
    };
    let auto = IndexOptions::default().when(IndexWhen::Auto);
    assert_eq!(
        agent(""),
        (None, auto.clone().index_dir(IndexDir::UserCache), false)
    );
    assert_eq!(
        agent("index_dir = \"/var/cache/rb\"\nindex_verify = \"strict\""),
        (
            None,
            auto.clone()
                .verify(IndexVerify::Strict)
                .index_dir(IndexDir::Path("/var/cache/rb".into())),
            false
        )
    );
    assert_eq!(agent("index_dir = false"), (None, auto.clone(), false));
}

/// Every per-tool limit key names a read tool of the tool table (a misspelt or removed tool would
/// leave its key unreachable).
#[test]
fn per_tool_limit_keys_name_read_tools() {
    for f in LIMITS {
        for k in f.tools {
            assert!(READ_TOOLS.contains(&k.tool), "{}: {}", f.name, k.tool);
        }
    }
}
