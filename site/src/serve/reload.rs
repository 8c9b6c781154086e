//! Reloading what a server serves without stopping it (`lexq serve` on
//! SIGHUP, [`super::Server::reload`]).
//!
//! What is served is one *generation*: the lexicon, the site, and the
//! application (router, layers, `ETag` seed, cost statistics) over them.
//! A request takes the current generation when it starts and keeps it
//! until it is answered, so a request never sees half of one and half of
//! the next; a reload opens and checks the new files first (the site's
//! checksums, its lexicon's structure and fingerprint: the same checks as
//! at start), builds the new generation beside the old, and then puts it
//! in place in one step, for the requests that start after it. A new site
//! that fails a check is refused and the old generation keeps serving.
//!
//! The old generation, with the files it maps, is dropped when the last
//! request that took it ends: no file of a replaced site stays open.
//! What is not about the data is shared by every generation: the pools,
//! what each client holds, the connection policy, the metrics.

use std::sync::{Arc, Mutex, RwLock};

use lexq::Lexicon;

use super::{AppState, Serving, cost, headers, router};
use crate::error::SiteError;
use crate::search::Site;

/// One generation: the state and the application over it.
struct Generation {
    state: AppState,
    app: axum::Router,
}

/// What a server serves now (see the module's notes).
pub(crate) struct Current {
    now: RwLock<Arc<Generation>>,
    /// Held through a reload, so that two at once build on each other.
    reloading: Mutex<()>,
}

impl Current {
    /// The first generation: `state` and its router.
    pub(crate) fn new(state: AppState) -> Current {
        let app = router(state.clone());
        Current::with_app(state, app)
    }

    /// The first generation with the application given (tests).
    pub(crate) fn with_app(state: AppState, app: axum::Router) -> Current {
        Current {
            now: RwLock::new(Arc::new(Generation { state, app })),
            reloading: Mutex::new(()),
        }
    }

    fn generation(&self) -> Arc<Generation> {
        self.now.read().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// The application of the current generation, for one request: it
    /// holds the generation's data until the request is answered.
    pub(crate) fn app(&self) -> axum::Router {
        self.generation().app.clone()
    }

    /// The current generation's state.
    pub(crate) fn state(&self) -> AppState {
        self.generation().state.clone()
    }

    /// Serves `lex` and `site` from the next request on, once `site`
    /// (opened, so its checksums checked) is found to be built from
    /// `lex`'s word list; an error, and nothing changed, if not. The
    /// reload is counted in the metrics either way.
    pub(crate) fn replace(&self, lex: Lexicon, site: Option<Site>) -> Result<(), SiteError> {
        let _one = self.reloading.lock().unwrap_or_else(|p| p.into_inner());
        let old = self.state();
        let checked = match &site {
            Some(s) => s.check_lexicon(&lex),
            None => Ok(()),
        };
        old.ops.metrics.reloaded(checked.is_ok());
        checked?;
        let state = old.next_generation(lex, site);
        let app = router(state.clone());
        let new = Arc::new(Generation { state, app });
        let replaced = std::mem::replace(
            &mut *self.now.write().unwrap_or_else(|p| p.into_inner()),
            new,
        );
        // Dropped here unless a request still holds it (then with its
        // last request).
        drop(replaced);
        Ok(())
    }
}

impl AppState {
    /// A state over `lex` and `site` sharing everything of `self` that is
    /// not about the data (limits, options, pools, clients, metrics); what
    /// is about the data is made anew as [`AppState::new`] makes it.
    fn next_generation(&self, lex: Lexicon, site: Option<Site>) -> AppState {
        lex.prepare_walks();
        if let Some(site) = &site {
            let _ = site.frequencies();
        }
        let stats = cost::Stats::of(&lex);
        let licence = site.as_ref().and_then(Site::licence).map(Into::into);
        let mut state = AppState {
            lex: Arc::new(lex),
            site: site.map(Arc::new),
            serving: Arc::new(Serving {
                pools: self.serving.pools.clone(),
                clients: self.serving.clients.clone(),
                stats,
                etag_seed: 0,
                licence,
                ranks: Default::default(),
                sitemaps: Default::default(),
            }),
            ..self.clone()
        };
        let seed = headers::seed(&state);
        Arc::get_mut(&mut state.serving)
            .expect("not shared yet")
            .etag_seed = seed;
        state
    }
}
