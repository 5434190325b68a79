//! JSON Schemas written by hand for the types whose serde is written by
//! hand (money, card and dice text, maps keyed by seat or name): the
//! OpenAPI document (`web::openapi`) refers to them by name like any derived
//! schema. Pure data, no IO.

use serde_json::Value;
use utoipa::openapi::schema::{
    AdditionalProperties, ArrayBuilder, ObjectBuilder, OneOfBuilder, Schema, Type,
};
use utoipa::openapi::{RefOr, SchemaFormat};

/// Money text as `Money::parse` takes it and `Money` writes it: an optional
/// `-`, digits, and an optional `.` with digits (no exponent, no `+`).
pub const MONEY_PATTERN: &str = r"^-?[0-9]+(\.[0-9]+)?$";

/// A string, its description, its pattern when it has one, and an example.
pub fn string(description: &str, pattern: Option<&str>, example: Value) -> Schema {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .description(Some(description))
        .pattern(pattern)
        .examples([example])
        .into()
}

/// A string in a named format (`date-time`, `uuid`), with an example.
pub fn formatted(description: &str, format: SchemaFormat, example: Value) -> Schema {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .description(Some(description))
        .format(Some(format))
        .examples([example])
        .into()
}

/// One string or an array of strings (`"As Ks Qs"` or `["As", "Ks", "Qs"]`):
/// what the card and dice text deserializers take.
pub fn text_or_list(description: &str, example: Value) -> Schema {
    OneOfBuilder::new()
        .item(ObjectBuilder::new().schema_type(Type::String))
        .item(ArrayBuilder::new().items(ObjectBuilder::new().schema_type(Type::String)))
        .description(Some(description))
        .examples([example])
        .into()
}

/// An object whose keys are free (a seat number, a bettor's name) and whose
/// values are all `values`.
pub fn map_of(description: &str, values: impl Into<RefOr<Schema>>) -> Schema {
    ObjectBuilder::new()
        .schema_type(Type::Object)
        .description(Some(description))
        .additional_properties(Some(AdditionalProperties::RefOr(values.into())))
        .into()
}

/// The (name, schema) of a type for a hand-written `ToSchema::schemas`:
/// what a derived schema pushes for each named type it refers to.
pub fn named<T: utoipa::ToSchema>() -> (String, RefOr<Schema>) {
    (T::name().into_owned(), T::schema())
}

/// A reference to `T`'s schema by its name (push `named::<T>()` beside it).
pub fn reference<T: utoipa::ToSchema>() -> RefOr<Schema> {
    RefOr::Ref(utoipa::openapi::Ref::from_schema_name(T::name()))
}

/// An object with these properties, every one always present.
pub fn object(description: &str, properties: Vec<(&str, RefOr<Schema>)>) -> Schema {
    let mut object = ObjectBuilder::new()
        .schema_type(Type::Object)
        .description(Some(description));
    for (name, schema) in properties {
        object = object.property(name, schema).required(name);
    }
    object.into()
}

/// A plain string, integer or boolean property.
pub fn plain(kind: Type) -> RefOr<Schema> {
    ObjectBuilder::new().schema_type(kind).into()
}
