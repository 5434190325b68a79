//! `pitbook audit verify | anchor | export`: the auditor's tools. They take
//! the same database and key settings as `serve`.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};

use super::CliError;
use super::anchor_log;
use super::store_args::StoreArgs;
use crate::domain::common::audit::{Anchor, AnchorCheck};
use crate::domain::common::csv_cell;
use crate::store::audit::key::MissingKey;
use crate::store::audit::{self, AuditRecord, RecordBound};
use crate::store::verify;

#[derive(Debug, Subcommand)]
pub enum AuditCommand {
    /// Walk the chain: every hash, every link, every closed hand's settlement.
    Verify(VerifyArgs),
    /// Print the chain's head (SEQ:HASH) for the shift report.
    Anchor(AnchorArgs),
    /// Export records as JSON lines or CSV.
    Export(ExportArgs),
}

#[derive(Debug, Args)]
pub struct VerifyArgs {
    #[command(flatten)]
    store: StoreArgs,
    /// Start at this sequence number (trusting the record before it).
    #[arg(long, default_value_t = 1)]
    from: i64,
    /// A head written down earlier, SEQ:HASH: the chain must still contain
    /// it. Repeat for several.
    #[arg(long)]
    anchor: Vec<String>,
    /// The anchor log `serve` writes (every line is checked). Default: the
    /// one `serve` writes by default, if it exists.
    #[arg(long, env = "PITBOOK_ANCHOR_LOG")]
    anchor_log: Option<PathBuf>,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Args)]
pub struct AnchorArgs {
    #[command(flatten)]
    store: StoreArgs,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum Format {
    Jsonl,
    Csv,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    #[command(flatten)]
    store: StoreArgs,
    /// First record: a sequence number or a UTC time (2026-11-29T12:00:00Z).
    #[arg(long)]
    from: Option<String>,
    /// Last record (inclusive): a sequence number or a UTC time.
    #[arg(long)]
    to: Option<String>,
    #[arg(long, value_enum, default_value = "jsonl")]
    format: Format,
}

pub fn run(command: AuditCommand) -> Result<(), CliError> {
    super::runtime()?.block_on(async move {
        match command {
            AuditCommand::Verify(args) => verify_cmd(args).await,
            AuditCommand::Anchor(args) => {
                let (db, _) = args.store.open(MissingKey::Refuse).await?;
                match verify::anchor(&db).await.map_err(failure)? {
                    Some(a) => println!("{a}"),
                    None => println!("0:{}", crate::domain::common::audit::GENESIS_HASH),
                }
                Ok(())
            }
            AuditCommand::Export(args) => export(args).await,
        }
    })
}

fn failure(e: impl std::fmt::Display) -> CliError {
    CliError::Failure(e.to_string())
}

async fn verify_cmd(args: VerifyArgs) -> Result<(), CliError> {
    let mut anchors = Vec::new();
    for text in &args.anchor {
        let anchor = Anchor::parse(text).ok_or_else(|| {
            CliError::BadInput(format!(
                "--anchor: \"{text}\" is not SEQ:HASH (a sequence number ≥ 1 and 64 hex characters)"
            ))
        })?;
        anchors.push(AnchorCheck {
            anchor,
            origin: format!("--anchor {text}"),
        });
    }
    if args.from < 1 {
        return Err(CliError::BadInput(format!(
            "--from: {} is not a sequence number (≥ 1)",
            args.from
        )));
    }
    // A log named must exist; the default one is read if it does.
    let log = match &args.anchor_log {
        Some(path) => Some(path.clone()),
        None => Some(anchor_log::default_path(&args.store)).filter(|p| p.exists()),
    };
    if let Some(path) = &log {
        match anchor_log::read(path) {
            Ok(found) => anchors.extend(found),
            Err(CliError::Verification(message)) => {
                // An edited log: reported like any other problem.
                if args.json {
                    let problem =
                        serde_json::json!({"problem": {"kind": "anchor_log", "message": message}});
                    println!("{problem}");
                } else {
                    println!("FAILED: {message}");
                }
                return Err(CliError::Verification(message));
            }
            Err(e) => return Err(e),
        }
    }
    let given = anchors.len();
    let (db, key) = args.store.open(MissingKey::Refuse).await?;
    let report = verify::verify_with_anchors(&db, &key, args.from, anchors)
        .await
        .map_err(failure)?;
    if args.json {
        println!("{}", serde_json::to_string(&report).map_err(failure)?);
    } else if let Some(p) = &report.problem {
        println!("FAILED at seq {}: {} — {}", p.seq, p.kind, p.message);
    } else {
        let from_log = match &log {
            Some(path) => format!(" (anchor log {})", path.display()),
            None => " (no anchor log)".to_string(),
        };
        let skipped = match report.anchors_skipped {
            0 => String::new(),
            n => format!(", {n} before --from not checked"),
        };
        println!(
            "OK: {} records verified, {} settlements recomputed, {} Tripoley games replayed, \
             {} of {given} anchors checked{skipped}{from_log}, head {}",
            report.count,
            report.hands_settled,
            report.tripoley_games,
            report.anchors_checked,
            report.head.as_deref().unwrap_or("(empty log)")
        );
    }
    match &report.problem {
        None => Ok(()),
        Some(p) => Err(CliError::Verification(format!(
            "audit chain broken at seq {}: {}",
            p.seq, p.kind
        ))),
    }
}

fn bound(flag: &str, text: &str) -> Result<RecordBound, CliError> {
    if let Ok(seq) = text.parse::<i64>() {
        return Ok(RecordBound::Seq(seq));
    }
    let time = chrono::DateTime::parse_from_rfc3339(text).map_err(|_| {
        CliError::BadInput(format!(
            "{flag}: \"{text}\" is neither a sequence number nor a time like 2026-11-29T12:00:00Z"
        ))
    })?;
    let utc = time.with_timezone(&chrono::Utc);
    Ok(RecordBound::Time(
        utc.format("%Y-%m-%dT%H:%M:%S%.6fZ").to_string(),
    ))
}

async fn export(args: ExportArgs) -> Result<(), CliError> {
    let from = args
        .from
        .as_deref()
        .map(|t| bound("--from", t))
        .transpose()?;
    let to = args.to.as_deref().map(|t| bound("--to", t)).transpose()?;
    let (db, _) = args.store.open(MissingKey::Refuse).await?;
    let stdout = std::io::stdout();
    let out = std::io::BufWriter::new(stdout.lock());
    match args.format {
        Format::Jsonl => export_jsonl(&db, from, to, out).await,
        Format::Csv => export_csv(&db, from, to, out).await,
    }
}

/// One record per line, exactly as stored (`serde_json`).
async fn export_jsonl(
    db: &crate::store::Db,
    from: Option<RecordBound>,
    to: Option<RecordBound>,
    mut out: impl Write,
) -> Result<(), CliError> {
    let mut written: Result<(), CliError> = Ok(());
    audit::for_each_record(db, from, to, |r| {
        if written.is_ok() {
            written = serde_json::to_string(r)
                .map_err(failure)
                .and_then(|line| writeln!(out, "{line}").map_err(failure));
        }
    })
    .await
    .map_err(failure)?;
    written?;
    out.flush().map_err(failure)
}

/// RFC 4180 quoting by the `csv` crate; every cell through
/// [`csv_cell::cell`], so no cell opens as a formula (docs/audit.md).
async fn export_csv(
    db: &crate::store::Db,
    from: Option<RecordBound>,
    to: Option<RecordBound>,
    out: impl Write,
) -> Result<(), CliError> {
    let mut csv = csv::Writer::from_writer(out);
    csv.write_record(CSV_HEADER).map_err(failure)?;
    let mut written: Result<(), csv::Error> = Ok(());
    audit::for_each_record(db, from, to, |r| {
        if written.is_ok() {
            written = csv.write_record(csv_cells(r).iter().map(|c| csv_cell::cell(c).into_owned()));
        }
    })
    .await
    .map_err(failure)?;
    written.map_err(failure)?;
    csv.flush().map_err(failure)
}

const CSV_HEADER: [&str; 9] = [
    "seq",
    "recorded_at",
    "actor",
    "table_id",
    "hand_id",
    "event_type",
    "payload",
    "prev_hash",
    "hash",
];

fn csv_cells(r: &AuditRecord) -> [String; 9] {
    [
        r.seq.to_string(),
        r.recorded_at.clone(),
        r.actor.clone(),
        r.table_id.clone().unwrap_or_default(),
        r.hand_id.clone().unwrap_or_default(),
        r.event_type.clone(),
        r.payload.clone(),
        r.prev_hash.clone(),
        r.hash.clone(),
    ]
}
