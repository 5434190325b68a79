//! An exported hand written as its JSON line, the same bytes as
//! `serde_json::to_writer` gives (a test holds them equal), the audit
//! records — two thirds of a line, most of them payloads of JSON text, a
//! quote in every four bytes — escaped byte by byte into the buffer: serde's
//! escaping copies each run between two escapes apart, and those runs are a
//! few bytes long (an eighth of the export's time, BENCHMARKS.md).

use super::format::{ExportRecord, ExportedHand};

/// Appends `hand`'s line (without its newline) to `out`. `hand`'s records
/// are taken and put back.
pub fn write_line(hand: &mut ExportedHand, out: &mut Vec<u8>) -> serde_json::Result<()> {
    let records = std::mem::take(&mut hand.records);
    let written = serde_json::to_writer(&mut *out, &*hand);
    hand.records = records;
    written?;
    // The records are the last field: `…,"records":[]}` reopened.
    let closing = b"[]}";
    debug_assert!(
        out.ends_with(closing),
        "records is ExportedHand's last field"
    );
    out.truncate(out.len() - 2);
    for (i, r) in hand.records.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write_record(r, out);
    }
    out.extend_from_slice(b"]}");
    Ok(())
}

fn write_record(r: &ExportRecord, out: &mut Vec<u8>) {
    out.extend_from_slice(b"{\"seq\":");
    out.extend_from_slice(r.seq.to_string().as_bytes());
    out.extend_from_slice(b",\"recorded_at\":");
    string(&r.recorded_at, out);
    out.extend_from_slice(b",\"actor\":");
    string(&r.actor, out);
    out.extend_from_slice(b",\"table_id\":");
    optional(r.table_id.as_deref(), out);
    out.extend_from_slice(b",\"hand_id\":");
    optional(r.hand_id.as_deref(), out);
    out.extend_from_slice(b",\"event_type\":");
    string(&r.event_type, out);
    out.extend_from_slice(b",\"payload\":");
    string(&r.payload, out);
    out.extend_from_slice(b",\"prev_hash\":");
    string(&r.prev_hash, out);
    out.extend_from_slice(b",\"hash\":");
    string(&r.hash, out);
    out.push(b'}');
}

fn optional(s: Option<&str>, out: &mut Vec<u8>) {
    match s {
        Some(s) => string(s, out),
        None => out.extend_from_slice(b"null"),
    }
}

/// What serde_json writes after a backslash for each byte (0: the byte
/// itself; `u`: `\u00XX`).
const ESCAPE: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = b'u';
        b += 1;
    }
    table[0x08] = b'b';
    table[0x09] = b't';
    table[0x0a] = b'n';
    table[0x0c] = b'f';
    table[0x0d] = b'r';
    table[b'"' as usize] = b'"';
    table[b'\\' as usize] = b'\\';
    table
};

const HEX: &[u8; 16] = b"0123456789abcdef";

/// How many bytes each byte takes in a JSON string: 1, 2 (`\"`) or 6
/// (`\u00XX`).
const WIDTH: [u8; 256] = {
    let mut table = [1u8; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = match ESCAPE[b] {
            0 => 1,
            b'u' => 6,
            _ => 2,
        };
        b += 1;
    }
    table
};

/// `s` as a JSON string, escaped as serde_json escapes it. Its escaped
/// length is counted first: a text with nothing to escape (times, names,
/// hashes) is copied whole, and any other is written by index into room
/// made for exactly its length, so no byte pays a capacity check and only
/// the bytes written are zeroed first.
fn string(s: &str, out: &mut Vec<u8>) {
    let bytes = s.as_bytes();
    let escaped_len: usize = bytes
        .iter()
        .map(|&b| usize::from(WIDTH[usize::from(b)]))
        .sum();
    out.push(b'"');
    if escaped_len == bytes.len() {
        out.extend_from_slice(bytes);
        out.push(b'"');
        return;
    }
    let start = out.len();
    out.resize(start + escaped_len, 0);
    let buf = &mut out[start..];
    let mut j = 0;
    for &b in bytes {
        let e = ESCAPE[usize::from(b)];
        if e == 0 {
            buf[j] = b;
            j += 1;
        } else if e == b'u' {
            buf[j..j + 6].copy_from_slice(&[
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[usize::from(b >> 4)],
                HEX[usize::from(b & 0xf)],
            ]);
            j += 6;
        } else {
            buf[j] = b'\\';
            buf[j + 1] = e;
            j += 2;
        }
    }
    debug_assert_eq!(j, escaped_len, "the escaped length counted first");
    out.push(b'"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn record(seq: i64, text: &str, other: Option<&str>) -> ExportRecord {
        ExportRecord {
            seq,
            recorded_at: "2026-11-24T18:00:00.000001Z".into(),
            actor: text.into(),
            table_id: other.map(String::from),
            hand_id: other.map(|o| format!("{o}\"{text}")),
            event_type: format!("t{text}"),
            payload: format!("{{\"type\":\"note\",\"text\":{}}}", serde_json::json!(text)),
            prev_hash: text.chars().rev().collect(),
            hash: "ab".repeat(32),
        }
    }

    proptest! {
        /// Any text (quotes, backslashes, every control character, any
        /// Unicode) is written as serde_json writes it.
        #[test]
        fn a_line_is_the_bytes_serde_json_writes(
            texts in proptest::collection::vec(any::<String>(), 0..6),
            controls in "[\\x00-\\x1f\"\\\\\\x7f é€😀]{0,40}",
            seq in any::<i64>(),
        ) {
            let mut hand = crate::history_export::tests::exported_seed_hand();
            hand.records = texts
                .iter()
                .enumerate()
                .map(|(i, t)| record(seq.wrapping_add(i as i64), t, (i % 2 == 0).then_some(controls.as_str())))
                .collect();
            hand.records.push(record(seq, &controls, None));
            let want = serde_json::to_vec(&hand).unwrap();
            let mut got = b"earlier line\n".to_vec();
            write_line(&mut hand, &mut got).unwrap();
            prop_assert_eq!(&got[13..], &want[..]);
            prop_assert_eq!(serde_json::to_vec(&hand).unwrap(), want, "the records put back");
        }
    }
}
