//! Training drills: generating a drill and grading its correct
//! answer, per kind, at the hardest level (level 3 draws the most: the
//! biggest tables, backlines, ratios, five Tripoley players). Seeds run
//! 0, 1, 2, … so every run sees the same drills. One element = one drill
//! generated and its correct answer graded (the answer parsed from JSON
//! once, outside the timed loop). Run with the binary's allocator
//! (mimalloc, `src/main.rs`), as `benches/store.rs` is: what a drill is
//! generated with in `pitbook serve` and `pitbook drill`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pitbook::domain::training::{AnswerInput, Drill, Kind, Level, grade};

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const DRILLS: u64 = 64;

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("drill");
    g.throughput(Throughput::Elements(DRILLS));
    for kind in Kind::ALL {
        // The answers as a trainee would send them, parsed once.
        let answers: Vec<AnswerInput> = (0..DRILLS)
            .map(|seed| {
                let d = Drill::generate(kind, Level::HARD, seed);
                AnswerInput::parse(&serde_json::to_string(&d.answer).unwrap()).unwrap()
            })
            .collect();
        g.bench_function(kind.name(), |b| {
            b.iter(|| {
                for (seed, answer) in answers.iter().enumerate() {
                    let d = Drill::generate(kind, Level::HARD, seed as u64);
                    let graded = grade(&d, answer).unwrap();
                    assert!(graded.right);
                    black_box(graded);
                }
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
