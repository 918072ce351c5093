//! `grognard tune`: a tiny run writes a weights file the players can read, and the same seed
//! writes the same file whatever the number of jobs.

mod common;

use common::grognard;

#[test]
fn tune_writes_the_same_weights_for_a_seed() {
    let dir = tempfile::tempdir().unwrap();
    let run = |name: &str, jobs: &str| {
        let out = dir.path().join(name);
        let o = grognard()
            .args([
                "tune",
                "--games",
                "5",
                "--seed",
                "3",
                "--scenarios",
                "bon-first-day",
                "--jobs",
                jobs,
                "--out",
            ])
            .arg(&out)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let text = String::from_utf8(o.stdout).unwrap();
        assert!(text.contains("held-out log-loss"), "{text}");
        std::fs::read_to_string(out).unwrap()
    };
    let one = run("a.toml", "1");
    let two = run("b.toml", "2");
    let file = ai::learn::WeightsFile::parse(&one).expect("the written weights parse");
    assert_eq!(file.seed, 3);
    assert_eq!(file.games, 5);
    ai::learn::Linear::from_file(&file, ai::features::NAMES).expect("weights of the features");
    // the files differ only in the command line (its --out and --jobs are not recorded)
    assert_eq!(
        one.replace("a.toml", "x.toml"),
        two.replace("b.toml", "x.toml")
    );
    let refused = grognard()
        .args(["tune", "--games", "1", "--method", "spsa"])
        .output()
        .unwrap();
    assert!(!refused.status.success());
    // a player thinking by the clock would make the weights depend on the machine's speed
    for (spec, why) in [
        ("search4@1s", "simulation budget"),
        ("grandmaster", "unknown player"),
    ] {
        let o = grognard()
            .args(["tune", "--games", "1", "--players", spec])
            .output()
            .unwrap();
        assert!(!o.status.success(), "{spec}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(why), "{spec}: {err}");
    }
}
