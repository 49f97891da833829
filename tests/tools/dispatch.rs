//! Tool dispatch (`Sandbox::call`, `AgentTools::call`): arguments are a JSON object of named fields
//! (or null, meaning none); any other JSON value is `INVALID_ARGUMENT`. serde would otherwise read a
//! struct from an array by position, so `["a.txt"]` would name a path without saying `path`.

use rootbound::config::AgentTools;
use rootbound::{Sandbox, WritePolicy};
use serde_json::{json, Value};

#[test]
fn arguments_that_are_not_an_object_are_invalid() {
    let tmp = tempfile::tempdir().unwrap();
    let (read, write) = (tmp.path().join("read"), tmp.path().join("write"));
    std::fs::create_dir(&read).unwrap();
    std::fs::create_dir(&write).unwrap();
    std::fs::write(read.join("a.txt"), "hello\n").unwrap();
    std::fs::write(write.join("w.txt"), "w\n").unwrap();
    let mut wp = WritePolicy::new(&write);
    wp.allow_delete = true;
    let sb = Sandbox::builder().root(&read).write(wp).build().unwrap();

    let positional: [(&str, Value); 7] = [
        ("read_file", json!(["a.txt"])),
        ("grep_search", json!(["hello"])),
        ("glob", json!(["*.txt"])),
        ("list_dir", json!(["."])),
        ("stat", json!(["a.txt"])),
        ("write_file", json!(["new.txt", "content"])),
        ("delete_file", json!(["w.txt"])),
    ];
    for (tool, args) in positional {
        for args in [args, json!([1, 2]), json!("a.txt"), json!(7), json!(true)] {
            let v = sb.call(tool, args.clone());
            assert_eq!(v["error"]["code"], "INVALID_ARGUMENT", "{tool} {args}: {v}");
            let msg = v["error"]["message"].as_str().unwrap();
            assert!(msg.contains("JSON object"), "{tool} {args}: {msg}");
        }
    }
    assert!(!write.join("new.txt").exists());
    assert!(write.join("w.txt").exists());

    // Null stands for no arguments; an object is read as before.
    let v = sb.call("list_dir", Value::Null);
    assert!(v.get("error").is_none(), "{v}");
    let v = sb.call("read_file", json!({"path": "a.txt"}));
    assert_eq!(v["content"], "hello\n");

    // The same through AgentTools.
    let tools = AgentTools::from_sandbox(sb);
    let v = tools.call("read_file", json!(["a.txt"]));
    assert_eq!(v["error"]["code"], "INVALID_ARGUMENT", "{v}");
}
