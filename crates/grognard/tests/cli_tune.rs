//! `grognard tune`: a tiny run writes a weights file the players can read, and the same seed
//! writes the same file whatever the number of jobs; `--own-sides` adds sides' own weights;
//! `--own-scenarios` writes the fit as a scenario's own into a copy of the weights played
//! with; `grognard sim --weights` plays the learned levels with a file's weights.

mod common;

use common::grognard;

#[test]
fn tune_writes_the_same_weights_for_a_seed() {
    let dir = tempfile::tempdir().unwrap();
    let run = |name: &str, jobs: &str, more: &[&str]| {
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
            ])
            .args(more)
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let text = String::from_utf8(o.stdout).unwrap();
        assert!(text.contains("held-out log-loss"), "{text}");
        std::fs::read_to_string(out).unwrap()
    };
    let one = run("a.toml", "1", &[]);
    let two = run("b.toml", "2", &[]);
    let file = ai::learn::WeightsFile::parse(&one).expect("the written weights parse");
    assert_eq!(file.seed, 3);
    assert_eq!(file.games, 5);
    ai::learn::Linear::from_file(&file, ai::features::NAMES).expect("weights of the features");
    // the files differ only in the command line (its --out and --jobs are not recorded)
    assert_eq!(
        one.replace("a.toml", "x.toml"),
        two.replace("b.toml", "x.toml")
    );
    assert!(file.sides.is_empty());
    // --own-sides: sides' own weights besides the common ones, which do not change; a side's
    // own weights are the same whether the other side gets its own or not
    let both = run("s.toml", "2", &["--own-sides", "0,1"]);
    let both = ai::learn::WeightsFile::parse(&both).expect("side weights parse");
    assert_eq!(both.sides.keys().collect::<Vec<_>>(), ["0", "1"]);
    assert_eq!((both.bias, &both.weights), (file.bias, &file.weights));
    assert!(both.command.contains("--own-sides 0,1"), "{}", both.command);
    for s in both.sides.values() {
        assert_eq!(s.held_out_log_loss.len(), 2);
        assert!(s.samples > 0 && s.weights != file.weights);
    }
    let one = run("o.toml", "2", &["--own-sides", "1"]);
    let one = ai::learn::WeightsFile::parse(&one).expect("side weights parse");
    assert_eq!(one.sides.keys().collect::<Vec<_>>(), ["1"]);
    assert_eq!(one.sides["1"], both.sides["1"]);
    // --own-scenarios: the same fit (the heuristic's games do not read weights) becomes the
    // scenario's own, written into a copy of the --weights file whose rest is kept
    let base = dir.path().join("base.toml");
    std::fs::write(&base, ai::features::NAW_WEIGHTS).unwrap();
    let shipped = ai::learn::WeightsFile::parse(ai::features::NAW_WEIGHTS).unwrap();
    let base_arg = base.to_str().unwrap();
    let own = run(
        "sc.toml",
        "2",
        &["--own-scenarios", "--own-sides", "1", "--weights", base_arg],
    );
    let own = ai::learn::WeightsFile::parse(&own).expect("scenario weights parse");
    let fd = &own.scenarios["bon-first-day"];
    assert_eq!((fd.bias, &fd.weights), (file.bias, &file.weights));
    assert_eq!(fd.held_out_log_loss, file.held_out_log_loss);
    assert_eq!((fd.games, fd.samples), (5, file.samples));
    assert_eq!(fd.sides, one.sides);
    assert_eq!((own.bias, &own.weights), (shipped.bias, &shipped.weights));
    assert_eq!(own.sides, shipped.sides);
    // the other scenarios' own weights, as the --weights file has them
    let mut others = own.scenarios.clone();
    others.remove("bon-first-day");
    assert_eq!(others, shipped.scenarios);
    assert_eq!((own.version, own.seed), (1, 3));
    assert!(own.command.contains("--own-scenarios"), "{}", own.command);
    // the file so written is one the players read
    let o = common::sim_one_first_day("search2@20n:heuristic", 4)
        .arg("--weights")
        .arg(dir.path().join("sc.toml"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // a scenario's own weights are for a shipped scenario, read by its id
    let custom = dir.path().join("custom.toml");
    std::fs::write(&custom, scenarios::scenario_text("bon-first-day").unwrap()).unwrap();
    let o = grognard()
        .args(["tune", "--games", "1", "--own-scenarios", "--scenarios"])
        .arg(&custom)
        .output()
        .unwrap();
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("is not a shipped scenario"), "{err}");
    let refused = grognard()
        .args(["tune", "--games", "1", "--method", "spsa"])
        .output()
        .unwrap();
    assert!(!refused.status.success());
    // a player thinking by the clock would make the weights depend on the machine's speed; a
    // side is a side of the scenarios
    for (args, why) in [
        (["--players", "search4@1s"], "simulation budget"),
        (["--players", "grandmaster"], "unknown player"),
        (["--own-sides", "2"], "side 2 is not"),
    ] {
        let o = grognard()
            .args(["tune", "--games", "1", "--scenarios", "bon-first-day"])
            .args(args)
            .output()
            .unwrap();
        assert!(!o.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(why), "{args:?}: {err}");
    }
}

/// The learned levels play with the weights of `--weights`, and the report says so; the
/// shipped file gives the same games as no option; a file that is not weights is refused.
#[test]
fn sim_reads_the_weights_given() {
    let dir = tempfile::tempdir().unwrap();
    let shipped = dir.path().join("shipped.toml");
    std::fs::write(&shipped, ai::features::NAW_WEIGHTS).unwrap();
    let sim = |more: &[&str]| {
        let o = common::sim_one_first_day("search2@40n:heuristic", 4)
            .arg("--json")
            .args(more)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap()
    };
    let plain = sim(&[]);
    assert!(plain.get("weights").is_none());
    let read = sim(&["--weights", shipped.to_str().unwrap()]);
    let version = ai::learn::WeightsFile::parse(ai::features::NAW_WEIGHTS)
        .unwrap()
        .version;
    assert_eq!(
        read["weights"].as_str(),
        Some(format!("{} (version {version})", shipped.display()).as_str())
    );
    assert_eq!(read["per_game"], plain["per_game"]);
    // weights that make the French seek their own losses give them another game
    let perverse = dir.path().join("perverse.toml");
    let mut file = ai::learn::WeightsFile::parse(ai::features::NAW_WEIGHTS).unwrap();
    file.weights.insert("loss_own".into(), 20.0);
    std::fs::write(&perverse, file.to_toml()).unwrap();
    let other = sim(&["--weights", perverse.to_str().unwrap()]);
    assert_ne!(other["per_game"], plain["per_game"]);
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "bias = 1\n").unwrap();
    // weights of a scenario nobody ships would never be read: refused
    let stray = dir.path().join("stray.toml");
    let mut file = ai::learn::WeightsFile::parse(ai::features::NAW_WEIGHTS).unwrap();
    file.scenarios.insert(
        "waterloo".into(),
        ai::learn::ScenarioWeights {
            games: 1,
            samples: 1,
            held_out_log_loss: Vec::new(),
            bias: 0.0,
            weights: file.weights.clone(),
            sides: Default::default(),
        },
    );
    std::fs::write(&stray, file.to_toml()).unwrap();
    for file in [bad, stray, dir.path().join("missing.toml")] {
        let o = grognard()
            .args(["sim", "bon-first-day", "--games", "1", "--weights"])
            .arg(&file)
            .output()
            .unwrap();
        assert!(!o.status.success());
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("--weights") && err.contains(file.to_str().unwrap()),
            "{err}"
        );
    }
}
