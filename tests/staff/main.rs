//! Staff: accounts and API tokens from the command line and over HTTP, the
//! pages of signing in and of accounts, the navigation bar by role, the
//! login throttle, API auth.

#[macro_use]
#[path = "../common/mod.rs"]
mod common;

mod cli_accounts;
mod cli_user_tokens;
mod http_accounts;
mod http_api_auth;
mod http_home;
mod http_login_throttle;
mod http_nav;
mod http_staff;
