//! Loading a house way: what is refused (with its line, or a hand no rule
//! sets), how a loaded way is named, and that a table's options carry the
//! name through JSON and give the file back.

use super::*;
use crate::double_hand_poker::house_way::{SHIPPED, by_name};
use crate::double_hand_poker::options::OptionOverrides;

/// The Foxwoods file under another name: a room's own way.
fn my_room() -> String {
    SHIPPED[1].1.replace("name foxwoods", "name my-room")
}

#[test]
fn a_loaded_way_is_named_by_its_file_and_digest_and_sets_hands_as_written() {
    let text = my_room();
    let name = register(&text).unwrap();
    let digest = digest_of(&text);
    assert_eq!(digest.len(), 12);
    assert_eq!(name.name(), format!("my-room@{digest}"));
    // The same text again is the same way, not a second one.
    assert_eq!(register(&text).unwrap(), name);
    assert_eq!(all().iter().filter(|w| w.name == name).count(), 1);
    let way = by_name(name).unwrap();
    let foxwoods = by_name(HouseWayName::Foxwoods).unwrap();
    let opts = RuleOptions::default();
    let cards: [Card; 7] = crate::cards::parse_cards("Ah Ad Kc Ks 7d 7s 2c")
        .unwrap()
        .try_into()
        .unwrap();
    assert_eq!(way.set(&cards, &opts), foxwoods.set(&cards, &opts));
    assert_eq!(get(name).unwrap().text, text);
}

#[test]
fn a_table_names_a_loaded_way_in_json_and_the_name_gives_the_file_back() {
    let name = register(&my_room()).unwrap();
    let json = format!(r#"{{"house_way": "{}"}}"#, name.name());
    let overrides: OptionOverrides = serde_json::from_str(&json).unwrap();
    assert_eq!(overrides.house_way, Some(name));
    assert_eq!(
        serde_json::to_string(&overrides).unwrap(),
        json.replace(": ", ":")
    );
    let opts = RuleOptions::default().with(&overrides);
    assert_eq!(opts.house_way().unwrap().name(), "my-room");
}

#[test]
fn a_name_not_loaded_here_reads_but_does_not_set_hands() {
    let name = HouseWayName::parse("elsewhere@0123456789ab").unwrap();
    let opts = RuleOptions {
        house_way: name,
        ..RuleOptions::default()
    };
    let err = opts.house_way().err().unwrap();
    assert_eq!(
        err.to_string(),
        "no house way \"elsewhere@0123456789ab\" is loaded: a supervisor loads it at /house-ways"
    );
}

#[test]
fn house_way_names_parse_shipped_and_loaded_and_nothing_else() {
    for (text, ok) in [
        ("reference", true),
        ("atlantic-city", true),
        ("my-room@0123456789ab", true),
        ("my-room", false),
        ("My-Room@0123456789ab", false),
        ("my-room@0123456789AB", false),
        ("my-room@0123456789a", false),
        ("my room@0123456789ab", false),
        ("@0123456789ab", false),
        ("", false),
    ] {
        assert_eq!(HouseWayName::parse(text).is_some(), ok, "{text:?}");
        let json = serde_json::Value::String(text.to_string());
        assert_eq!(
            serde_json::from_value::<HouseWayName>(json).is_ok(),
            ok,
            "{text:?} in JSON"
        );
    }
}

#[test]
fn a_file_that_does_not_parse_is_refused_with_its_line() {
    let text = my_room().replace("play front pair K", "play front pair of kings");
    let err = check(&text).unwrap_err();
    assert_eq!(err.line, 8, "{err}");
    assert!(err.to_string().starts_with("line 8: "), "{err}");
}

#[test]
fn a_shipped_name_is_refused() {
    let err = check(SHIPPED[1].1).unwrap_err();
    assert_eq!(err.line, 0);
    assert!(
        err.message
            .contains("\"foxwoods\" is a shipped house way's name"),
        "{err}"
    );
}

#[test]
fn a_file_leaving_hands_unset_is_refused_with_one_of_them() {
    let text = "house-way 1\nname pairs-only\ntitle Pairs only\nsource none\n\n\
                when one pair\nplay front best\nsay One pair: the best front\n";
    let err = check(text).unwrap_err();
    assert_eq!(err.line, 0);
    assert!(
        err.message.contains("rank patterns set by no rule")
            && err.message.contains("no rule sets it"),
        "{err}"
    );
    assert!(register(text).is_err());
    assert!(all().iter().all(|w| w.file.name != "pairs-only"));
}

/// A file its caller knows passed the check is held without setting its
/// hands again, under the same name; it is still parsed, so a bad one is
/// refused with its line, and a shipped name still refused.
#[test]
fn a_file_checked_before_is_held_by_the_same_name_without_the_census() {
    let text = my_room().replace("name my-room", "name checked-before");
    let name = register_checked(&text).unwrap();
    assert_eq!(name.name(), format!("checked-before@{}", digest_of(&text)));
    assert!(full_digest_of(&text).starts_with(&digest_of(&text)));
    assert_eq!(full_digest_of(&text).len(), 64);
    assert_eq!(register(&text).unwrap(), name, "the same way");
    let old = text.replace(
        "play straight or flush with pair in front",
        "play straight or flush without A",
    );
    let err = register_checked(&old).unwrap_err();
    assert_eq!(err.line, 64, "{err}");
    assert!(
        err.message.contains("\"without\" is a house-way 2 word"),
        "{err}"
    );
    assert!(err.message.contains("(found \"without A\")"), "{err}");
    assert_eq!(check(&old).unwrap_err(), err);
    assert!(register_checked(SHIPPED[1].1).is_err());
}
