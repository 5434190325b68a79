//! The Tripoley board drawn as SVG: the nine sections and their chips.

use serde_json::Value;

use crate::domain::tripoley::Section;
use crate::web::svg::{Svg, SvgBuilder};

pub(super) fn board_of(value: &Value) -> Vec<u64> {
    Section::ALL
        .iter()
        .map(|s| value[s.key()].as_u64().unwrap_or(0))
        .collect()
}

/// Where each section is drawn: the Pot in the middle (column, row).
const LAYOUT: [(Section, u32, u32); 9] = [
    (Section::Ace, 0, 0),
    (Section::King, 1, 0),
    (Section::Queen, 2, 0),
    (Section::Jack, 0, 1),
    (Section::Pot, 1, 1),
    (Section::Ten, 2, 1),
    (Section::KingQueen, 0, 2),
    (Section::EightNineTen, 1, 2),
    (Section::Kitty, 2, 2),
];

/// The board as SVG: the nine sections with their chips (a stack of up to
/// ten drawn, the count written). `id` prefixes each section's element id.
pub(super) fn board_svg(id: &str, caption: &str, board: &[u64]) -> Svg {
    let mut s = SvgBuilder::default();
    s.open_chart("tripoley-board", id, &"0 0 330 350", caption);
    s.empty(
        "rect",
        &[
            ("x", &0),
            ("y", &0),
            ("width", &330),
            ("height", &350),
            ("rx", &18),
            ("fill", &"#0b6e4f"),
        ],
    );
    s.element(
        "text",
        &[
            ("x", &165),
            ("y", &338),
            ("text-anchor", &"middle"),
            ("fill", &"#fff"),
            ("class", &"caption"),
        ],
        caption,
    );
    for (section, col, row) in LAYOUT {
        let chips = Section::ALL
            .iter()
            .position(|&t| t == section)
            .and_then(|i| board.get(i))
            .copied()
            .unwrap_or(0);
        let (x, y) = (10 + col * 105, 10 + row * 105);
        let element_id = format!("{id}-{}", section.key());
        s.open(
            "g",
            &[
                ("class", &"section"),
                ("id", &element_id),
                ("data-chips", &chips),
            ],
        )
        .empty(
            "rect",
            &[
                ("x", &x),
                ("y", &y),
                ("width", &100),
                ("height", &100),
                ("rx", &8),
                ("fill", &"#f4efe1"),
                ("stroke", &"#5a3b1a"),
                ("stroke-width", &2),
            ],
        )
        .element(
            "text",
            &[
                ("x", &(x + 50)),
                ("y", &(y + 18)),
                ("text-anchor", &"middle"),
                ("class", &"label"),
            ],
            section.label(),
        );
        for k in 0..chips.min(10) as u32 {
            s.empty(
                "circle",
                &[
                    ("cx", &(x + 20 + (k % 5) * 15)),
                    ("cy", &(y + 40 + (k / 5) * 16)),
                    ("r", &7),
                    ("fill", &"#c0392b"),
                    ("stroke", &"#fff"),
                    ("stroke-width", &1.5),
                ],
            );
        }
        s.element(
            "text",
            &[
                ("x", &(x + 50)),
                ("y", &(y + 90)),
                ("text-anchor", &"middle"),
                ("class", &"count"),
            ],
            chips,
        )
        .close("g");
    }
    s.close("svg");
    s.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_drawing_escapes_its_caption_and_shows_every_section() {
        let board = [1, 2, 3, 4, 5, 6, 7, 8, 30];
        let svg = board_svg("b", "Before round 1 (dealer <Ann & \"Bo\">)", &board).to_string();
        assert!(svg.contains("&lt;Ann &amp; &quot;Bo&quot;&gt;"), "{svg}");
        assert!(!svg.contains("<Ann"));
        for (s, c) in Section::ALL.iter().zip(board) {
            assert!(
                svg.contains(&format!("id=\"b-{}\" data-chips=\"{c}\"", s.key())),
                "{s:?}"
            );
        }
        // At most ten chips are drawn per section.
        assert_eq!(
            svg.matches("<circle").count(),
            1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 10
        );
    }
}
