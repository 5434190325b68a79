//! The server shell: `pitbook serve`, health, the response headers of every
//! page, the server's limits (body size, timeouts, connections), and the
//! API contract (docs/openapi.json) against the code, the docs and the
//! running server; three `serve` processes on one PostgreSQL database.

#[macro_use]
#[path = "../common/mod.rs"]
mod common;

mod cli_serve;
mod contract;
mod contract_limits;
mod form_names;
mod http_headers;
mod http_health;
mod http_metrics;
mod http_openapi;
mod http_server_limits;
mod multi_instance;
mod openapi_contract;
