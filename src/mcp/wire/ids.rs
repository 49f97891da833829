//! Requests in flight: the id each one is answered with, exactly as the client wrote it, and the
//! wait for their replies when the input ends.
//!
//! rmcp's ids are `i64` or strings, and serde_json reads an integer past `u64` as a float, so
//! `18446744073709551621` would come back as `1.8446744073709552e+19`. The transport therefore gives
//! every request an id of its own (a counter, so two requests with the same client id are two
//! requests), keeps the client's text, and writes that text into the reply: as rmcp's own id when
//! serde_json writes it the same way (strings, `i64`), spliced in as raw text otherwise. A progress
//! token rmcp cannot read gets a stand-in string the same way. A cancellation naming the client's
//! id is turned into one naming the transport's.

use rmcp::model::{
    ClientJsonRpcMessage, ClientNotification, JsonRpcMessage, NumberOrString, RequestId,
    ServerJsonRpcMessage, ServerNotification,
};
use serde_json::Value;
use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasher, Hasher};
use std::io;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;
use tokio::sync::Notify;

/// How a reply names its request.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Echo {
    /// As rmcp writes this id (the same text as the client's).
    Id(RequestId),
    /// The client's exact text (an integer serde_json would write otherwise).
    Raw(String),
}

impl Echo {
    /// The JSON text of the id.
    pub(crate) fn text(&self) -> String {
        match self {
            Echo::Id(id) => serde_json::to_string(id).unwrap_or_else(|_| "null".into()),
            Echo::Raw(t) => t.clone(),
        }
    }
}

/// What the transport keeps about a message it passes to rmcp.
#[derive(Debug, PartialEq)]
pub(crate) enum Track {
    None,
    /// A request: its id as a lookup key (the client's text), how to echo it, and a progress
    /// token's stand-in with the client's text.
    Request {
        key: String,
        echo: Echo,
        token: Option<(Arc<str>, String)>,
    },
    /// A cancellation of the request whose key this is (its `requestId` was taken out).
    Cancel(String),
}

/// A progress token of the transport's own: unique, and not one a client can guess.
pub(crate) fn token_stand_in() -> Arc<str> {
    stand_in("progress")
}

/// A request id of the HTTP door's own (a string, which rmcp echoes as written), for an id rmcp
/// would not: unique, and not one a client can guess.
#[cfg(feature = "http")]
pub(crate) fn id_stand_in() -> Arc<str> {
    stand_in("id")
}

fn stand_in(kind: &str) -> Arc<str> {
    static NONCE: OnceLock<u64> = OnceLock::new();
    static NEXT: AtomicU64 = AtomicU64::new(1);
    let nonce = NONCE.get_or_init(|| {
        std::collections::hash_map::RandomState::new()
            .build_hasher()
            .finish()
    });
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    format!("rootbound-{kind}-{nonce:016x}-{n}").into()
}

struct Entry {
    key: String,
    echo: Echo,
    token: Option<Arc<str>>,
}

/// Replies of cancelled requests rmcp may still send (a reply racing the cancellation) are named
/// from here; the oldest are forgotten past this many.
const CANCELLED_KEPT: usize = 256;

#[derive(Default)]
struct State {
    next: i64,
    live: HashMap<i64, Entry>,
    cancelled: VecDeque<(i64, Entry)>,
    tokens: HashMap<Arc<str>, String>,
}

/// The requests in flight of one transport.
#[derive(Default)]
pub(crate) struct InFlight {
    state: Mutex<State>,
    idle: Notify,
}

impl InFlight {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Gives `msg` (from [`super::scan::classify`]) the transport's ids; `None` when it is to be
    /// dropped (a cancellation of no request in flight).
    pub(crate) fn inbound(
        &self,
        mut msg: ClientJsonRpcMessage,
        track: Track,
    ) -> Option<ClientJsonRpcMessage> {
        let mut st = self.lock();
        match (&mut msg, track) {
            (JsonRpcMessage::Request(req), Track::Request { key, echo, token }) => {
                st.next += 1;
                let n = st.next;
                req.id = NumberOrString::Number(n);
                let stand_in = token.map(|(stand_in, raw)| {
                    st.tokens.insert(Arc::clone(&stand_in), raw);
                    stand_in
                });
                st.live.insert(
                    n,
                    Entry {
                        key,
                        echo,
                        token: stand_in,
                    },
                );
            }
            (JsonRpcMessage::Notification(n), Track::Cancel(key)) => {
                let ClientNotification::CancelledNotification(c) = &mut n.notification else {
                    return Some(msg);
                };
                // The latest request in flight with this id (ids the client reused are its own
                // confusion; the earlier ones run on).
                let target = st
                    .live
                    .iter()
                    .filter(|(_, e)| e.key == key)
                    .map(|(n, _)| *n)
                    .max()?;
                c.params.request_id = Some(NumberOrString::Number(target));
                // rmcp drops the reply of a cancelled request: it is no longer waited for.
                if let Some(e) = st.live.remove(&target) {
                    st.cancelled.push_back((target, e));
                    if st.cancelled.len() > CANCELLED_KEPT {
                        if let Some((_, old)) = st.cancelled.pop_front() {
                            forget_token(&mut st, &old);
                        }
                    }
                }
                if st.live.is_empty() {
                    self.idle.notify_waiters();
                }
            }
            _ => {}
        }
        Some(msg)
    }

    /// `msg` as the line to write: a reply names its request as the client did.
    pub(crate) fn outbound(&self, mut msg: ServerJsonRpcMessage) -> io::Result<Vec<u8>> {
        let id = match &mut msg {
            JsonRpcMessage::Response(r) => Some(&mut r.id),
            JsonRpcMessage::Error(e) => e.id.as_mut(),
            JsonRpcMessage::Notification(n) => {
                let ServerNotification::ProgressNotification(p) = &n.notification else {
                    return serde_json::to_vec(&msg).map_err(io::Error::other);
                };
                let NumberOrString::String(s) = &p.params.progress_token.0 else {
                    return serde_json::to_vec(&msg).map_err(io::Error::other);
                };
                let raw = self.lock().tokens.get(s).cloned();
                return match raw {
                    Some(raw) => with_raw(&msg, &["params", "progressToken"], &raw),
                    None => serde_json::to_vec(&msg).map_err(io::Error::other),
                };
            }
            JsonRpcMessage::Request(_) => None,
        };
        let Some(id) = id else {
            return serde_json::to_vec(&msg).map_err(io::Error::other);
        };
        let NumberOrString::Number(n) = *id else {
            tracing::warn!(%id, "a reply to a request the transport did not number");
            return serde_json::to_vec(&msg).map_err(io::Error::other);
        };
        let entry = {
            let mut st = self.lock();
            let e = match st.live.remove(&n) {
                Some(e) => Some(e),
                None => {
                    let at = st.cancelled.iter().position(|(c, _)| *c == n);
                    at.and_then(|i| st.cancelled.remove(i)).map(|(_, e)| e)
                }
            };
            if let Some(e) = &e {
                forget_token(&mut st, e);
            }
            if st.live.is_empty() {
                self.idle.notify_waiters();
            }
            e
        };
        match entry.map(|e| e.echo) {
            Some(Echo::Id(client)) => {
                *id = client;
                serde_json::to_vec(&msg).map_err(io::Error::other)
            }
            Some(Echo::Raw(raw)) => with_raw(&msg, &["id"], &raw),
            None => {
                tracing::warn!(
                    n,
                    "a reply to a request no longer known; answered with id null"
                );
                with_raw(&msg, &["id"], "null")
            }
        }
    }

    /// Returns once no request waits for its reply, or after `limit`. Cancelled requests are not
    /// waited for.
    pub(crate) async fn drained(&self, limit: Duration) -> bool {
        let wait = async {
            loop {
                let notified = self.idle.notified();
                tokio::pin!(notified);
                notified.as_mut().enable();
                if self.lock().live.is_empty() {
                    return;
                }
                notified.await;
            }
        };
        tokio::time::timeout(limit, wait).await.is_ok()
    }

    /// Requests waiting for their replies.
    pub(crate) fn waiting(&self) -> usize {
        self.lock().live.len()
    }
}

fn forget_token(st: &mut State, e: &Entry) {
    if let Some(t) = &e.token {
        st.tokens.remove(t);
    }
}

/// `msg` as a JSON line whose member at `path` (objects all the way) is the JSON text `raw`.
fn with_raw(msg: &ServerJsonRpcMessage, path: &[&str], raw: &str) -> io::Result<Vec<u8>> {
    let v = serde_json::to_value(msg).map_err(io::Error::other)?;
    let mut out = Vec::new();
    write_with_raw(&v, path, raw, &mut out).map_err(io::Error::other)?;
    Ok(out)
}

fn write_with_raw(
    v: &Value,
    path: &[&str],
    raw: &str,
    out: &mut Vec<u8>,
) -> serde_json::Result<()> {
    let Some((first, rest)) = path.split_first() else {
        out.extend_from_slice(raw.as_bytes());
        return Ok(());
    };
    let Value::Object(map) = v else {
        return serde_json::to_writer(out, v);
    };
    out.push(b'{');
    for (i, (k, member)) in map.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        serde_json::to_writer(&mut *out, k)?;
        out.push(b':');
        if k == first {
            write_with_raw(member, rest, raw, out)?;
        } else {
            serde_json::to_writer(&mut *out, member)?;
        }
    }
    out.push(b'}');
    Ok(())
}
