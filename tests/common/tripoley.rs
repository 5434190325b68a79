//! Tripoley's fixtures shared by the Tripoley and audit tests.

/// The deal of docs/tripoley.md's classic example: each player's hand and
/// the spare hand, as typed.
pub const CLASSIC_DEAL: [(&str, &str); 5] = [
    ("Ann", "Ah 8s 9s Ts As Ad 8c 2d Jd 9c Ac"),
    ("Bo", "8d 9d Td Th 7c 6h 5h 3d Qd Tc"),
    ("Cy", "Jh 2c 4s 6s Js 2h 7h 4d 3c Jc"),
    ("Dee", "Qh 3s 5s 7s Qs 3h 8h 6d 5c Qc"),
    ("spare", "Kh Kd 4c 5d 2s Ks 4h 9h 7d 6c Kc"),
];
