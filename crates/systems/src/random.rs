//! The random player every registered system offers, over its typed game.

use engine::dynamic::{DynGame, DynPlayer, Hosted};
use engine::{Dice, Rules};
use std::marker::PhantomData;

/// Uniformly random legal actions: `ai::AnyRandom`'s choices (the same draw over the same
/// list, in the rules' order), read from the typed game `Hosted<R, P>` rather than from its
/// structured legal actions, which it need not build.
pub(crate) struct TypedRandom<R, P> {
    dice: Dice,
    game: PhantomData<fn() -> (R, P)>,
}

impl<R, P> TypedRandom<R, P> {
    /// A random player drawing from `seed`.
    pub(crate) fn new(seed: u64) -> Self {
        TypedRandom {
            dice: Dice::new(seed),
            game: PhantomData,
        }
    }
}

impl<R: Rules + 'static, P: 'static> DynPlayer for TypedRandom<R, P> {
    fn choose(&mut self, game: &dyn DynGame) -> String {
        let Some(h) = game.as_any().downcast_ref::<Hosted<R, P>>() else {
            // not a game of this system: the generic player's way
            let legal = game.legal();
            let i = self.dice.draw(&vec![1; legal.len()]).unwrap_or(0);
            return legal.get(i).map(|a| a.text.clone()).unwrap_or_default();
        };
        let g = &h.session.game;
        let mut legal = Vec::new();
        if matches!(g.to_act(), engine::ToAct::Side(_)) {
            g.legal_actions(&mut legal);
        }
        let i = self.dice.draw(&vec![1; legal.len()]).unwrap_or(0);
        legal.get(i).map(|&a| g.action_text(a)).unwrap_or_default()
    }

    fn name(&self) -> String {
        "random".into()
    }
}
