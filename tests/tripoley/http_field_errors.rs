//! The Tripoley API's 422 names its field beside the message, on both
//! databases.

use crate::common::{Backend, post_bad_field, spawn_app};
use serde_json::json;

async fn a_refused_final_hand_names_its_field(backend: Backend) {
    let app = spawn_app(backend).await;
    let twice = json!({"players": ["Ann", "Bo"], "dealer": "Ann", "chips": {"Ann": 1, "Bo": 1},
                       "hands": {"Ann": "As Ks Qs Js Ts", "Bo": "As 2d 3d 4d 5d"}});
    post_bad_field(&app, "/api/v1/tripoley/final", twice, "hands.Bo", None).await;
    let unknown = json!({"players": ["Ann", "Bo"], "colour": "red"});
    post_bad_field(&app, "/api/v1/tripoley/final", unknown, "colour", None).await;
}

on_both_databases!(a_refused_final_hand_names_its_field);
