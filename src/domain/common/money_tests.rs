//! Tests of money: parsing, the canonical and displayed texts, the unit's
//! checks, rounding to the unit and money in JSON.

use proptest::prelude::*;

use super::*;

#[test]
fn display_groups_thousands_with_a_real_minus() {
    for (text, shown) in [
        ("0", "0.00"),
        ("60", "60.00"),
        ("999.5", "999.50"),
        ("1000", "1,000.00"),
        ("54248.76", "54,248.76"),
        ("-868.96", "\u{2212}868.96"),
        ("1234567.005", "1,234,567.005"),
    ] {
        assert_eq!(Money::parse(text).unwrap().to_display(), shown, "{text}");
    }
}

proptest! {
    /// The display is the canonical text with its separators dropped
    /// and its minus sign ASCII again.
    #[test]
    fn display_reads_back_as_the_canonical_text(
        lo in any::<u32>(), mid in any::<u32>(), negative in any::<bool>(), scale in 0u32..=6,
    ) {
        let money = Money(Decimal::from_parts(lo, mid, 0, negative, scale));
        prop_assume!(!money.is_zero());
        let back = money.to_display().replace(',', "").replace('\u{2212}', "-");
        prop_assert_eq!(back, money.to_canonical());
    }

    /// The canonical text written digit by digit is what rust_decimal
    /// writes, for any decimal (any scale, sign and size).
    #[test]
    fn canonical_text_is_rust_decimals(
        lo in any::<u32>(), mid in any::<u32>(), hi in any::<u32>(),
        negative in any::<bool>(), scale in 0u32..=28,
    ) {
        let money = Money(Decimal::from_parts(lo, mid, hi, negative, scale));
        let mut d = money.0.normalize();
        if d.scale() < 2 {
            d.rescale(2);
        }
        prop_assert_eq!(money.to_canonical(), d.to_string());
    }

    /// The short-amount path reads exactly what the decimal parser
    /// reads: the same value, scale and sign (so the same text back).
    #[test]
    fn short_amounts_read_as_the_decimal_parser_reads_them(
        // At most 24 characters, Money::parse's own limit.
        text in "-?[0-9]{1,16}(\\.[0-9]{1,6})?",
    ) {
        let parsed = Money::parse(&text);
        let general = Decimal::from_str_exact(&text).map(Money);
        prop_assert_eq!(parsed.is_ok(), general.is_ok());
        if let (Ok(parsed), Ok(general)) = (parsed, general) {
            prop_assert_eq!(parsed.as_decimal().serialize(), general.as_decimal().serialize());
        }
    }
}

#[test]
fn short_amounts_keep_their_scale_and_a_negative_zero_its_sign() {
    for text in [
        "30.50",
        "140",
        "-80.00",
        "0.01",
        "000.10",
        "-0.00",
        "123456789012345678.9",
    ] {
        let parsed = Money::parse(text).expect(text);
        let general = Decimal::from_str_exact(text).expect(text);
        assert_eq!(
            parsed.as_decimal().serialize(),
            general.serialize(),
            "{text}"
        );
    }
    for bad in [".5", "5.", "", "-", "1e2", "+1", "1 ", "--1"] {
        assert!(Money::parse(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn parses_plain_decimals() {
    assert_eq!(Money::parse("60").unwrap().to_canonical(), "60.00");
    assert_eq!(Money::parse("12.50").unwrap().to_canonical(), "12.50");
    assert_eq!(Money::parse("0.125").unwrap().to_canonical(), "0.125");
    assert_eq!(Money::parse("-5").unwrap().to_dollars(), "-$5");
    assert_eq!(Money::parse("12.5").unwrap().to_dollars(), "$12.50");
}

#[test]
fn rejects_garbage_exponents_and_nan() {
    for bad in [
        "",
        "NaN",
        "1e3",
        "1E3",
        " 1",
        "1 ",
        "+1",
        "1,000",
        ".5",
        "5.",
        "--1",
        "0x10",
        "inf",
        "1.2.3",
        "99999999999999999999999999",
    ] {
        assert!(Money::parse(bad).is_err(), "{bad:?} should be rejected");
    }
}

#[test]
fn unit_checks_sign_and_precision() {
    let cent = Unit::CENT;
    assert!(cent.positive("bank", Money::parse("0").unwrap()).is_err());
    assert!(cent.positive("bank", Money::parse("-1").unwrap()).is_err());
    let err = cent
        .positive("bank", Money::parse("1.005").unwrap())
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "bank: 1.005 is finer than the table's smallest unit 0.01"
    );
    let quarter = Unit::parse("min_unit", "0.25").unwrap();
    assert!(quarter.positive("x", Money::parse("1.75").unwrap()).is_ok());
    assert!(
        quarter
            .positive("x", Money::parse("1.10").unwrap())
            .is_err()
    );
    assert!(Unit::parse("min_unit", "0").is_err());
}

#[test]
fn ratio_rounds_down_to_unit() {
    let m = Money::parse("25").unwrap();
    assert_eq!(m.mul_ratio_floor(3, 2, Unit::CENT).to_canonical(), "37.50");
    let m = Money::parse("0.05").unwrap();
    assert_eq!(m.mul_ratio_floor(3, 2, Unit::CENT).to_canonical(), "0.07");
    assert_eq!(
        Unit::parse("u", "1")
            .unwrap()
            .floor(Money::parse("37.5").unwrap())
            .to_canonical(),
        "37.00"
    );
}

#[test]
fn json_is_a_string_and_numbers_are_rejected() {
    let m: Money = serde_json::from_str("\"12.50\"").unwrap();
    assert_eq!(serde_json::to_string(&m).unwrap(), "\"12.50\"");
    assert!(serde_json::from_str::<Money>("12.5").is_err());
    assert!(serde_json::from_str::<Money>("\"1e2\"").is_err());
}
