//! The Tripoley board drawn as SVG: the nine sections and their chips,
//! compact (a tile wider than tall) so two fit side by side on a tablet.

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

/// A section's tile: its size and the space between tiles, in the view
/// box's units; wider than tall, so the board stays compact.
const TILE: (u32, u32) = (100, 60);
const GAP: u32 = 5;
/// The view box: three tiles a row and a column, and the caption below.
const WIDTH: u32 = 10 + 3 * TILE.0 + 2 * GAP + 10;
const HEIGHT: u32 = 10 + 3 * TILE.1 + 2 * GAP + 26;

/// The board as SVG: the nine sections with their chips (a row of up to
/// ten drawn, the count written). `id` prefixes each section's element id;
/// each section's `data-chips` is its count.
pub(crate) fn board_svg(id: &str, caption: &str, board: &[u64]) -> Svg {
    let mut s = SvgBuilder::default();
    s.open_chart(
        "tripoley-board",
        id,
        &format!("0 0 {WIDTH} {HEIGHT}"),
        caption,
    );
    s.empty(
        "rect",
        &[
            ("width", &WIDTH),
            ("height", &HEIGHT),
            ("rx", &14),
            ("fill", &"#0b6e4f"),
        ],
    );
    s.element(
        "text",
        &[
            ("x", &(WIDTH / 2)),
            ("y", &(HEIGHT - 9)),
            ("text-anchor", &"middle"),
            ("fill", &"#fff"),
            ("font-size", &15),
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
        let at = (10 + col * (TILE.0 + GAP), 10 + row * (TILE.1 + GAP));
        tile(
            &mut s,
            &format!("{id}-{}", section.key()),
            section,
            at,
            chips,
        );
    }
    s.close("svg");
    s.finish()
}

/// One section's tile at `(x, y)`: its label, its chips drawn, the count.
fn tile(s: &mut SvgBuilder, id: &str, section: Section, (x, y): (u32, u32), chips: u64) {
    let middle = x + TILE.0 / 2;
    s.open(
        "g",
        &[("class", &"section"), ("id", &id), ("data-chips", &chips)],
    )
    .empty(
        "rect",
        &[
            ("x", &x),
            ("y", &y),
            ("width", &TILE.0),
            ("height", &TILE.1),
            ("rx", &6),
            ("fill", &"#f4efe1"),
            ("stroke", &"#5a3b1a"),
            ("stroke-width", &1.5),
        ],
    )
    .element(
        "text",
        &[
            ("x", &middle),
            ("y", &(y + 16)),
            ("text-anchor", &"middle"),
            ("font-size", &14),
            ("class", &"label"),
        ],
        section.label(),
    );
    for k in 0..chips.min(10) as u32 {
        s.empty(
            "circle",
            &[
                ("cx", &(x + 9 + k * 9)),
                ("cy", &(y + 28)),
                ("r", &4),
                ("fill", &"#c0392b"),
                ("stroke", &"#fff"),
            ],
        );
    }
    s.element(
        "text",
        &[
            ("x", &middle),
            ("y", &(y + 53)),
            ("text-anchor", &"middle"),
            ("font-size", &19),
            ("font-weight", &700),
            ("class", &"count"),
        ],
        chips,
    )
    .close("g");
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
