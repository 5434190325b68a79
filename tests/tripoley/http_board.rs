//! The board on a Tripoley game's page is the board after the last step
//! recorded, the same fold as the balances beside it, on both databases: a
//! round kept step by step, each step's page read back — the board's nine
//! sections (the antes on each, the Jack and King-Queen carried over while
//! the betting runs, each bet on the Pot), the balances, and the two adding
//! up to the game's total — beside the board the round began with.

use crate::common::browser::{Browser, Page, input_value, signed_in};
use crate::common::{Backend, spawn_app};
use crate::http_spare_and_balances::chips;
use crate::http_tripoley_steps::{bet, deal_fields, f, new_game, ok};
use pitbook::domain::staff::Role;
use pitbook::domain::tripoley::Section;

/// Board order: Ace, King, Queen, Jack, Ten, King-Queen, 8-9-10, Kitty, Pot.
type Board = [u64; 9];

/// A step: its name, the step form's fields, the board after it and the
/// balances (Dee, Ann, Bo, Cy).
type Expected = (&'static str, Vec<(String, String)>, Board, [u64; 4]);

/// The chips of each section of the board drawn as `id` on `page`.
fn board(page: &Page, id: &str) -> Board {
    Section::ALL.map(|s| {
        let needle = format!("id=\"{id}-{}\" data-chips=\"", s.key());
        let at = page.body.find(&needle).unwrap_or_else(|| {
            panic!("no {needle} on the page:\n{}", page.body);
        }) + needle.len();
        let chips = page.body[at..].split('"').next().unwrap_or_default();
        chips.parse().expect("a section's chips")
    })
}

/// Each player's chips on the balances (seating order: Dee, Ann, Bo, Cy).
fn balances(page: &Page) -> [u64; 4] {
    [0, 1, 2, 3].map(|seat| chips(page, seat).parse().expect("chips"))
}

/// The game's page after a step: the board drawn is `expected`, the
/// balances are `players`, and players + board is the game's 160 chips.
async fn after(b: &mut Browser, game: &str, step: &str, expected: Board, players: [u64; 4]) {
    let page = b.get(game).await;
    assert_eq!(page.status, 200, "{}", page.body);
    let drawn = board(&page, "board-after");
    assert_eq!(drawn, expected, "the board after {step}");
    assert_eq!(balances(&page), players, "the balances after {step}");
    let total = drawn.iter().sum::<u64>() + players.iter().sum::<u64>();
    assert_eq!(total, 160, "players + board after {step}");
    assert!(
        page.body.contains("data-total=\"160\""),
        "the total: {}",
        page.body
    );
    // Beside it, the board the round began with: round 1's, empty.
    assert_eq!(board(&page, "board-before"), [0; 9], "before, at {step}");
    assert!(
        page.body.contains("Before round 1 (dealer Dee)"),
        "{}",
        page.body
    );
}

async fn the_board_on_each_steps_page_is_the_board_after_that_step(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = signed_in(&app, "dana", Role::Dealer).await;
    let game = new_game(&mut dana).await;
    let page = dana.get(&game).await;
    assert_eq!(board(&page, "board-after"), [0; 9]);
    assert!(
        page.body.contains("aria-label=\"The board\""),
        "{}",
        page.body
    );

    let antes = [4; 9];
    // Cy buys the spare (the Kh) for 2 and puts down the Jh: the Ace,
    // King, Queen and Ten are paid, 8-9-10 split by Ann and Bo, the Jack
    // and King-Queen carry over.
    let paid = [0, 0, 0, 4, 0, 4, 0, 4, 4];
    let pot = |chips: u64| {
        let mut b = paid;
        b[8] = chips;
        b
    };
    let spare = vec![f("step", "spare"), f("buyer", "Cy"), f("price", "2")];
    let steps: [Expected; 9] = [
        ("the antes", vec![f("step", "ante")], antes, [31; 4]),
        ("the deal", deal_fields(), antes, [31; 4]),
        ("the spare", spare, antes, [33, 31, 31, 29]),
        (
            "the money cards",
            vec![f("step", "money_cards")],
            paid,
            [37, 37, 37, 33],
        ),
        (
            "Ann's bet",
            bet("Ann", "bet", "10"),
            pot(14),
            [37, 27, 37, 33],
        ),
        (
            "Bo's call",
            bet("Bo", "call", ""),
            pot(24),
            [37, 27, 27, 33],
        ),
        (
            "Cy's call",
            bet("Cy", "call", ""),
            pot(34),
            [37, 27, 27, 23],
        ),
        (
            "Dee's fold",
            bet("Dee", "fold", ""),
            pot(34),
            [37, 27, 27, 23],
        ),
        // Ann's four aces take the Pot and the bets.
        (
            "the showdown",
            vec![f("step", "showdown")],
            pot(0),
            [37, 61, 27, 23],
        ),
    ];
    for (name, fields, expected, players) in steps {
        ok(&mut dana, &game, &fields).await;
        after(&mut dana, &game, name, expected, players).await;
    }
    // The Michigan card by card moves no chip until the round is paid out.
    loop {
        let page = dana.get(&game).await;
        if !page.body.contains("id=\"michigan-turn\"") {
            break;
        }
        assert_eq!(board(&page, "board-after"), pot(0), "during the Michigan");
        let (player, card) = (
            input_value(&page.body, "player"),
            input_value(&page.body, "card"),
        );
        let fields = [
            f("step", "michigan_card"),
            f("player", player),
            f("card", card),
        ];
        ok(&mut dana, &game, &fields).await;
    }
    // Paid out: the Kitty is won; the board after round 1 beside the one before.
    let page = dana.get(&game).await;
    assert!(page.body.contains("Round 2: Ann deals"), "{}", page.body);
    assert_eq!(board(&page, "board-after"), [0, 0, 0, 4, 0, 4, 0, 0, 0]);
    assert_eq!(board(&page, "board-before"), [0; 9]);
    assert!(page.body.contains("aria-label=\"After round 1\""));
    let players: u64 = balances(&page).iter().sum();
    assert_eq!(players + 8, 160);
}

on_both_databases!(the_board_on_each_steps_page_is_the_board_after_that_step);
