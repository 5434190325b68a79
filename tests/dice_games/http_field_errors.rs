//! The poker dice and 10,000 APIs' 422 names its field beside the message,
//! on both databases.

use crate::common::{Backend, post_bad_field, spawn_app};
use serde_json::json;

async fn dice_games_name_the_field(backend: Backend) {
    let app = spawn_app(backend).await;
    let faces = json!({"faces": "A A K K X"});
    post_bad_field(&app, "/api/v1/poker-dice/rank", faces, "faces", None).await;
    let one = json!({"hands": ["A A K K Q"]});
    post_bad_field(&app, "/api/v1/poker-dice/compare", one, "hands", None).await;
    let die = json!({"dice": [1, 7]});
    post_bad_field(&app, "/api/v1/ten-thousand/score", die, "dice[1]", None).await;
}

on_both_databases!(dice_games_name_the_field);
