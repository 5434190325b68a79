//! The drills: examples from the rules files, the JSON shape, and
//! properties over thousands of seeds per kind (the correct answer is
//! graded right, a changed answer wrong, generation deterministic).

use proptest::prelude::*;
use serde_json::{Value, json};

use super::*;

fn drill(kind: &str, level: i64, seed: u64) -> Drill {
    Drill::generate(Kind::parse(kind).unwrap(), Level::new(level).unwrap(), seed)
}

fn answer(v: Value) -> AnswerInput {
    AnswerInput::from_value(v)
}

#[test]
fn kinds_and_levels_by_name() {
    for kind in Kind::ALL {
        assert_eq!(Kind::parse(kind.name()), Ok(kind));
    }
    let e = Kind::parse("settle").unwrap_err();
    assert_eq!(e.field(), "kind");
    assert!(e.message().contains("action-seat"), "{e}");
    assert_eq!(Level::new(4).unwrap_err().field(), "level");
    assert_eq!(Level::new(0).unwrap_err().value(), Some("0"));
}

#[test]
fn the_json_of_a_drill() {
    let d = drill("action-seat", 2, 42);
    let v = serde_json::to_value(&d).unwrap();
    assert_eq!(v["kind"], "action-seat");
    assert_eq!(v["level"], 2);
    assert_eq!(v["seed"], 42);
    assert!(v["question"]["dice"].is_array());
    assert!(v["question"]["pd_seat"].is_u64());
    assert!(v["answer"]["seat"].is_u64());
    let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
    assert_eq!(keys.len(), 5, "{keys:?}");

    let d = drill("settle-all", 3, 7);
    let v = serde_json::to_value(&d).unwrap();
    assert!(v["question"]["scenario"]["wagers"].is_array());
    assert!(v["answer"]["pd_returned"].is_string());
    assert!(v["answer"]["net"]["pd"].is_string());
    assert!(v["question"]["scenario"]["pd"]["bank"].is_string());
}

/// The rules' ACTION examples (lucky-chances-action.md, docs/settle.md).
#[test]
fn action_seat_examples_from_the_rules() {
    use kinds::action_seat::{Answer as A, Question as Q};
    let cases = [
        // dice, PD seat, seats → seat
        ([4, 5, 3], 1, 7, 5),
        ([2, 3, 3], 3, 7, 3),
        ([5, 5, 5], 3, 7, 3),
        ([6, 6, 6], 3, 7, 6),
        ([1, 1, 2], 6, 7, 2),
    ];
    for (dice, pd_seat, seats, seat) in cases {
        let d = Drill {
            kind: Kind::ActionSeat,
            level: Level::MEDIUM,
            seed: 0,
            question: Question::ActionSeat(Q {
                dice,
                pd_seat,
                seats,
            }),
            answer: Answer::ActionSeat(A { seat }),
            explanation: String::new(),
        };
        assert!(grade(&d, &answer(json!({ "seat": seat }))).unwrap().right);
        let other = seat % seats + 1;
        assert!(!grade(&d, &answer(json!({ "seat": other }))).unwrap().right);
        let e = grade(&d, &answer(json!({ "seat": 8 }))).unwrap_err();
        assert_eq!((e.field(), e.value()), ("seat", Some("8")));
    }
    // Generated drills agree with the engine on the same dice.
    for seed in 0..200 {
        let d = drill("action-seat", 3, seed);
        let Question::ActionSeat(q) = &d.question else {
            unreachable!()
        };
        let Answer::ActionSeat(a) = &d.answer else {
            unreachable!()
        };
        let seat = crate::double_hand_poker::action_dice::action_seat(
            q.dice.map(i64::from),
            i64::from(q.pd_seat),
            i64::from(q.seats),
        );
        assert_eq!(seat, Ok(a.seat));
    }
}

/// A settle drill's answer is what `settle` gives for its scenario: the
/// same JSON `pitbook settle` reads.
#[test]
fn settle_drills_check_with_the_settle_contract() {
    use crate::double_hand_poker::settle::settle_json;
    for seed in 0..100 {
        for level in 1..=3 {
            let d = drill("settle-all", level, seed);
            let v = serde_json::to_value(&d).unwrap();
            let out: Value =
                serde_json::from_str(&settle_json(&v["question"]["scenario"].to_string()).unwrap())
                    .unwrap();
            assert_eq!(out["pd_returned"], v["answer"]["pd_returned"]);
            for (name, net) in v["answer"]["net"].as_object().unwrap() {
                assert_eq!(&out["totals"][name]["net"], net, "seed {seed} {name}");
            }
            let d = drill("settle-step", level, seed);
            let v = serde_json::to_value(&d).unwrap();
            let out: Value =
                serde_json::from_str(&settle_json(&v["question"]["scenario"].to_string()).unwrap())
                    .unwrap();
            for f in [
                "covered",
                "no_action",
                "to_bettor",
                "to_pd",
                "in_action_after",
            ] {
                assert_eq!(out["steps"][0][f], v["answer"][f], "seed {seed} {f}");
            }
            let d = drill("action-order", level, seed);
            let v = serde_json::to_value(&d).unwrap();
            let out: Value =
                serde_json::from_str(&settle_json(&v["question"]["scenario"].to_string()).unwrap())
                    .unwrap();
            let order: Vec<&Value> = out["steps"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| &s["wager"])
                .collect();
            let answer: Vec<&Value> = v["answer"]["order"].as_array().unwrap().iter().collect();
            assert_eq!(order, answer);
        }
    }
}

/// A Tripoley drill's round is the `pitbook tripoley round` contract.
#[test]
fn tripoley_drills_check_with_the_round_contract() {
    use crate::tripoley::{RoundInput, play_round};
    for seed in 0..100 {
        for level in 1..=3 {
            let d = drill("tripoley", level, seed);
            let v = serde_json::to_value(&d).unwrap();
            let input: RoundInput = serde_json::from_value(v["question"]["round"].clone()).unwrap();
            let out = serde_json::to_value(play_round(&input).unwrap()).unwrap();
            assert_eq!(out["net"], v["answer"]["net"], "seed {seed}");
        }
    }
}

#[test]
fn level_one_banks_never_run_out() {
    for seed in 0..300 {
        let d = drill("settle-all", 1, seed);
        let v = serde_json::to_value(&d).unwrap();
        let sc = &v["question"]["scenario"];
        assert!(
            sc["wagers"]
                .as_array()
                .unwrap()
                .iter()
                .all(|w| w["backline"].is_null() && w["payout"].is_null())
        );
        let out: Value = serde_json::from_str(
            &crate::double_hand_poker::settle::settle_json(&sc.to_string()).unwrap(),
        )
        .unwrap();
        assert!(
            out["steps"]
                .as_array()
                .unwrap()
                .iter()
                .all(|s| s["no_action"] == "0.00")
        );
    }
}

#[test]
fn level_three_banks_run_out_inside_a_seat() {
    let mut inside = 0;
    for seed in 0..300 {
        let d = drill("settle-all", 3, seed);
        let v = serde_json::to_value(&d).unwrap();
        let out: Value = serde_json::from_str(
            &crate::double_hand_poker::settle::settle_json(&v["question"]["scenario"].to_string())
                .unwrap(),
        )
        .unwrap();
        let steps = out["steps"].as_array().unwrap();
        let short = |j: usize| steps[j]["no_action"] != "0.00";
        if (1..steps.len())
            .any(|j| steps[j]["seat"] == steps[j - 1]["seat"] && (short(j) || short(j - 1)))
        {
            inside += 1;
        }
    }
    assert!(inside > 200, "only {inside} of 300");
}

#[test]
fn house_way_answers_in_the_wrong_shape_name_the_field() {
    let d = drill("house-way", 1, 3);
    let Answer::HouseWay(a) = &d.answer else {
        unreachable!()
    };
    let six: Vec<&str> = a.high.split(' ').take(4).collect();
    let e = grade(&d, &answer(json!({"high": six.join(" "), "low": a.low}))).unwrap_err();
    assert_eq!(e.field(), "high");
    assert!(e.message().contains("is 4 cards"), "{e}");
    let e = grade(&d, &answer(json!({"high": a.high, "low": "Xx 2c"}))).unwrap_err();
    assert_eq!(e.field(), "low");
    let e = grade(&d, &answer(json!({"high": a.high}))).unwrap_err();
    assert_eq!(e.field(), "low");
    let g = grade(&d, &answer(json!({"high": a.high, "low": a.low}))).unwrap();
    assert!(g.right);
    assert!(
        g.explanation.starts_with("House way: "),
        "{}",
        g.explanation
    );
}

#[test]
fn malformed_amounts_are_field_errors() {
    let d = drill("settle-all", 2, 5);
    let mut v = serde_json::to_value(&d.answer).unwrap();
    v["net"]["pd"] = json!("12,50");
    let e = grade(&d, &answer(v.clone())).unwrap_err();
    assert_eq!((e.field(), e.value()), ("net.pd", Some("12,50")));
    v["net"]["pd"] = json!(12.5);
    assert_eq!(grade(&d, &answer(v)).unwrap_err().field(), "net.pd");
    let d = drill("collection", 3, 5);
    let e = grade(&d, &answer(json!({"fee": "-1"}))).unwrap_err();
    assert_eq!(e.field(), "fee");
    let e = grade(&d, &answer(json!({"fee": "1", "tip": "1"}))).unwrap_err();
    assert_eq!(e.field(), "tip");
}

#[test]
fn explanations_are_the_engines() {
    let d = drill("settle-step", 1, 9);
    assert!(d.explanation.starts_with("Seat "), "{}", d.explanation);
    let d = drill("decide", 1, 9);
    assert!(d.explanation.contains("High: player"), "{}", d.explanation);
    let d = drill("tripoley", 1, 9);
    assert!(d.explanation.contains("antes"), "{}", d.explanation);
}

/// A changed answer: same shape, another value.
fn changed(kind: Kind, q: &Value, a: &Value) -> Value {
    let mut a = a.clone();
    let bump_money = |m: &Value| -> Value {
        let s = m.as_str().unwrap();
        let x = crate::common::money::Money::parse(s).unwrap();
        json!((x + crate::common::money::Money::from_units(1)).to_string())
    };
    match kind {
        Kind::ActionSeat => {
            let seats = q["seats"].as_u64().unwrap();
            a["seat"] = json!(a["seat"].as_u64().unwrap() % seats + 1);
        }
        Kind::ActionOrder => {
            let order = a["order"].as_array_mut().unwrap();
            if order.len() > 1 {
                order.swap(0, 1);
            } else {
                return Value::Null;
            }
        }
        Kind::SettleStep => a["covered"] = bump_money(&a["covered"]),
        Kind::SettleAll => a["pd_returned"] = bump_money(&a["pd_returned"]),
        Kind::Decide => {
            a["outcome"] = json!(match a["outcome"].as_str().unwrap() {
                "player" => "pd",
                "pd" => "push",
                _ => "player",
            })
        }
        Kind::HouseWay => {
            // Another of the 21 settings that plays differently.
            use crate::cards::{Card, format_cards, parse_cards};
            use crate::double_hand_poker::options::RuleOptions;
            use crate::double_hand_poker::setting::{SetHand, all_settings};
            let opts = RuleOptions::default();
            let cards: [Card; 7] = parse_cards(q["cards"].as_str().unwrap())
                .unwrap()
                .try_into()
                .unwrap();
            let right = SetHand::parse(
                a["high"].as_str().unwrap(),
                a["low"].as_str().unwrap(),
                &opts,
            )
            .unwrap();
            let other = all_settings(&cards, &opts).into_iter().find(|s| {
                (s.high_rank, s.low_rank) != (right.high_rank(&opts), right.low_rank(&opts))
            });
            let Some(other) = other else {
                return Value::Null;
            };
            a["high"] = json!(format_cards(&other.hand.high));
            a["low"] = json!(format_cards(&other.hand.low));
        }
        Kind::Collection => a["fee"] = bump_money(&a["fee"]),
        Kind::Tripoley => {
            let first = a["net"].as_object().unwrap().keys().next().unwrap().clone();
            a["net"][&first] = json!(a["net"][&first].as_i64().unwrap() + 1);
        }
        Kind::TenThousand => a["points"] = json!(a["points"].as_u64().unwrap() + 50),
        Kind::PokerDice => {
            a["winner"] = match a["winner"].as_u64() {
                Some(1) => json!(2),
                Some(_) => json!(1),
                None => json!(1),
            }
        }
    }
    a
}

fn check_seed(kind: Kind, level: Level, seed: u64) {
    let d = Drill::generate(kind, level, seed);
    assert_eq!(d, Drill::generate(kind, level, seed), "not deterministic");
    let g = grade(&d, &d.answer_input()).unwrap_or_else(|e| panic!("{kind} {level} {seed}: {e}"));
    assert!(
        g.right,
        "{kind} {level} {seed}: the correct answer graded wrong"
    );
    assert!(!g.explanation.is_empty());
    let q = serde_json::to_value(&d.question).unwrap();
    let a = serde_json::to_value(&d.answer).unwrap();
    let wrong = changed(kind, &q, &a);
    if wrong.is_null() {
        return;
    }
    match grade(&d, &answer(wrong.clone())) {
        Ok(g) => assert!(!g.right, "{kind} {level} {seed}: {wrong} graded right"),
        Err(e) => panic!("{kind} {level} {seed}: {wrong} refused: {e}"),
    }
    assert!(!d.question_words().is_empty() && !d.answer_words().is_empty());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn every_kind_grades_its_own_answer_right_and_a_changed_one_wrong(
        seed in any::<u64>(),
        kind in 0usize..10,
        level in 1i64..=3,
    ) {
        check_seed(Kind::ALL[kind], Level::new(level).unwrap(), seed);
    }
}

/// Every kind and level over a run of seeds (the property above samples).
#[test]
fn a_thousand_seeds_of_every_kind() {
    for kind in Kind::ALL {
        for level in Level::ALL {
            for seed in 0..1000 {
                check_seed(kind, level, seed);
            }
        }
    }
}

/// docs/training.md's example drill is what the generator gives.
#[test]
fn the_docs_example() {
    let docs = include_str!("../../../docs/training.md");
    let d = drill("action-seat", 2, 7);
    let line = serde_json::to_string(&d).unwrap();
    assert!(docs.contains(&format!("```json\n{line}\n```")), "{line}");
    assert!(
        docs.contains(&format!("\n{}\n", d.explanation)),
        "{}",
        d.explanation
    );
}
