//! The adapter that hosts a typed computer player (one of `ai`'s, choosing over its rules
//! crate's `Game`) behind `DynPlayer`, the one way every registered system but Napoleon at War
//! hands its players to the server, the CLI and the arena.

use engine::dynamic::{DynGame, DynPlayer, Hosted};
use engine::Rules;
use std::marker::PhantomData;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// A computer player over the typed game `R`.
pub(crate) trait TypedPlayer<R: Rules> {
    /// Its choice, `None` when it has none (the host then plays nothing).
    fn pick(&mut self, g: &R) -> Option<R::Action>;
    /// Its name as the players list spells it.
    fn name(&self) -> String;
    /// The sentence of the plan its last choice belongs to, if new.
    fn explain(&self) -> Option<String>;
    /// Stops its thinking when `flag` is set (a player that does not search ignores it).
    fn stop_on(&mut self, _flag: Arc<AtomicBool>) {}
}

/// `T`, a player of `R`, over the hosted game `Hosted<R, P>`.
pub(crate) struct Typed<R, P, T> {
    player: T,
    game: PhantomData<fn() -> (R, P)>,
}

impl<R, P, T> Typed<R, P, T> {
    /// Hosts `player`.
    pub(crate) fn new(player: T) -> Self {
        Typed {
            player,
            game: PhantomData,
        }
    }
}

impl<R: Rules + 'static, P: 'static, T: TypedPlayer<R> + Send> DynPlayer for Typed<R, P, T> {
    fn choose(&mut self, game: &dyn DynGame) -> String {
        let Some(h) = game.as_any().downcast_ref::<Hosted<R, P>>() else {
            // not a game of this system: the first legal action
            return game
                .legal()
                .first()
                .map(|a| a.text.clone())
                .unwrap_or_default();
        };
        let g = &h.session.game;
        self.player
            .pick(g)
            .map(|a| g.action_text(a))
            .unwrap_or_default()
    }

    fn name(&self) -> String {
        self.player.name()
    }

    fn explain(&self) -> Option<String> {
        self.player.explain()
    }

    fn stop_on(&mut self, flag: Arc<AtomicBool>) {
        self.player.stop_on(flag);
    }
}
