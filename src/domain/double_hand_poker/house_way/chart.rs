//! A house way as a chart to post at the table: each rule in plain words,
//! in the order they are tried (`/tools/house-ways/{name}`).

use super::file::{AtLeast, Condition, FrontPair, HandClass, HouseWayFile, Play, Ranks, Rule};

/// One line of the chart.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ChartLine {
    /// 1-based, in the order the rules are tried.
    pub number: usize,
    /// What the hand holds, and the conditions.
    pub when: String,
    /// Where the cards go.
    pub play: String,
    /// The rule's own words.
    pub says: String,
}

/// The chart of `way`.
pub fn chart(way: &HouseWayFile) -> Vec<ChartLine> {
    way.rules
        .iter()
        .enumerate()
        .map(|(i, rule)| ChartLine {
            number: i + 1,
            when: when_words(rule),
            play: play_words(&rule.play),
            says: rule.words.replace("{played}", "straight or flush"),
        })
        .collect()
}

fn plural(rank: u8) -> &'static str {
    [
        "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "10s", "jacks", "queens", "kings", "aces",
    ]
    .get(usize::from(rank))
    .copied()
    .unwrap_or("?")
}

fn singular(rank: u8) -> &'static str {
    [
        "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king", "ace",
    ]
    .get(usize::from(rank))
    .copied()
    .unwrap_or("?")
}

fn ranks_words(r: Ranks) -> String {
    if r == Ranks::ALL {
        String::new()
    } else if r.low == r.high {
        plural(r.low).to_string()
    } else {
        format!("{} to {}", plural(r.low), plural(r.high))
    }
}

fn with_ranks(what: &str, r: Ranks) -> String {
    match ranks_words(r) {
        w if w.is_empty() => what.to_string(),
        w => format!("{what} ({w})"),
    }
}

fn when_words(rule: &Rule) -> String {
    let hand = match rule.hand {
        HandClass::Any => "Any hand".to_string(),
        HandClass::FiveAces => "Five aces".to_string(),
        HandClass::FourOfAKind(r) => with_ranks("Four of a kind", r),
        HandClass::TwoTrips => "Two three of a kinds".to_string(),
        HandClass::FullHouse => "Full house".to_string(),
        HandClass::ThreePair => "Three pair".to_string(),
        HandClass::TwoPair => "Two pair".to_string(),
        HandClass::ThreeOfAKind(r) => with_ranks("Three of a kind", r),
        HandClass::OnePair => "One pair".to_string(),
        HandClass::NoPair => "No pair".to_string(),
    };
    let mut words = vec![hand];
    for c in &rule.conditions {
        words.push(match c {
            Condition::Pair(r) => format!("with a pair of {}", ranks_words(*r)),
            Condition::HighPair(r) => format!("the highest pair {}", ranks_words(*r)),
            Condition::WithPair => "with another pair (or three of a kind)".to_string(),
            Condition::AceSingle => "with an ace (or the joker) besides".to_string(),
            Condition::HighestSingleAtLeast(r) => {
                format!("with a {} or better besides", singular(*r))
            }
            Condition::Singles(ranks) => {
                let names: Vec<&str> = ranks.iter().map(|&r| singular(r)).collect();
                format!("the other cards {}", names.join(", "))
            }
            Condition::Joker => "with the joker".to_string(),
            Condition::NoJoker => "without the joker".to_string(),
        });
    }
    words.join(", ")
}

fn place(n: usize) -> &'static str {
    [
        "", "highest", "second", "third", "fourth", "fifth", "sixth", "seventh",
    ]
    .get(n)
    .copied()
    .unwrap_or("?")
}

fn play_words(play: &Play) -> String {
    match play {
        Play::FrontPair(which) => match which {
            FrontPair::Rank(r) => format!("the {} in front", plural(*r)),
            FrontPair::Highest => "the highest pair in front".to_string(),
            FrontPair::Lower => "the lower pair in front".to_string(),
            FrontPair::HigherTrips => "a pair from the higher three of a kind in front".to_string(),
            FrontPair::Other => "the pair in front, the four of a kind behind".to_string(),
            FrontPair::FromQuads => "split: two of the four in front".to_string(),
        },
        Play::FrontBest => "kept together behind: the best two other cards in front".to_string(),
        Play::FrontSingles(1, 2) => "the two highest other cards in front".to_string(),
        Play::FrontSingles(a, b) => {
            format!(
                "the {} and {} highest other cards in front",
                place(*a),
                place(*b)
            )
        }
        Play::FrontAceAndHighestSingle => {
            "split: an ace and the highest other card in front".to_string()
        }
        Play::StraightOrFlush {
            pair_front,
            without,
            at_least,
        } => {
            let mut words =
                "a straight, flush or straight flush behind, the best front it leaves".to_string();
            if *pair_front {
                words.push_str(", a pair in front");
            }
            if *without != 0 {
                let ranks: Vec<&str> = (0..13u8)
                    .rev()
                    .filter(|r| without >> r & 1 == 1)
                    .map(singular)
                    .collect();
                words.push_str(&format!(
                    ", made without the {}: kept in front",
                    ranks.join(" or the ")
                ));
            }
            if let Some(AtLeast::Singles(a, b)) = at_least {
                let front = play_words(&Play::FrontSingles(*a, *b));
                let front = front.trim_end_matches(" in front");
                words.push_str(&format!(" — only if that front is at least {front}"));
            }
            words
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::double_hand_poker::house_way::shipped;

    #[test]
    fn the_reference_chart_reads_each_rule_in_order() {
        let lines = chart(&shipped("reference").unwrap());
        assert_eq!(lines.len(), 21);
        assert_eq!(lines[0].when, "Five aces, with a pair of kings");
        assert_eq!(lines[0].play, "the kings in front");
        assert_eq!(
            lines[4].when,
            "Four of a kind (7s to jacks), with an ace (or the joker) besides"
        );
        assert_eq!(
            lines[4].play,
            "kept together behind: the best two other cards in front"
        );
        assert_eq!(
            lines[8].when,
            "Full house, the highest pair 2s, the other cards ace, king"
        );
        assert_eq!(
            lines[15].play,
            "a straight, flush or straight flush behind, the best front it leaves — only if that front is at least the two highest other cards"
        );
        assert_eq!(
            lines[20].play,
            "the second and third highest other cards in front"
        );
        assert_eq!(
            lines[17].says,
            "One pair: straight or flush behind, front at least as good"
        );
        assert!(lines.iter().enumerate().all(|(i, l)| l.number == i + 1));
    }
}
