//! The stdio transport of `rootbound mcp`: newline-delimited JSON-RPC, read and checked here before
//! rmcp sees it, so that every request line gets a reply.
//!
//! rmcp's own stdio transport drops a line that is not JSON (or nests deeper than serde_json's 128
//! levels) without a word, answers a malformed request with an `Invalid request` that has no id, and
//! turns a known method with malformed params (a `tools/call` whose `arguments` is an array) into a
//! custom request that it answers with "method not found". A client waiting on such an id hangs or
//! is misled. Here each line is parsed as a [`Value`] first and then:
//!
//! * not JSON, or a line over `max_request_bytes` ([`MAX_LINE`] by default): `-32700` with
//!   `id: null`, the line skipped without being held, so the next line is read as the next
//!   request;
//! * a line whose parsed tree would take more than the call's memory budget (`max_call_memory`;
//!   told from the line by one pass over its bytes, [`cost`]): `-32600` with the id, unparsed;
//! * JSON nested deeper than serde_json's recursion limit: read once more without recursion
//!   ([`scan_top_level`]); a request with a readable id gets `-32600` with that id, anything else
//!   that is not JSON `-32700`;
//! * JSON that serde_json does not take for a number out of range (`-1e400`): read the same way;
//! * not a JSON-RPC request (no `"jsonrpc": "2.0"`, a method that is not a string, an id that is not
//!   a string or an integer, a batch): `-32600` with the id when it can be read, else `null`;
//! * params of a known method that do not fit it (`tools/call` without a tool name, `params` that
//!   is not an object, ...): `-32602` with the id;
//! * a `tools/call` whose `arguments` is neither an object nor null: passed on without them, the
//!   value riding along as [`BadArguments`] so the handler reports an `INVALID_ARGUMENT` tool error
//!   like any other argument error;
//! * a notification (no `id`) is never answered, valid or not; a response from the client is never
//!   answered either.
//!
//! Every reply names its request exactly as the client wrote the id (`18446744073709551621`, a
//! 30-digit integer, `"\u00e9"` as the same string), and a progress notification its token likewise:
//! see [`ids`]. A reply whose id cannot be read says `null`.
//!
//! When the input ends, rmcp is told only once every request passed to it has been answered
//! (each within its own budget; at most [`DRAIN_LIMIT`] in all): rmcp's own wait for calls in flight
//! at the end of the input is 5 seconds, after which their replies were lost.
//!
//! Replies written here and rmcp's responses go through one writer under one lock, so lines never
//! interleave. Reading happens on its own task, so nothing here is cancelled half-way when rmcp's
//! loop drops a pending `receive`.

mod cost;
mod ids;
mod json;
mod scan;
mod stdio;
#[cfg(test)]
mod tests;

pub(crate) use cost::value_bytes;
use ids::InFlight;
#[cfg(feature = "http")] // for the HTTP door's id stand-ins
pub(crate) use ids::{id_stand_in, Echo, Track};
use rmcp::model::{ClientJsonRpcMessage, ClientRequest, JsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::Transport;
use rmcp::RoleServer;
pub(crate) use scan::{classify, Inbound};
use scan::{error_reply, PARSE_ERROR};
pub(crate) use scan::{Arguments, BadArguments};
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::{mpsc, Mutex};

/// The longest line read by default (its newline included; limit `max_request_bytes`); a longer
/// one is answered with `-32700` and skipped without being held in memory.
pub(crate) const MAX_LINE: usize = 16 * 1024 * 1024;

/// When the input ends, the longest wait for the replies of the requests still running. A call
/// stops at its own deadline (`limits.timeout`), so this is only a backstop against a call that
/// waits on something else (a client that never answers the server's own request).
pub(crate) const DRAIN_LIMIT: Duration = Duration::from_secs(600);
// ---------------------------------------------------------------------------------------------------
// The transport

type Writer = Pin<Box<dyn AsyncWrite + Send>>;

pub(crate) use stdio::StdoutDone;

/// Where the lines go: any async writer, or this process's stdout on a thread of its own.
enum Sink {
    Async(Writer),
    Thread(stdio::ThreadStdout),
}

/// The output side, shared by rmcp's responses and the replies written here.
struct Output {
    writer: Mutex<Option<Sink>>,
    /// Raised when a write fails (the client closed its end: EPIPE): no reply can reach the
    /// client any more, so the session ends as at the end of the input.
    closed: Arc<tokio::sync::watch::Sender<bool>>,
}

impl Output {
    /// Writes one message and its newline, then flushes, under the lock (stdout's thread
    /// writes and flushes each line in the order given).
    async fn write_line(&self, mut line: Vec<u8>) -> io::Result<()> {
        line.push(b'\n');
        let mut guard = self.writer.lock().await;
        let wrote = match guard.as_mut() {
            None => {
                return Err(io::Error::new(
                    io::ErrorKind::NotConnected,
                    "the transport is closed",
                ))
            }
            Some(Sink::Thread(t)) => t.send(line).await,
            Some(Sink::Async(w)) => match w.write_all(&line).await {
                Ok(()) => w.flush().await,
                Err(e) => Err(e),
            },
        };
        if wrote.is_err() {
            self.closed.send_replace(true);
        }
        wrote
    }
}

/// A line read by [`LineReader::next`].
enum Read {
    /// A line is in the buffer (without its newline). The last line may lack one.
    Line,
    /// A line longer than the limit; it is being skipped.
    TooLong,
    /// End of input.
    Eof,
}

struct LineReader<R> {
    read: BufReader<R>,
    buf: Vec<u8>,
    max: usize,
    /// Inside a line that was too long, until its newline.
    discarding: bool,
}

impl<R: AsyncRead + Unpin> LineReader<R> {
    async fn next(&mut self) -> io::Result<Read> {
        self.buf.clear();
        loop {
            let avail = self.read.fill_buf().await?;
            if avail.is_empty() {
                let last = !self.discarding && !self.buf.is_empty();
                self.discarding = false;
                return Ok(if last { Read::Line } else { Read::Eof });
            }
            let newline = memchr::memchr(b'\n', avail);
            let take = newline.map_or(avail.len(), |i| i + 1);
            if self.discarding {
                self.read.consume(take);
                self.discarding = newline.is_none();
                continue;
            }
            if self.buf.len() + take > self.max {
                self.buf.clear();
                self.read.consume(take);
                self.discarding = newline.is_none();
                return Ok(Read::TooLong);
            }
            self.buf.extend_from_slice(&avail[..take]);
            self.read.consume(take);
            if newline.is_some() {
                self.buf.pop();
                return Ok(Read::Line);
            }
        }
    }
}

/// Reads lines until the input ends or the service stops listening: messages go to rmcp, replies
/// straight to the output.
///
/// Until the client has sent a request that can start the session (anything but `ping` and
/// `server/discover`), notifications and responses are dropped: rmcp ends the whole session when
/// one arrives before `initialize`, and every later request would go unanswered.
async fn read_loop<R: AsyncRead + Unpin>(
    mut lines: LineReader<R>,
    to_service: mpsc::Sender<ClientJsonRpcMessage>,
    out: Arc<Output>,
    ids: Arc<InFlight>,
    room: u64,
    drain_limit: Duration,
    ended: tokio::sync::watch::Sender<bool>,
) {
    let mut started = false;
    loop {
        let inbound = match lines.next().await {
            Ok(Read::Line) => classify(&lines.buf, room),
            Ok(Read::TooLong) => error_reply(
                "null",
                PARSE_ERROR,
                format!(
                    "parse error: the request is longer than {} bytes, the server's \
                     max_request_bytes (raise it with --max-request-bytes, or \
                     `max_request_bytes` in the config file's limits); it was skipped unread",
                    lines.max
                ),
            ),
            Ok(Read::Eof) => break,
            Err(e) => {
                tracing::error!(error = %e, "cannot read the MCP input");
                break;
            }
        };
        match inbound {
            Inbound::Message(m, track) => {
                let Some(m) = ids.inbound(*m, track) else {
                    tracing::debug!("ignored the cancellation of a request not in flight");
                    continue;
                };
                match &m {
                    JsonRpcMessage::Request(r) => {
                        started |= !matches!(
                            r.request,
                            ClientRequest::PingRequest(_) | ClientRequest::DiscoverRequest(_)
                        );
                    }
                    _ if !started => {
                        tracing::debug!("ignored a notification or response before initialize");
                        continue;
                    }
                    _ => {}
                }
                if to_service.send(m).await.is_err() {
                    break;
                }
            }
            Inbound::Reply(r) => {
                tracing::warn!(
                    id = %r.id,
                    code = r.error.code,
                    message = %r.error.message,
                    "answered a malformed JSON-RPC message"
                );
                if let Err(e) = out.write_line(r.to_line()).await {
                    tracing::error!(error = %e, "cannot write the MCP output");
                    break;
                }
            }
            Inbound::Ignore(why) => tracing::debug!(why, "ignored an input line"),
        }
    }
    // The input ended: rmcp learns it (and stops) once every request it was given is answered.
    // Calls waiting for an answer of the client's stop waiting now (see `roots`).
    ended.send_replace(true);
    let waiting = ids.waiting();
    if waiting > 0 {
        tracing::info!(waiting, "input ended; finishing the calls in flight");
        if !ids.drained(drain_limit).await {
            tracing::warn!(
                waiting = ids.waiting(),
                "input ended; gave up waiting for calls in flight"
            );
        }
    }
}

/// Newline-delimited JSON-RPC over a reader and a writer, as an rmcp server transport: every line
/// is checked before rmcp sees it, and each one that is not a valid request (not JSON, longer than
/// 16 MiB, not JSON-RPC, bad params of a known method) is answered at once with the JSON-RPC error
/// and its id, where rmcp's own stdio transport would drop it or answer without an id.
pub struct LineTransport {
    inbound: mpsc::Receiver<ClientJsonRpcMessage>,
    out: Arc<Output>,
    ids: Arc<InFlight>,
    reader: tokio::task::JoinHandle<()>,
    /// Raised when the input ends (before the calls in flight are finished).
    ended: tokio::sync::watch::Receiver<bool>,
}

impl std::fmt::Debug for LineTransport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LineTransport").finish_non_exhaustive()
    }
}

impl LineTransport {
    /// Starts reading `read` on a task of the current Tokio runtime (so it must be called inside
    /// one); messages are written to `write`.
    pub fn new<R, W>(read: R, write: W) -> Self
    where
        R: AsyncRead + Unpin + Send + 'static,
        W: AsyncWrite + Send + 'static,
    {
        let room = crate::Limits::default().max_call_memory;
        Self::with_limits(read, write, MAX_LINE, room, DRAIN_LIMIT)
    }

    /// [`LineTransport::new`] with other limits on the length of a line (`max_request_bytes`), on
    /// the memory its parse may take (`room`: the call's memory budget, `max_call_memory`) and on
    /// the wait for calls in flight when the input ends.
    pub(crate) fn with_limits<R, W>(
        read: R,
        write: W,
        max_line: usize,
        room: u64,
        drain: Duration,
    ) -> Self
    where
        R: AsyncRead + Unpin + Send + 'static,
        W: AsyncWrite + Send + 'static,
    {
        let closed = Arc::new(tokio::sync::watch::channel(false).0);
        Self::with_sink(
            read,
            Sink::Async(Box::pin(write)),
            max_line,
            room,
            drain,
            closed,
        )
    }

    /// [`LineTransport::with_limits`] on this process's stdin and stdout, each read or written
    /// on a thread of its own (see `stdio`); wait on the [`StdoutDone`] before the process exits.
    pub(crate) fn stdio(
        max_line: usize,
        room: u64,
        drain: Duration,
    ) -> io::Result<(Self, StdoutDone)> {
        let read = stdio::ThreadStdin::start()?;
        let closed = Arc::new(tokio::sync::watch::channel(false).0);
        let (write, done) = stdio::ThreadStdout::start(Arc::clone(&closed))?;
        let t = Self::with_sink(read, Sink::Thread(write), max_line, room, drain, closed);
        Ok((t, done))
    }

    fn with_sink<R>(
        read: R,
        sink: Sink,
        max_line: usize,
        room: u64,
        drain: Duration,
        closed: Arc<tokio::sync::watch::Sender<bool>>,
    ) -> Self
    where
        R: AsyncRead + Unpin + Send + 'static,
    {
        let out = Arc::new(Output {
            writer: Mutex::new(Some(sink)),
            closed,
        });
        let (tx, inbound) = mpsc::channel(16);
        let lines = LineReader {
            read: BufReader::with_capacity(64 * 1024, read),
            buf: Vec::new(),
            max: max_line,
            discarding: false,
        };
        let ids = Arc::new(InFlight::default());
        let (ended_tx, ended) = tokio::sync::watch::channel(false);
        let reader = tokio::spawn(read_loop(
            lines,
            tx,
            Arc::clone(&out),
            Arc::clone(&ids),
            room,
            drain,
            ended_tx,
        ));
        LineTransport {
            inbound,
            out,
            ids,
            reader,
            ended,
        }
    }

    /// Becomes `true` when the input ends: nothing the client would send (its answer to a
    /// request of the server's, such as `roots/list`) comes after that.
    pub(crate) fn input_ended(&self) -> tokio::sync::watch::Receiver<bool> {
        self.ended.clone()
    }
}

impl Drop for LineTransport {
    fn drop(&mut self) {
        self.reader.abort();
    }
}

impl Transport<RoleServer> for LineTransport {
    type Error = io::Error;

    fn send(
        &mut self,
        item: ServerJsonRpcMessage,
    ) -> impl std::future::Future<Output = io::Result<()>> + Send + 'static {
        let out = Arc::clone(&self.out);
        let line = self.ids.outbound(item);
        async move { out.write_line(line?).await }
    }

    async fn receive(&mut self) -> Option<ClientJsonRpcMessage> {
        // Once the output is closed no reply can be delivered: the session ends at once, its
        // calls in flight cancelled, rather than run them and every later one for nobody.
        let mut closed = self.out.closed.subscribe();
        tokio::select! {
            m = self.inbound.recv() => m,
            _ = closed.wait_for(|c| *c) => {
                tracing::warn!("the MCP output is closed (the client stopped reading): the session ends");
                None
            }
        }
    }

    async fn close(&mut self) -> io::Result<()> {
        self.reader.abort();
        self.inbound.close();
        self.out.writer.lock().await.take();
        Ok(())
    }
}
