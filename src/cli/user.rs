//! `pitbook user add NAME --role ROLE`: the password comes from stdin (its
//! first line), or is asked for on a terminal. `pitbook user token NAME`
//! issues an API token and prints it once; `pitbook user revoke-token NAME
//! --id ID | --label TEXT` revokes one or every live token with that label.
//! `list`, `disable NAME`, `enable NAME`, `set-role NAME ROLE` and
//! `reset-password NAME` run accounts as the `/users` page does (actor `cli`).

use std::io::{BufRead, IsTerminal, Write};

use clap::{Args, Subcommand};

use super::CliError;
use super::store_args::StoreArgs;
use crate::domain::staff::{Role, check_password, check_username};
use crate::store::audit::key::MissingKey;
use crate::store::staff::{self, AccountError, RevokeWhich};

#[derive(Debug, Subcommand)]
pub enum UserCommand {
    /// Add a staff account; the password is read from stdin.
    Add(AddArgs),
    /// Issue an API token for a user and print it once (stdout, one line).
    Token(TokenArgs),
    /// Revoke a user's API token by its id, or every live one with a label.
    RevokeToken(RevokeArgs),
    /// List the accounts: name, role, state.
    List(ListArgs),
    /// Disable an account: its sessions end and its API tokens stop at once.
    Disable(NameArgs),
    /// Enable a disabled account again.
    Enable(NameArgs),
    /// Change an account's role.
    SetRole(SetRoleArgs),
    /// Give an account a new one-time password (printed once on stdout),
    /// to be changed at its next login; its sessions end.
    ResetPassword(NameArgs),
}

#[derive(Debug, Args)]
pub struct ListArgs {
    #[command(flatten)]
    pub store: StoreArgs,
}

#[derive(Debug, Args)]
pub struct NameArgs {
    /// The user name.
    pub name: String,
    #[command(flatten)]
    pub store: StoreArgs,
}

#[derive(Debug, Args)]
pub struct SetRoleArgs {
    /// The user name.
    pub name: String,
    /// admin, supervisor, dealer, trainee or auditor.
    pub role: String,
    #[command(flatten)]
    pub store: StoreArgs,
}

#[derive(Debug, Args)]
pub struct TokenArgs {
    /// The user the token signs in as.
    pub name: String,
    /// What the token is for (0..64 characters), e.g. "load test".
    #[arg(long, default_value = "")]
    pub label: String,
    #[command(flatten)]
    pub store: StoreArgs,
}

#[derive(Debug, Args)]
#[command(group = clap::ArgGroup::new("which").required(true).args(["id", "label"]))]
pub struct RevokeArgs {
    /// The user whose token it is.
    pub name: String,
    /// The token's id (printed when it was issued).
    #[arg(long)]
    pub id: Option<String>,
    /// Revoke every live token of the user with this label.
    #[arg(long)]
    pub label: Option<String>,
    #[command(flatten)]
    pub store: StoreArgs,
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
        UserCommand::Token(args) => token(args),
        UserCommand::RevokeToken(args) => revoke_token(args),
        UserCommand::List(args) => list(args),
        UserCommand::Disable(args) => set_disabled(args, true),
        UserCommand::Enable(args) => set_disabled(args, false),
        UserCommand::SetRole(args) => set_role(args),
        UserCommand::ResetPassword(args) => reset_password(args),
    }
}

/// The actor of every change made on the command line (as `user add` records it).
const CLI_ACTOR: &str = "cli";

fn list(args: ListArgs) -> Result<(), CliError> {
    super::runtime()?.block_on(async move {
        let (db, _key) = args.store.open(MissingKey::Refuse).await?;
        let result = staff::list_users(&db).await;
        db.close().await;
        let users = result.map_err(|e| CliError::Failure(e.to_string()))?;
        println!("{:<32}  {:<10}  state", "user", "role");
        for (user, disabled) in users {
            println!(
                "{:<32}  {:<10}  {}",
                user.username,
                user.role.as_str(),
                staff::account_state(&user, disabled)
            );
        }
        Ok(())
    })
}

fn set_disabled(args: NameArgs, disabled: bool) -> Result<(), CliError> {
    check_username(&args.name).map_err(|m| bad("NAME", m))?;
    super::runtime()?.block_on(async move {
        let (db, key) = args.store.open(MissingKey::Refuse).await?;
        let result = staff::admin::set_disabled(&db, &key, CLI_ACTOR, &args.name, disabled).await;
        db.close().await;
        let ended = result.map_err(account_error)?;
        if disabled {
            println!(
                "disabled \"{}\": {ended} sessions ended, its API tokens stopped",
                args.name
            );
        } else {
            println!("enabled \"{}\"", args.name);
        }
        Ok(())
    })
}

fn set_role(args: SetRoleArgs) -> Result<(), CliError> {
    check_username(&args.name).map_err(|m| bad("NAME", m))?;
    let role: Role = args.role.parse().map_err(|m| bad("ROLE", m))?;
    super::runtime()?.block_on(async move {
        let (db, key) = args.store.open(MissingKey::Refuse).await?;
        let result = staff::admin::set_role(&db, &key, CLI_ACTOR, &args.name, role).await;
        db.close().await;
        let from = result.map_err(account_error)?;
        println!("\"{}\" is now {role} (was {from})", args.name);
        Ok(())
    })
}

fn reset_password(args: NameArgs) -> Result<(), CliError> {
    check_username(&args.name).map_err(|m| bad("NAME", m))?;
    super::runtime()?.block_on(async move {
        let (db, key) = args.store.open(MissingKey::Refuse).await?;
        let result = staff::admin::reset_password(&db, &key, CLI_ACTOR, &args.name).await;
        db.close().await;
        let (password, ended) = result.map_err(account_error)?;
        eprintln!(
            "pitbook: one-time password for \"{}\" (shown once; it must be changed at the next login; {ended} sessions ended):",
            args.name
        );
        println!("{password}");
        Ok(())
    })
}

fn bad(field: &str, m: String) -> CliError {
    CliError::BadInput(format!("{field}: {m}"))
}

/// The store's error, with the field under its command-line name.
fn account_error(e: AccountError) -> CliError {
    match e {
        AccountError::Invalid(e) => {
            let field = match e.field() {
                "username" => "NAME",
                "label" => "--label",
                "id" => "--id",
                "role" => "ROLE",
                other => other,
            };
            bad(field, e.message().to_string())
        }
        AccountError::Store(e) => CliError::Failure(e.to_string()),
    }
}

fn token(args: TokenArgs) -> Result<(), CliError> {
    check_username(&args.name).map_err(|m| bad("NAME", m))?;
    let label = staff::check_token_label(&args.label).map_err(|m| bad("--label", m))?;
    super::runtime()?.block_on(async move {
        let (db, key) = args.store.open(MissingKey::Refuse).await?;
        let result = staff::issue_token(&db, &key, "cli", &args.name, &label).await;
        db.close().await;
        let (token, info) = result.map_err(account_error)?;
        eprintln!(
            "pitbook: API token {} (label \"{}\") for \"{}\": shown once, keep it secret",
            info.id, info.label, info.username
        );
        println!("{token}");
        Ok(())
    })
}

fn revoke_token(args: RevokeArgs) -> Result<(), CliError> {
    check_username(&args.name).map_err(|m| bad("NAME", m))?;
    let which = match (args.id, args.label) {
        (Some(id), None) => {
            if id.is_empty() || id.chars().count() > 64 {
                return Err(bad("--id", format!("\"{id}\" is not a token id")));
            }
            RevokeWhich::Id(id)
        }
        (None, Some(label)) => {
            RevokeWhich::Label(staff::check_token_label(&label).map_err(|m| bad("--label", m))?)
        }
        _ => return Err(bad("--id/--label", "give exactly one".into())),
    };
    super::runtime()?.block_on(async move {
        let (db, key) = args.store.open(MissingKey::Refuse).await?;
        let result = staff::revoke_tokens(&db, &key, "cli", &args.name, &which).await;
        db.close().await;
        for info in result.map_err(account_error)? {
            println!(
                "revoked API token {} (label \"{}\") of \"{}\"",
                info.id, info.label, info.username
            );
        }
        Ok(())
    })
}

fn add(args: AddArgs) -> Result<(), CliError> {
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
            Err(AccountError::Invalid(e)) => Err(bad(e.field(), e.message().to_string())),
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
