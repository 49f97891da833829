//! The plain tool methods: each is the [`Within`](crate::Within) method of the same name with a budget of its own
//! (the policy's timeout, no cancel switch). To give calls a tighter deadline or a cancel switch,
//! call them through [`Sandbox::within`](crate::Sandbox::within).

use crate::core::error::Result;
use crate::core::sandbox::Sandbox;
use crate::search::grep::{FileHits, HitOptions, HitSummary};
use crate::search::rg::RgOptions;
use crate::{
    DeleteArgs, EditArgs, EditResult, FsOpResult, GlobArgs, GrepArgs, GrepResult, ListArgs,
    ListResult, MediaArgs, MediaResult, MkdirArgs, MoveArgs, ReadArgs, ReadManyArgs,
    ReadManyResult, ReadResult, RootsArgs, RootsResult, StatArgs, StatResult, TreeArgs, TreeResult,
    WriteArgs, WriteResult,
};
use serde_json::Value;

/// A plain method per tool, each calling the [`Within`](crate::Within) method of its name.
macro_rules! plain {
    ($($name:ident($args:ty) -> $out:ty;)*) => {
        impl Sandbox {
            $(
                #[doc = concat!("[`Within::", stringify!($name), "`](crate::Within::", stringify!($name), ") with a budget of its own.")]
                pub fn $name(&self, args: &$args) -> Result<$out> {
                    self.fresh().$name(args)
                }
            )*
        }
    };
}

plain! {
    read_file(ReadArgs) -> ReadResult;
    grep_search(GrepArgs) -> GrepResult;
    glob(GlobArgs) -> GrepResult;
    list_dir(ListArgs) -> ListResult;
    stat(StatArgs) -> StatResult;
    read_many_files(ReadManyArgs) -> ReadManyResult;
    directory_tree(TreeArgs) -> TreeResult;
    list_roots(RootsArgs) -> RootsResult;
    read_media_file(MediaArgs) -> MediaResult;
    write_file(WriteArgs) -> WriteResult;
    edit_file(EditArgs) -> EditResult;
    create_directory(MkdirArgs) -> FsOpResult;
    move_file(MoveArgs) -> FsOpResult;
    delete_file(DeleteArgs) -> WriteResult;
}

impl Sandbox {
    /// [`Within::call`](crate::Within::call) with a budget of its own: dispatches a tool call and always returns JSON
    /// (the result, or `{"error": {...}}`).
    ///
    /// ```
    /// let dir = tempfile::tempdir().unwrap();
    /// std::fs::write(dir.path().join("a.txt"), "hi").unwrap();
    /// let sb = rootbound::Sandbox::builder().root(dir.path()).build().unwrap();
    /// assert_eq!(sb.call("read_file", serde_json::json!({"path": "a.txt"}))["content"], "hi");
    /// ```
    pub fn call(&self, name: &str, args: Value) -> Value {
        self.fresh().call(name, args)
    }

    /// [`Within::call_result`](crate::Within::call_result) with a budget of its own.
    pub fn call_result(&self, name: &str, args: Value) -> Result<Value> {
        self.fresh().call_result(name, args)
    }

    /// [`Within::grep_hits_each`](crate::Within::grep_hits_each) with a budget of its own.
    pub fn grep_hits_each(
        &self,
        args: &GrepArgs,
        rg: Option<&RgOptions>,
        opts: HitOptions,
        each: impl FnMut(&FileHits<'_>) -> bool,
    ) -> Result<HitSummary> {
        self.fresh().grep_hits_each(args, rg, opts, each)
    }
}
