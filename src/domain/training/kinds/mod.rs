//! The ten kinds of drill, one file each. Every kind module has the same
//! shape: `Question` and `Answer` (serialized into the drill's JSON, money
//! as strings), their `words()`, `generate(level, rng) -> (question,
//! answer, explanation)` drawing the inputs and asking the engine, and
//! `grade(question, answer, input) -> Result<bool, FieldError>` reading the
//! input (shape errors are field errors) and comparing.

pub mod action_order;
pub mod action_seat;
pub mod collection;
pub mod decide;
pub mod house_way;
pub mod poker_dice;
pub mod settle_all;
pub mod settle_step;
mod table;
pub mod ten_thousand;
pub mod tripoley;

use serde::Serialize;

use super::Level;
use super::answer_input::AnswerInput;
use super::rng::Rng;
use crate::common::field_error::FieldError;

macro_rules! kinds {
    ($($variant:ident $module:ident $name:literal,)*) => {
        /// A kind of drill; its name is the CLI's and the JSON's.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Kind {
            $($variant,)*
        }

        impl Kind {
            pub const ALL: [Kind; 10] = [$(Kind::$variant,)*];

            pub fn name(self) -> &'static str {
                match self {
                    $(Kind::$variant => $name,)*
                }
            }
        }

        /// A drill's question: the kind's own object.
        #[derive(Debug, Clone, PartialEq, Serialize)]
        #[serde(untagged)]
        pub enum Question {
            $($variant($module::Question),)*
        }

        /// A drill's correct answer: the kind's own object, the shape an
        /// answer to it is given in.
        #[derive(Debug, Clone, PartialEq, Serialize)]
        #[serde(untagged)]
        pub enum Answer {
            $($variant($module::Answer),)*
        }

        /// In the API contract a question is any kind's (the drill's
        /// `kind` says which): anyOf, as shapes may coincide.
        impl utoipa::PartialSchema for Question {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                use crate::common::schema::reference;
                utoipa::openapi::schema::AnyOfBuilder::new()
                    $(.item(reference::<$module::Question>()))*
                    .description(Some("The drill's question: its kind's own object."))
                    .into()
            }
        }

        impl utoipa::ToSchema for Question {
            fn name() -> std::borrow::Cow<'static, str> {
                "DrillQuestion".into()
            }

            fn schemas(
                schemas: &mut Vec<(String, utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>)>,
            ) {
                use crate::common::schema::named;
                $(
                    schemas.push(named::<$module::Question>());
                    <$module::Question as utoipa::ToSchema>::schemas(schemas);
                )*
            }
        }

        /// An answer (correct or given) is any kind's, in its kind's shape.
        impl utoipa::PartialSchema for Answer {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                use crate::common::schema::reference;
                utoipa::openapi::schema::AnyOfBuilder::new()
                    $(.item(reference::<$module::Answer>()))*
                    .description(Some("A drill's answer: its kind's own object."))
                    .into()
            }
        }

        impl utoipa::ToSchema for Answer {
            fn name() -> std::borrow::Cow<'static, str> {
                "DrillAnswer".into()
            }

            fn schemas(
                schemas: &mut Vec<(String, utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>)>,
            ) {
                use crate::common::schema::named;
                $(
                    schemas.push(named::<$module::Answer>());
                    <$module::Answer as utoipa::ToSchema>::schemas(schemas);
                )*
            }
        }

        impl Question {
            pub fn words(&self) -> String {
                match self {
                    $(Question::$variant(q) => q.words(),)*
                }
            }
        }

        impl Answer {
            pub fn words(&self) -> String {
                match self {
                    $(Answer::$variant(a) => a.words(),)*
                }
            }
        }

        pub(super) fn generate(kind: Kind, level: Level, rng: &mut Rng) -> (Question, Answer, String) {
            match kind {
                $(Kind::$variant => {
                    let (q, a, e) = $module::generate(level, rng);
                    (Question::$variant(q), Answer::$variant(a), e)
                })*
            }
        }

        pub(super) fn grade(q: &Question, a: &Answer, input: &AnswerInput) -> Result<bool, FieldError> {
            match (q, a) {
                $((Question::$variant(q), Answer::$variant(a)) => $module::grade(q, a, input),)*
                _ => Err(FieldError::new("kind", "the question and the answer are of different kinds")),
            }
        }
    };
}

kinds! {
    ActionSeat action_seat "action-seat",
    ActionOrder action_order "action-order",
    SettleStep settle_step "settle-step",
    SettleAll settle_all "settle-all",
    Decide decide "decide",
    HouseWay house_way "house-way",
    Collection collection "collection",
    Tripoley tripoley "tripoley",
    TenThousand ten_thousand "ten-thousand",
    PokerDice poker_dice "poker-dice",
}

impl Kind {
    /// The skill in words, as pages name it ("ACTION seat", "10,000").
    pub fn title(self) -> &'static str {
        match self {
            Kind::ActionSeat => "ACTION seat",
            Kind::ActionOrder => "Action order",
            Kind::SettleStep => "One settlement step",
            Kind::SettleAll => "A whole settlement",
            Kind::Decide => "Deciding a position",
            Kind::HouseWay => "House way",
            Kind::Collection => "Collection",
            Kind::Tripoley => "Tripoley payouts",
            Kind::TenThousand => "10,000 points",
            Kind::PokerDice => "Poker dice",
        }
    }

    /// The kind of this name; an unknown name is refused, naming `kind`
    /// and listing the kinds.
    pub fn parse(name: &str) -> Result<Kind, FieldError> {
        Kind::ALL
            .into_iter()
            .find(|k| k.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = Kind::ALL.iter().map(|k| k.name()).collect();
                FieldError::new(
                    "kind",
                    format!(
                        "\"{name}\" is not a kind of drill (kinds: {})",
                        names.join(", ")
                    ),
                )
                .with_value(name)
            })
    }
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A kind's schema in the API contract: its name, one of [`Kind::ALL`].
impl utoipa::PartialSchema for Kind {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::schema::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .description(Some("A kind of drill."))
            .enum_values(Some(Kind::ALL.iter().map(|k| k.name())))
            .into()
    }
}

impl utoipa::ToSchema for Kind {
    fn name() -> std::borrow::Cow<'static, str> {
        "DrillKind".into()
    }
}

impl Serialize for Kind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}
