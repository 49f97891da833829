//! Plain-Rust regression tests for what the cargo-fuzz targets in `fuzz/` found. Each input also stays
//! in `fuzz/corpus/<target>/` so `fuzz/replay.sh` replays it.

use rootbound::{ErrorCode, ReadArgs, Sandbox, StatArgs};
use std::os::unix::fs::symlink;

/// fuzz/corpus/resolve/deleted_suffix: a file whose own name ends in " (deleted)" (the suffix the
/// kernel gives unlinked objects in /proc/self/fd) was taken for a deleted file, so a symlink to it was
/// deny-checked under the symlink's name: a denied file was readable through an alias.
#[test]
fn name_ending_in_deleted_is_not_a_deleted_file() {
    let t = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(t.path()).unwrap();
    std::fs::create_dir_all(root.join("secrets")).unwrap();
    std::fs::write(root.join("secrets/key (deleted)"), "SECRET-KEY\n").unwrap();
    std::fs::create_dir(root.join("d")).unwrap();
    std::fs::write(root.join("d/f (deleted)"), "plain\n").unwrap();
    symlink("secrets/key (deleted)", root.join("k")).unwrap();
    symlink("d/f (deleted)", root.join("alias")).unwrap();
    let sb = Sandbox::builder()
        .root(&root)
        .deny("secrets/")
        .build()
        .unwrap();
    for spelled in ["k", "./k", "d/../k"] {
        let e = sb.read_file(&ReadArgs::path(spelled)).unwrap_err();
        assert_eq!(e.code, ErrorCode::Denied, "{spelled}: {e}");
        let e = sb
            .stat(&{
                let mut args_ = StatArgs::default();
                args_.path = spelled.into();
                args_
            })
            .unwrap_err();
        assert_eq!(e.code, ErrorCode::Denied, "{spelled}: {e}");
    }
    // The path shown is the object opened, not the alias.
    let r = sb.read_file(&ReadArgs::path("alias")).unwrap();
    assert_eq!(r.content, "plain\n");
    assert_eq!(r.path, root.join("d/f (deleted)").to_str().unwrap());
}

/// fuzz/corpus/grep_args/zero_limits: a policy with `max_results = 0` or `max_bytes` under 256 (both
/// accepted by the config loader) made every grep_search and glob call panic in `clamp` (min > max).
#[test]
fn small_policy_page_caps_do_not_panic() {
    let t = tempfile::tempdir().unwrap();
    for i in 0..3 {
        std::fs::write(t.path().join(format!("f{i}.txt")), "needle here\n").unwrap();
    }
    for (max_results, max_bytes) in [(0, 0), (0, 32 * 1024), (100, 0), (100, 100), (1, 255)] {
        let sb = Sandbox::builder()
            .root(t.path())
            .limits(rootbound::Limits {
                max_results,
                max_bytes,
                ..Default::default()
            })
            .build()
            .unwrap();
        let ctx = format!("max_results {max_results}, max_bytes {max_bytes}");
        let r = sb
            .grep_search(&{
                let mut args_ = rootbound::GrepArgs::new("needle");
                args_.max_bytes = Some(10_000);
                args_
            })
            .unwrap_or_else(|e| panic!("{ctx}: {e}"));
        assert!(r.match_lines >= 1 && r.truncated, "{ctx}: {r:?}");
        assert!(
            r.matches.len() <= max_bytes.max(1) || r.match_lines == 1,
            "{ctx}: {r:?}"
        );
        let g = sb
            .glob(&{
                let mut args_ = rootbound::GlobArgs::default();
                args_.pattern = "*.txt".into();
                args_
            })
            .unwrap_or_else(|e| panic!("{ctx}: {e}"));
        assert!(g.match_lines >= 1, "{ctx}: {g:?}");
    }
}

/// Found by tests/gate/props.rs (`read_pages_reassemble`): a page of `limit: 1` starting at a broken lead
/// byte (`\xe2\x82` then `é`) took the lead's full length (3 bytes), ending inside the `é`; the next page
/// snapped back to the `é`'s start, so the byte `\xc3` came back twice and the pages did not reassemble.
#[test]
fn one_byte_pages_at_a_broken_lead_byte_do_not_overlap() {
    let t = tempfile::tempdir().unwrap();
    let bytes = b"a\xe2\x82\xc3\xa9b\xf0\x9f\xc3\xa9";
    std::fs::write(t.path().join("f"), bytes).unwrap();
    let sb = Sandbox::builder()
        .root(t.path())
        .max_read_bytes(1)
        .build()
        .unwrap();
    let (mut at, mut text) = (0, String::new());
    loop {
        let p = sb
            .read_file(&{
                let mut args_ = ReadArgs::path("f");
                args_.offset = Some(at);
                args_.limit = Some(1);
                args_
            })
            .unwrap();
        assert_eq!(p.offset, at, "pages overlap: {p:?}");
        text.push_str(&p.content);
        if !p.truncated {
            break;
        }
        at = p.next_offset;
    }
    assert_eq!(text, String::from_utf8_lossy(bytes));
}

/// fuzz/corpus/read_args/utf16_lone_high (read_args target): in UTF-16, a lone high surrogate followed by
/// a real pair (`D8A9 D83D DE00`) was paged as if it started a pair: a 2-byte page took `D8A9 D83D`
/// (two U+FFFD) and the next page the lone `DE00`, so the pages said `���` where the file says `�😀`.
#[test]
fn utf16_lone_high_surrogate_before_a_pair_pages_like_the_whole_file() {
    let t = tempfile::tempdir().unwrap();
    let mut bytes = vec![0xFF, 0xFE];
    for u in [0x61u16, 0xD8A9, 0xD83D, 0xDE00, 0x62] {
        bytes.extend_from_slice(&u.to_le_bytes());
    }
    std::fs::write(t.path().join("f"), &bytes).unwrap();
    let sb = Sandbox::builder().root(t.path()).build().unwrap();
    let whole = sb.read_file(&ReadArgs::path("f")).unwrap().content;
    assert_eq!(whole, "a\u{FFFD}😀b");
    let (mut at, mut text) = (0, String::new());
    loop {
        let p = sb
            .read_file(&{
                let mut args_ = ReadArgs::path("f");
                args_.offset = Some(at);
                args_.limit = Some(2);
                args_
            })
            .unwrap();
        text.push_str(&p.content);
        if !p.truncated {
            break;
        }
        at = p.next_offset;
    }
    assert_eq!(text, whole);
}
