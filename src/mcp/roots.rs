//! `--client-roots`: the roots the client announces (`roots/list` after initialization, again on
//! `notifications/roots/list_changed`) narrow the operator's tools through
//! [`AgentTools::narrowed`], which never widens them. When the client announces roots, calls wait
//! for the first narrowing and for any pending `roots/list` (up to [`WAIT`], or until the client's
//! input ends: no answer can come after that); when the client does not answer, the previous set
//! stays.

use crate::config::AgentTools;
use rmcp::service::Peer;
use rmcp::RoleServer;
use std::sync::{Arc, RwLock};
use std::time::Duration;

/// How long a call waits for a pending `roots/list`, and how long that request may take.
const WAIT: Duration = Duration::from_secs(10);

/// The operator's tools, the narrowed set now served, and whether a narrowing is pending.
#[derive(Clone)]
pub(super) struct ClientRoots {
    operator: Arc<AgentTools>,
    current: Arc<RwLock<Arc<AgentTools>>>,
    ready: Arc<tokio::sync::watch::Sender<bool>>,
    /// Raised when the client's input has ended: no answer to a pending `roots/list` can come,
    /// so calls stop waiting for it (the session then ends once they are answered).
    gone: Arc<tokio::sync::watch::Sender<bool>>,
}

impl ClientRoots {
    pub(super) fn new(operator: &Arc<AgentTools>) -> Self {
        ClientRoots {
            operator: Arc::clone(operator),
            current: Arc::new(RwLock::new(Arc::clone(operator))),
            // Not narrowed yet: a client that announces roots waits for the first narrowing (its
            // first call may overtake notifications/initialized).
            ready: Arc::new(tokio::sync::watch::channel(false).0),
            gone: Arc::new(tokio::sync::watch::channel(false).0),
        }
    }

    /// Follows the client's input: once `ended` says it has ended, calls stop waiting for a
    /// narrowing (they are served as after a `roots/list` that timed out: the served roots stay).
    pub(super) fn follow_input(&self, mut ended: tokio::sync::watch::Receiver<bool>) {
        let gone = Arc::clone(&self.gone);
        tokio::spawn(async move {
            if ended.wait_for(|e| *e).await.is_ok() {
                gone.send_replace(true);
            }
        });
    }

    /// The tools to serve a call with: for a client that announces roots, after the first (or a
    /// pending) narrowing, or [`WAIT`], or the end of the client's input.
    pub(super) async fn current(&self, peer: &Peer<RoleServer>) -> Arc<AgentTools> {
        if announces(peer) {
            let mut rx = self.ready.subscribe();
            let mut gone = self.gone.subscribe();
            let ended = tokio::select! {
                _ = tokio::time::timeout(WAIT, rx.wait_for(|r| *r)) => false,
                _ = gone.wait_for(|g| *g) => true,
            };
            if ended && !*self.ready.borrow() {
                tracing::warn!(
                    "the input ended before the client's roots came: the served roots stay"
                );
            }
        }
        match self.current.read() {
            Ok(g) => Arc::clone(&g),
            Err(p) => Arc::clone(&p.into_inner()),
        }
    }

    /// Asks the client for its roots (when it announced the capability) and narrows to them.
    pub(super) fn refresh(&self, peer: Peer<RoleServer>) {
        if !announces(&peer) {
            tracing::info!("the client does not offer roots: serving the operator's roots");
            return;
        }
        self.ready.send_replace(false);
        let me = self.clone();
        tokio::spawn(async move {
            #[allow(deprecated)]
            let answer = tokio::time::timeout(WAIT, peer.list_roots()).await;
            match answer {
                Ok(Ok(list)) => {
                    #[allow(deprecated)]
                    let paths: Vec<std::path::PathBuf> = list
                        .roots
                        .iter()
                        .filter_map(|r| crate::file_uri_path(&r.uri))
                        .collect();
                    let narrowed = me.operator.narrowed(&paths);
                    let served: Vec<_> = narrowed
                        .sandboxes()
                        .iter()
                        .flat_map(|s| s.roots())
                        .map(|(_, p)| p)
                        .collect();
                    tracing::info!(client = ?paths, ?served, "roots narrowed by the client's roots");
                    match me.current.write() {
                        Ok(mut g) => *g = Arc::new(narrowed),
                        Err(p) => *p.into_inner() = Arc::new(narrowed),
                    }
                }
                Ok(Err(e)) => {
                    tracing::warn!(error = %e, "roots/list failed: the served roots stay")
                }
                Err(_) => tracing::warn!("roots/list timed out: the served roots stay"),
            }
            me.ready.send_replace(true);
        });
    }
}

/// Whether the client announced the roots capability.
fn announces(peer: &Peer<RoleServer>) -> bool {
    peer.peer_info()
        .is_some_and(|i| i.capabilities.roots.is_some())
}
