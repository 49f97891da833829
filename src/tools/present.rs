//! What a front end shows for a call: the structured result and the content blocks a model reads.
//! Every row's `present` and every dialect's `run` produce one.

use serde_json::Value;

/// What a front end shows for one successful call: the structured result (MCP `structuredContent`;
/// what `rootbound call` prints) and the content blocks a model reads.
#[derive(Debug, Clone, PartialEq)]
pub struct Presented {
    /// The structured result; it validates against the tool's output schema.
    pub structured: Value,
    /// The content a model reads, in order.
    pub blocks: Vec<Block>,
}

impl Presented {
    /// The text blocks joined (empty when there are none).
    pub fn text(&self) -> String {
        self.blocks
            .iter()
            .filter_map(|b| match b {
                Block::Text(t) => Some(t.as_str()),
                _ => None,
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    pub(crate) fn text_only(structured: Value, text: String) -> Self {
        Presented {
            structured,
            blocks: vec![Block::Text(text)],
        }
    }
}

/// One content block of a result.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Block {
    /// Text for the model.
    Text(String),
    /// An image, base64.
    Image {
        /// Base64 data.
        data: String,
        /// The MIME type.
        mime_type: String,
    },
    /// An audio clip, base64.
    Audio {
        /// Base64 data.
        data: String,
        /// The MIME type.
        mime_type: String,
    },
    /// A file's bytes as an embedded resource (MCP `resource` with a blob).
    Resource {
        /// The file's `file://` URI.
        uri: String,
        /// The MIME type.
        mime_type: String,
        /// Base64 data.
        blob: String,
    },
}
