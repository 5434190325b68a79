//! `pitbook user add NAME --role ROLE`: the password comes from stdin (its
//! first line), or is asked for on a terminal.

use std::io::{BufRead, IsTerminal, Write};

use clap::{Args, Subcommand};

use super::CliError;
use super::store_args::StoreArgs;
use crate::domain::staff::{Role, check_password, check_username};
use crate::store::audit_key::MissingKey;
use crate::store::staff::{self, AccountError};

#[derive(Debug, Subcommand)]
pub enum UserCommand {
    /// Add a staff account; the password is read from stdin.
    Add(AddArgs),
}

#[derive(Debug, Args)]
pub struct AddArgs {
    /// The user name: 1..32 of a-z, 0-9, ".", "_", "-".
    pub name: String,
    /// admin, supervisor, dealer, trainee or auditor.
    #[arg(long)]
    pub role: String,
    /// Make the user choose a new password at first login.
    #[arg(long)]
    pub must_change_password: bool,
    #[command(flatten)]
    pub store: StoreArgs,
}

pub fn run(command: UserCommand) -> Result<(), CliError> {
    match command {
        UserCommand::Add(args) => add(args),
    }
}

fn add(args: AddArgs) -> Result<(), CliError> {
    let bad = |field: &str, m: String| CliError::BadInput(format!("{field}: {m}"));
    check_username(&args.name).map_err(|m| bad("NAME", m))?;
    let role: Role = args.role.parse().map_err(|m| bad("--role", m))?;
    let password = read_password()?;
    check_password(&password).map_err(|m| bad("password", m))?;
    super::runtime()?.block_on(async move {
        let (db, key) = args.store.open(MissingKey::Create).await?;
        let result = staff::add_user(
            &db,
            &key,
            "cli",
            &args.name,
            role,
            &password,
            args.must_change_password,
        )
        .await;
        db.close().await;
        match result {
            Ok(user) => {
                println!("added user \"{}\" ({})", user.username, user.role);
                Ok(())
            }
            Err(AccountError::Invalid { field, message }) => Err(bad(field, message)),
            Err(AccountError::Store(e)) => Err(CliError::Failure(e.to_string())),
        }
    })
}

/// The first line of stdin, without its line end. On a terminal, asks for it.
fn read_password() -> Result<String, CliError> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        eprint!("password (12 to 128 characters; it is shown as you type): ");
        let _ = std::io::stderr().flush();
    }
    let mut line = String::new();
    stdin
        .lock()
        .read_line(&mut line)
        .map_err(|e| CliError::Failure(format!("cannot read the password from stdin: {e}")))?;
    Ok(line.trim_end_matches(['\r', '\n']).to_string())
}
