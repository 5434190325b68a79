//! `ev` counted over small decks and held equal to the engine's own
//! decision (`setting::decide`) for every hand of the other side.

use crate::cards::{Card, parse_cards};
use crate::double_hand_poker::ev::{EvJob, EvRequest, Side};
use crate::double_hand_poker::house_way::census::for_each_seven_of;
use crate::double_hand_poker::house_way::{self, HouseWay};
use crate::double_hand_poker::options::{FoulRule, HouseWayName, OptionOverrides, RuleOptions};
use crate::double_hand_poker::outcome::Outcome;
use crate::double_hand_poker::setting::decide;
use crate::double_hand_poker::tools::CardsText;

fn cards(text: &str) -> Vec<Card> {
    parse_cards(text).expect("test cards parse")
}

fn seven(text: &str) -> [Card; 7] {
    cards(text).try_into().expect("seven cards")
}

/// Every 7-card hand of `rest`, each decided by the engine against each
/// setting of `hero`; (win, push, loss) per setting from the hero's side.
fn by_the_engine(
    hero: &[Card; 7],
    rest: &[Card],
    side: Side,
    opts: &RuleOptions,
    way: &dyn HouseWay,
) -> Vec<(u64, u64, u64)> {
    let settings = crate::double_hand_poker::setting::all_settings(hero, opts);
    let mut counts = vec![(0, 0, 0); settings.len()];
    for first in 0..rest.len().saturating_sub(6) {
        for_each_seven_of(rest, first, &mut |other| {
            let other_set = way.set(other, opts).hand;
            for (k, s) in settings.iter().enumerate() {
                let outcome = match side {
                    Side::Player => decide(&s.hand, &other_set, opts, way).outcome,
                    Side::Banker => match decide(&other_set, &s.hand, opts, way).outcome {
                        Outcome::Player => Outcome::Pd,
                        Outcome::Pd => Outcome::Player,
                        Outcome::Push => Outcome::Push,
                    },
                };
                match outcome {
                    Outcome::Player => counts[k].0 += 1,
                    Outcome::Push => counts[k].1 += 1,
                    Outcome::Pd => counts[k].2 += 1,
                }
            }
        });
    }
    counts
}

fn counted(job: &EvJob, way: &dyn HouseWay) -> crate::double_hand_poker::ev::EvCounts {
    job.parts().map(|first| job.count_part(way, first)).fold(
        crate::double_hand_poker::ev::EvCounts::default(),
        crate::double_hand_poker::ev::EvCounts::plus,
    )
}

#[test]
fn every_setting_counts_as_the_engine_decides_each_hand() {
    // Kings and queens close to the hero's ranks, the joker among them,
    // so the small deck holds pairs, trips, straights and flushes.
    let rest = cards("Kh Kc Qd Qc Jh Th 9d 8h 5s 5h 3h 2d JK");
    let hands = [
        "As Ks Qs 9c 9s 4d 2c",
        "Ah Ad 7c 7d 4s 4c 6h",
        "Js Ts 9s 8s 7s 6d 6c",
    ];
    let reset = RuleOptions::default().with(&OptionOverrides {
        foul: Some(FoulRule::ResetHouseWay),
        ..OptionOverrides::default()
    });
    let foxwoods = RuleOptions::default().with(&OptionOverrides {
        house_way: Some(HouseWayName::Foxwoods),
        ..OptionOverrides::default()
    });
    for opts in [RuleOptions::default(), reset, foxwoods] {
        let way = house_way::by_name(opts.house_way).unwrap();
        for hero in hands {
            let hero = seven(hero);
            for side in [Side::Player, Side::Banker] {
                let job = EvJob::over(hero, rest.clone(), side, &opts).unwrap();
                let counts = counted(&job, way);
                assert_eq!(counts.hands, 1716, "C(13, 7)");
                assert_eq!(job.hands(), 1716);
                let expected = by_the_engine(&hero, &rest, side, &opts, way);
                for (k, &(win, push, loss)) in expected.iter().enumerate() {
                    assert_eq!(
                        (counts.win[k], counts.push[k], counts.loss[k]),
                        (win, push, loss),
                        "{hero:?} as {side:?}, setting {} under {:?}/{:?}",
                        k + 1,
                        opts.house_way,
                        opts.foul
                    );
                }
            }
        }
    }
}

#[test]
fn the_response_names_the_house_ways_setting_the_best_and_the_cost() {
    let rest = cards("Kh Kc Qd Qc Jh Th 9d 8h 5s 5h 3h 2d JK");
    let opts = RuleOptions::default();
    let way = house_way::by_name(opts.house_way).unwrap();
    let hero = seven("As Ks Qs 9c 9s 4d 2c");
    let job = EvJob::over(hero, rest, Side::Player, &opts).unwrap();
    let r = job.response(&counted(&job, way));
    assert_eq!(r.settings.len(), 21);
    for s in &r.settings {
        assert_eq!(s.win + s.push + s.loss, r.hands, "setting {}", s.number);
        if s.fouled {
            assert_eq!(s.loss, r.hands, "a fouled player hand loses (foul: loses)");
        }
    }
    let hw = &r.settings[r.house_way];
    assert_eq!(
        (hw.high.clone(), hw.low.clone()),
        {
            let set = way.set(&hero, &opts).hand;
            (set.high.to_vec(), set.low.to_vec())
        },
        "the house way's index is its setting"
    );
    let best = &r.settings[r.best];
    assert!(r.settings.iter().all(|s| s.ev <= best.ev));
    assert_eq!(
        r.cost,
        best.ev - hw.ev,
        "exact here: both are rounded the same"
    );
    assert!(r.cost >= rust_decimal::Decimal::ZERO);
}

#[test]
fn the_full_deck_leaves_46_cards_and_c_46_7_hands() {
    let request = EvRequest {
        cards: CardsText("As Ks Qs 9c 9s 4d 2c".into()),
        ..EvRequest::default()
    };
    let job = request.job().expect("seven cards");
    assert_eq!(job.hands(), 53_524_680);
    assert_eq!(job.parts().len(), 40);
    let no_joker = EvRequest {
        options: Some(OptionOverrides {
            joker: Some(crate::double_hand_poker::options::JokerRule::None),
            ..OptionOverrides::default()
        }),
        ..request
    };
    assert_eq!(no_joker.job().expect("seven cards").hands(), 45_379_620);
}

#[test]
fn bad_cards_are_refused_naming_the_field() {
    for (text, says) in [
        ("As Ks Qs 9c 9s 4d As", "As"),
        ("As Ks Qs 9c 9s 4d", "7"),
        ("As Ks Qs 9c 9s 4d Zz", "Zz"),
    ] {
        let request = EvRequest {
            cards: CardsText(text.into()),
            ..EvRequest::default()
        };
        let e = request.job().expect_err(text);
        assert_eq!(e.field.api_name(), "cards");
        assert!(e.message.contains(says), "{text}: {}", e.message);
    }
}
