//! This process's stdin and stdout for `rootbound mcp`, each on a thread of its own.
//!
//! Tokio's `stdin()` and `stdout()` run every read and every write as a task on the blocking
//! pool: each request line cost a hand-off to a pool thread to read the next one, and each reply
//! a hand-off to write it and another back to learn it was flushed. Profiled on a loop of
//! `list_roots` calls, the server's time was almost all thread switches (futex waits and wakes).
//! Here one thread blocks in `read(2)` on stdin for good and passes what it read on; another
//! writes the reply lines it is given, in order. Both channels are bounded, so a client that stops
//! reading (or writing) holds back the server as a full pipe would, and memory stays bounded.

use std::io::{self, Read, Write};
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, ReadBuf};
use tokio::sync::mpsc;

/// Bytes read from stdin at once.
const CHUNK: usize = 64 * 1024;

/// Chunks read ahead of the server (at most this many times [`CHUNK`] bytes held).
const READ_AHEAD: usize = 4;

/// Reply lines waiting for the writer (each bounded by the largest reply).
const WRITE_QUEUE: usize = 16;

/// Stdin, read on a thread of its own (see the module's comment).
pub(crate) struct ThreadStdin {
    rx: mpsc::Receiver<io::Result<Vec<u8>>>,
    chunk: Vec<u8>,
    pos: usize,
}

impl ThreadStdin {
    /// Starts the reading thread. It ends at the end of the input, at an error, or when this
    /// reader is dropped and its next chunk has nowhere to go (a thread blocked in `read(2)`
    /// stays so until the input ends or the process exits, as with Tokio's own stdin).
    pub(crate) fn start() -> io::Result<ThreadStdin> {
        let (tx, rx) = mpsc::channel(READ_AHEAD);
        std::thread::Builder::new()
            .name("rootbound-mcp-stdin".into())
            .spawn(move || {
                let mut stdin = io::stdin().lock();
                let mut buf = vec![0u8; CHUNK];
                loop {
                    let sent = match stdin.read(&mut buf) {
                        Ok(0) => break,
                        Ok(n) => tx.blocking_send(Ok(buf[..n].to_vec())),
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                        Err(e) => {
                            let _ = tx.blocking_send(Err(e));
                            break;
                        }
                    };
                    if sent.is_err() {
                        break;
                    }
                }
            })?;
        Ok(ThreadStdin {
            rx,
            chunk: Vec::new(),
            pos: 0,
        })
    }
}

impl AsyncRead for ThreadStdin {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        out: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = &mut *self;
        if this.pos == this.chunk.len() {
            match this.rx.poll_recv(cx) {
                Poll::Pending => return Poll::Pending,
                // The end of the input: no bytes.
                Poll::Ready(None) => return Poll::Ready(Ok(())),
                Poll::Ready(Some(Err(e))) => return Poll::Ready(Err(e)),
                Poll::Ready(Some(Ok(c))) => {
                    this.chunk = c;
                    this.pos = 0;
                }
            }
        }
        let n = out.remaining().min(this.chunk.len() - this.pos);
        out.put_slice(&this.chunk[this.pos..this.pos + n]);
        this.pos += n;
        Poll::Ready(Ok(()))
    }
}

/// Stdout, written on a thread of its own (see the module's comment): lines sent here are
/// written whole and in order.
pub(crate) struct ThreadStdout {
    tx: mpsc::Sender<Vec<u8>>,
}

/// The writing thread: [`StdoutDone::wait`] lets it write what it was given before the process
/// exits.
pub(crate) struct StdoutDone(std::sync::mpsc::Receiver<()>);

impl ThreadStdout {
    /// Starts the writing thread. It ends when every [`ThreadStdout`] is dropped and its queue is
    /// written, or at the first write that fails (later sends then fail, and `closed` is raised).
    pub(crate) fn start(
        closed: std::sync::Arc<tokio::sync::watch::Sender<bool>>,
    ) -> io::Result<(ThreadStdout, StdoutDone)> {
        let (tx, mut rx) = mpsc::channel::<Vec<u8>>(WRITE_QUEUE);
        let (done_tx, done) = std::sync::mpsc::channel();
        std::thread::Builder::new()
            .name("rootbound-mcp-stdout".into())
            .spawn(move || {
                let _done = done_tx;
                let mut out = io::stdout().lock();
                while let Some(line) = rx.blocking_recv() {
                    if let Err(e) = out.write_all(&line).and_then(|()| out.flush()) {
                        tracing::error!(error = %e, "cannot write the MCP output");
                        closed.send_replace(true);
                        break;
                    }
                }
            })?;
        Ok((ThreadStdout { tx }, StdoutDone(done)))
    }

    /// Queues one line (its newline included), waiting while the queue is full.
    pub(crate) async fn send(&self, line: Vec<u8>) -> io::Result<()> {
        self.tx
            .send(line)
            .await
            .map_err(|_| io::Error::new(io::ErrorKind::BrokenPipe, "the MCP output is closed"))
    }
}

impl StdoutDone {
    /// Waits (at most `limit`) for the writing thread to have written its queue and ended.
    pub(crate) fn wait(self, limit: Duration) {
        let _ = self.0.recv_timeout(limit);
    }
}
