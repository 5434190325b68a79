//! The server shell: `pitbook serve`, health, the response headers of every
//! page, and the server's limits (body size, timeouts, connections).

#[macro_use]
#[path = "../common/mod.rs"]
mod common;

mod cli_serve;
mod http_headers;
mod http_health;
mod http_metrics;
mod http_server_limits;
