//! Password hashing: argon2id PHC strings, hashed and checked on the blocking
//! pool, and a dummy hash so an unknown name costs as much as a wrong password.

use std::sync::OnceLock;

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};

use super::random_hex;
use crate::store::StoreError;

pub(super) fn argon2() -> Argon2<'static> {
    // OWASP: argon2id, 19 MiB, 2 iterations, 1 lane.
    let params = Params::new(19_456, 2, 1, None).expect("valid argon2 parameters");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// Hashes a password to a PHC string, off the async runtime.
pub async fn hash_password(password: String) -> Result<String, StoreError> {
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).map_err(|e| StoreError::Internal(format!("no randomness: {e}")))?;
    tokio::task::spawn_blocking(move || {
        let salt = SaltString::encode_b64(&salt).map_err(|e| e.to_string())?;
        argon2()
            .hash_password(password.as_bytes(), &salt)
            .map(|h| h.to_string())
            .map_err(|e| e.to_string())
    })
    .await
    .map_err(|e| StoreError::Internal(e.to_string()))?
    .map_err(|e| StoreError::Internal(format!("password hashing: {e}")))
}

/// Checks a password against a PHC string, off the async runtime.
pub async fn verify_password(password: String, phc: String) -> Result<bool, StoreError> {
    tokio::task::spawn_blocking(move || {
        let parsed = PasswordHash::new(&phc).map_err(|e| e.to_string())?;
        Ok::<_, String>(
            argon2()
                .verify_password(password.as_bytes(), &parsed)
                .is_ok(),
        )
    })
    .await
    .map_err(|e| StoreError::Internal(e.to_string()))?
    .map_err(|e| StoreError::Internal(format!("stored password hash: {e}")))
}

/// A hash to check against when the user does not exist, so an unknown
/// name takes as long to refuse as a wrong password.
pub(super) async fn dummy_hash() -> Result<String, StoreError> {
    static DUMMY: OnceLock<String> = OnceLock::new();
    if let Some(h) = DUMMY.get() {
        return Ok(h.clone());
    }
    let h = hash_password(random_hex(16)?).await?;
    Ok(DUMMY.get_or_init(|| h).clone())
}
