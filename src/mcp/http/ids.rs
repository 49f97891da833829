//! Request ids over HTTP, echoed exactly as the client wrote them (as over stdio: see
//! `wire::ids`). rmcp reads an id as an `i64` or a string, so `-0` would come back as `0` and an
//! integer past `i64` would be refused with plain text. The door gives such a request an id of its
//! own, a string rmcp echoes as written and no client can guess, and writes the client's text back
//! in its place in every frame of the response; a progress token rmcp cannot read gets a stand-in
//! the same way. A cancellation naming the client's id is turned into one naming the stand-in, while
//! the request runs.

use super::super::wire::{id_stand_in, Echo, Inbound, Track};
use hyper::body::Bytes;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Text to put back in a response: each stand-in's JSON text (a quoted string) and the client's.
#[derive(Default)]
pub(super) struct Swaps(Vec<(Vec<u8>, Vec<u8>)>);

impl Swaps {
    pub(super) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// `data` with every stand-in replaced by the client's text.
    pub(super) fn apply(&self, data: Bytes) -> Bytes {
        let mut out = data.to_vec();
        for (stand_in, raw) in &self.0 {
            out = replace(&out, stand_in, raw);
        }
        Bytes::from(out)
    }
}

fn replace(hay: &[u8], needle: &[u8], with: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(hay.len());
    let mut i = 0;
    while i < hay.len() {
        if hay[i..].starts_with(needle) {
            out.extend_from_slice(with);
            i += needle.len();
        } else {
            out.push(hay[i]);
            i += 1;
        }
    }
    out
}

/// The stand-ins of the requests running in one caller's sessions: (session id, the client's id
/// text) to the stand-in rmcp knows the request by.
#[derive(Default)]
pub(super) struct Renamed(Mutex<HashMap<(String, String), Arc<str>>>);

/// Forgets a request's stand-in when its response ends.
pub(super) struct Forget {
    renamed: Arc<Renamed>,
    key: (String, String),
}

impl Drop for Forget {
    fn drop(&mut self) {
        self.renamed.lock().remove(&self.key);
    }
}

impl Renamed {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<(String, String), Arc<str>>> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// What a POST body becomes for rmcp: the body, the text to put back in its response, and the
/// guard that forgets its stand-in.
pub(super) struct Rewritten {
    pub(super) body: Bytes,
    pub(super) swaps: Swaps,
    pub(super) forget: Option<Forget>,
}

/// `body` (classified as `inbound`) with the ids rmcp would not echo replaced by stand-ins, in
/// `session` (`None` before one is opened).
pub(super) fn rewrite(
    body: Bytes,
    inbound: &Inbound,
    session: Option<&str>,
    renamed: &Arc<Renamed>,
) -> Rewritten {
    let unchanged = |body| Rewritten {
        body,
        swaps: Swaps::default(),
        forget: None,
    };
    let Inbound::Message(_, track) = inbound else {
        return unchanged(body);
    };
    match track {
        Track::Request { key, echo, token } => {
            let raw_id = match echo {
                Echo::Raw(raw) => Some(raw.clone()),
                Echo::Id(_) => None,
            };
            if raw_id.is_none() && token.is_none() {
                return unchanged(body);
            }
            let Ok(mut v) = serde_json::from_slice::<Value>(&body) else {
                return unchanged(body);
            };
            let mut swaps = Vec::new();
            let mut forget = None;
            if let Some(raw) = raw_id {
                let stand_in = id_stand_in();
                v["id"] = Value::from(&*stand_in);
                swaps.push((quoted(&stand_in), raw.into_bytes()));
                if let Some(s) = session {
                    let key = (s.to_string(), key.clone());
                    renamed.lock().insert(key.clone(), stand_in);
                    forget = Some(Forget {
                        renamed: Arc::clone(renamed),
                        key,
                    });
                }
            }
            if let Some((stand_in, raw)) = token {
                if let Some(meta) = v.pointer_mut("/params/_meta") {
                    meta["progressToken"] = Value::from(&**stand_in);
                    swaps.push((quoted(stand_in), raw.clone().into_bytes()));
                }
            }
            Rewritten {
                body: Bytes::from(v.to_string()),
                swaps: Swaps(swaps),
                forget,
            }
        }
        Track::Cancel(key) => {
            let target = session.and_then(|s| {
                let k = (s.to_string(), key.clone());
                renamed.lock().get(&k).cloned()
            });
            let Some(stand_in) = target else {
                return unchanged(body);
            };
            let Ok(mut v) = serde_json::from_slice::<Value>(&body) else {
                return unchanged(body);
            };
            if let Some(params) = v.get_mut("params") {
                params["requestId"] = Value::from(&*stand_in);
            }
            unchanged(Bytes::from(v.to_string()))
        }
        Track::None => unchanged(body),
    }
}

fn quoted(s: &str) -> Vec<u8> {
    serde_json::to_vec(s).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stand_ins_are_put_back_everywhere() {
        let swaps = Swaps(vec![(b"\"x-1\"".to_vec(), b"-0".to_vec())]);
        let out = swaps.apply(Bytes::from_static(
            br#"data: {"id":"x-1","r":"x-1","s":"x-10"}"#,
        ));
        assert_eq!(&out[..], br#"data: {"id":-0,"r":-0,"s":"x-10"}"#);
    }
}
