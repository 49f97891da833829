//! Request and response bodies of the HTTP door: a request body is read whole, up to a size and
//! within a time, before rmcp sees it; a response body holds the caller's slot until it is sent, and
//! tells when the client went away before the end.

use super::ids::Swaps;
use http_body_util::{combinators::BoxBody, BodyExt, Limited};
use hyper::body::{Body, Bytes, Frame, Incoming, SizeHint};
use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

/// Why a request body was not read.
pub(super) enum BodyError {
    /// Larger than the limit (said by `Content-Length`, or found while reading).
    TooLarge,
    /// Not all of it came within the time.
    TooSlow,
    /// The connection failed while reading it.
    Broken,
}

/// The whole body of a request, when it is at most `max` bytes and arrives within `within`. A body
/// whose `Content-Length` is over the limit is refused before a byte of it is read.
pub(super) async fn read_whole(
    declared: Option<u64>,
    body: Incoming,
    max: usize,
    within: Duration,
) -> Result<Bytes, BodyError> {
    if declared.is_some_and(|n| n > max as u64) {
        return Err(BodyError::TooLarge);
    }
    let read = Limited::new(body, max).collect();
    match tokio::time::timeout(within, read).await {
        Err(_) => Err(BodyError::TooSlow),
        Ok(Ok(collected)) => Ok(collected.to_bytes()),
        Ok(Err(e)) if e.is::<http_body_util::LengthLimitError>() => Err(BodyError::TooLarge),
        Ok(Err(_)) => Err(BodyError::Broken),
    }
}

/// A response body that keeps `hold` (the caller's slot) until it is dropped, runs `abandoned`
/// when it is dropped before its end (the client closed the stream while the call ran), and puts
/// the client's ids back in place of their stand-ins (`swaps`) in each frame.
pub(super) struct Held<H> {
    inner: BoxBody<Bytes, Infallible>,
    _hold: H,
    abandoned: Option<Box<dyn FnOnce() + Send + Sync>>,
    /// Boxed, and only when there is something to put back: most responses have nothing.
    swaps: Option<Box<Swaps>>,
}

impl<H> Held<H> {
    pub(super) fn new(
        inner: BoxBody<Bytes, Infallible>,
        hold: H,
        abandoned: Option<Box<dyn FnOnce() + Send + Sync>>,
    ) -> Self {
        Held {
            inner,
            _hold: hold,
            abandoned,
            swaps: None,
        }
    }

    pub(super) fn with_swaps(mut self, swaps: Swaps) -> Self {
        self.swaps = (!swaps.is_empty()).then(|| Box::new(swaps));
        self
    }
}

impl<H: Unpin> Body for Held<H> {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        let polled = Pin::new(&mut self.inner).poll_frame(cx);
        // Sent to the end (hyper may stop polling once the body says it has ended): nothing was
        // abandoned.
        if matches!(polled, Poll::Ready(None)) || self.inner.is_end_stream() {
            self.abandoned = None;
        }
        let Some(swaps) = &self.swaps else {
            return polled;
        };
        // rmcp writes each message as one frame (one SSE event, or the whole JSON body).
        polled.map(|f| f.map(|f| f.map(|frame| frame.map_data(|d| swaps.apply(d)))))
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

impl<H> Drop for Held<H> {
    fn drop(&mut self) {
        if let Some(f) = self.abandoned.take() {
            f();
        }
    }
}
