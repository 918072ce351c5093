//! Issue 10, defect 2: the obligation search (7.11, 7.12, 8.41) and the displacement chain
//! search (7.81, 7.82) hold their promises at any size: no declaration that strands an
//! obligation is accepted however many combats are declared, and a chain of displacement of
//! any length is found.

mod common;
use common::*;
use engine::{Dice, Rules, ToAct};
use naw::{Action, Game, Step};

/// Blue attacks in every pocket; each pocket of `fillers` holds a declared-to-be combat and a
/// Blue unit that can only join it. One more pocket (`Y`, `A`, `D`, `X` in a row) is the trap:
/// if `A` attacks `D`, then `X` can only join that combat as an attacker and `Y` only as a
/// defender, and no combat takes both.
fn pockets(fillers: usize) -> Build {
    let mut b = Build::new(21, 30);
    for i in 0..fillers {
        let row = 1 + 2 * (i / 3);
        let col = 1 + 10 * (i % 3);
        b = b
            .unit(&format!("B.a{i} inf 6-4 {row:02}{col:02}"))
            .unit(&format!("R.d{i} inf 3-4 {row:02}{:02}", col + 1))
            .unit(&format!("B.x{i} inf 6-4 {row:02}{:02}", col + 2));
    }
    b.unit("R.Y inf 3-4 2104")
        .unit("B.A inf 6-4 2105")
        .unit("R.D inf 3-4 2106")
        .unit("B.X inf 6-4 2107")
}

/// The game at Blue's declarations, each filler combat declared.
fn declared(fillers: usize) -> Game {
    let mut g = pockets(fillers).game();
    act(&mut g, "end");
    assert_eq!(g.step(), Step::Declare);
    for i in 0..fillers {
        act(&mut g, &format!("attack B.a{i} R.d{i}"));
    }
    g
}

#[test]
fn ruling_7_11_a_stranding_declaration_is_refused_below_the_old_cap() {
    let g = declared(3);
    let case = refused(&g, "attack B.A R.D");
    assert!(case == "7.11" || case == "7.12", "{case}");
}

#[test]
fn ruling_7_11_a_stranding_declaration_is_refused_past_sixteen_combats() {
    // 20 declared combats that the open obligations could join, and the trap's
    for fillers in [16, 17, 20, 30] {
        let g = declared(fillers);
        assert_eq!(g.combats().len(), fillers);
        let case = refused(&g, "attack B.A R.D");
        assert!(case == "7.11" || case == "7.12", "{fillers}: {case}");
        assert!(!legal_texts(&g).contains(&"attack B.A R.D".to_string()));
        // the other way round is open, and leads to the end of the declarations
        let mut g = g;
        for i in 0..fillers {
            act(&mut g, &format!("attack B.x{i} R.d{i}"));
        }
        acts(&mut g, &["attack B.X R.D", "attack B.A R.Y", "end"]);
        assert_eq!(g.step(), Step::Choose);
    }
}

/// Random declarations until none is legal: `end` must then be legal (no dead ends).
fn declare_randomly(mut g: Game, seed: u64) {
    let mut pick = Dice::new(seed);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        g.legal_actions(&mut buf);
        let attacks: Vec<Action> = buf
            .iter()
            .copied()
            .filter(|a| matches!(a, Action::Attack { .. }))
            .collect();
        if attacks.is_empty() {
            assert!(
                buf.contains(&Action::End),
                "seed {seed}: a dead end: no attack is legal and obligations are open: {:?}",
                g.open_obligations()
                    .iter()
                    .map(|&(u, _)| g.id(u).to_string())
                    .collect::<Vec<_>>()
            );
            g.apply(Action::End).unwrap();
            return;
        }
        let a = attacks[(pick.next_u64() % attacks.len() as u64) as usize];
        g.apply(a).unwrap();
    }
}

#[test]
fn ruling_7_11_random_declarations_never_reach_a_dead_end_past_sixteen_combats() {
    let g = declared(20);
    for seed in 0..40 {
        declare_randomly(g.clone(), seed);
    }
    // and from the start of the phase, with every pocket still open
    let mut g = pockets(20).game();
    act(&mut g, "end");
    for seed in 0..40 {
        declare_randomly(g.clone(), seed);
    }
}

/// A one-row map: Blue at 0101 attacks Red at 0102, behind which stand `n` Red units in a
/// line with open ground beyond.
fn column_of(n: usize) -> Game {
    let mut b = Build::new(1, n as i16 + 6)
        .unit("B.1 inf 30-4 0101")
        .unit("R.0 inf 1-4 0102");
    for i in 0..n {
        b = b.unit(&format!("R.{} inf 2-4 01{:02}", i + 1, i + 3));
    }
    let mut g = b.game();
    acts(&mut g, &["end", "attack B.1 R.0", "end", "resolve R.0"]);
    assert_eq!(g.to_act(), ToAct::Chance);
    act(&mut g, "roll 4"); // 6-1, die 4: Dr (7.6)
    g
}

#[test]
fn ruling_7_82_a_chain_of_displacement_of_any_length_is_found() {
    for n in [3, 24, 25, 28, 40] {
        let mut g = column_of(n);
        assert!(
            !gone(&g, "R.0"),
            "{n}: R.0 was eliminated instead of displacing"
        );
        // 7.81: each unit of the line is pushed one hex on, the last into the open
        let mut steps = 0;
        while g.step() == Step::Retreat {
            let legal = legal_texts(&g);
            assert_eq!(legal.len(), 1, "{n}: {legal:?}");
            act(&mut g, &legal[0]);
            steps += 1;
        }
        assert_eq!(steps, n + 1);
        for i in 0..=n {
            assert!(!gone(&g, &format!("R.{i}")), "{n}: R.{i}");
            assert_eq!(
                at(&g, &format!("R.{i}")),
                Some(h(&format!("01{:02}", i + 3)))
            );
        }
    }
}

#[test]
fn obligation_kinds_print_the_cases_views_and_refusals_always_printed() {
    use naw::ObligationKind::*;
    assert_eq!(MustBeAttacked.case(), "7.11");
    assert_eq!(MustAttack.case(), "7.12");
    assert_eq!(ArtilleryMustFire.case(), "8.41");
    assert_eq!(MustAttack.to_string(), "7.12");
    // the open obligations of a new combat phase, as views list them
    let mut g = Build::new(6, 6)
        .unit("B.1 inf 6-4 0303")
        .unit("B.2 art 3-4 0304")
        .unit("R.1 inf 6-4 0403")
        .game();
    act(&mut g, "end");
    let open: Vec<(String, &str)> = g
        .open_obligations()
        .into_iter()
        .map(|(u, k)| (g.id(u).to_string(), k.case()))
        .collect();
    assert_eq!(
        open,
        [
            ("B.1".to_string(), "7.12"),
            ("B.2".to_string(), "8.41"),
            ("R.1".to_string(), "7.11")
        ]
    );
}
