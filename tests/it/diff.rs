//! `fabricc diff`: an ECN threshold change in the class touches exactly the lines that carry
//! it in every target, and nothing else; findings show up as new or fixed. `--git REV FILE`
//! against scratch repositories: imports come from the revision, errors exit 2.

use crate::support::Fabricc;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn diff(args: &[&str]) -> serde_json::Value {
    let o = Fabricc::new()
        .arg("diff")
        .args(args)
        .args(["--format", "json"])
        .run();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).expect("json")
}

#[test]
fn ecn_threshold_change_touches_exactly_its_lines() {
    let v = diff(&["fixtures/diff/old.fab", "fixtures/diff/new.fab"]);
    let files: Vec<(String, u64, u64)> = v["files"]
        .as_array()
        .expect("files")
        .iter()
        .map(|f| {
            (
                f["path"].as_str().unwrap_or_default().to_string(),
                f["added_lines"].as_u64().unwrap_or(0),
                f["removed_lines"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    // L2 overrides the thresholds, hosts do not carry switch ECN: neither changes. The
    // report's ECN table and its note of SONiC's cell rounding change.
    assert_eq!(
        files,
        [
            ("report.md".to_string(), 2, 2),
            // U6: the class's WRED profile changes, no reference moves (its three colours'
            // thresholds, one entry on one line).
            ("switches/L1/config_db.fragment.json".to_string(), 1, 1),
            ("switches/S1/qos.cfg".to_string(), 1, 1),
            ("switches/S2/qos.cfg".to_string(), 1, 1),
        ]
    );
    let eos = v["files"][2]["diff"].as_str().unwrap_or_default();
    assert!(
        eos.contains(
            "+      random-detect ecn minimum-threshold 200000 bytes maximum-threshold 1500000 bytes"
        ),
        "{eos}"
    );
    let sonic = v["files"][1]["diff"].as_str().unwrap_or_default();
    let changed: Vec<&str> = sonic
        .lines()
        .filter(|l| l.starts_with('+') && !l.starts_with("+++"))
        .collect();
    // SONiC writes whole 192-byte cells: 200,000 B is 199,872.
    assert!(changed.iter().all(|l| l.contains("199872")), "{changed:?}");
    assert_eq!(
        (v["switches_changed"].as_u64(), v["hosts_changed"].as_u64()),
        (Some(3), Some(0))
    );
    // No new finding: the advice that names the threshold's cell rounding changed its
    // numbers (`findings_whose_numbers_changed_are_changed_not_new_and_fixed`).
    assert_eq!(v["new_findings"].as_array().map(Vec::len), Some(0), "{v}");
}

#[test]
fn findings_new_and_fixed() {
    let v = diff(&[
        "fixtures/diff/old.fab",
        "fixtures/check/FAB605_isolated_switch.fab",
    ]);
    let new: Vec<&str> = v["new_findings"]
        .as_array()
        .expect("list")
        .iter()
        .filter_map(|f| f["code"].as_str())
        .collect();
    assert!(new.contains(&"FAB605"), "{v}");
    let back = diff(&[
        "fixtures/check/FAB605_isolated_switch.fab",
        "fixtures/diff/old.fab",
    ]);
    let fixed: Vec<&str> = back["fixed_findings"]
        .as_array()
        .expect("list")
        .iter()
        .filter_map(|f| f["code"].as_str())
        .collect();
    assert!(fixed.contains(&"FAB605"), "{back}");
}

/// U6/U15: a finding whose numbers changed is one "changed" finding (the ECN change of the
/// fixture moves SONiC's cell rounding note from 150000 → 149952 to 200000 → 199872), not a
/// new and a fixed one; an empty OLD side (`diff /dev/null NEW`) fixes nothing.
#[test]
fn findings_whose_numbers_changed_are_changed_not_new_and_fixed() {
    let v = diff(&["fixtures/diff/old.fab", "fixtures/diff/new.fab"]);
    let codes = |k: &str| -> Vec<String> {
        v[k].as_array()
            .expect("list")
            .iter()
            .filter_map(|f| f["code"].as_str().map(str::to_string))
            .collect()
    };
    assert_eq!(codes("changed_findings"), ["FAB907"], "{v}");
    assert!(codes("new_findings").is_empty(), "{v}");
    assert!(codes("fixed_findings").is_empty(), "{v}");
    let c = &v["changed_findings"][0];
    assert!(
        c["old_message"]
            .as_str()
            .unwrap_or_default()
            .contains("150000 → 149952")
            && c["message"]
                .as_str()
                .unwrap_or_default()
                .contains("200000 → 199872"),
        "{c}"
    );
    let empty = diff(&["/dev/null", "fixtures/diff/new.fab"]);
    assert_eq!(
        empty["fixed_findings"].as_array().map(Vec::len),
        Some(0),
        "{empty}"
    );
}

// ---- `fabricc diff --git REV FILE` ------------------------------------------------------

/// A scratch folder under the system's temporary folder, removed when dropped. git is made
/// hermetic: no user or system configuration (CI machines have none, developers' may sign
/// commits), and no repository above the folder is ever found.
struct Scratch {
    dir: PathBuf,
}

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("fabricc-diff-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("fabrics")).expect("scratch folder");
        Scratch { dir }
    }

    fn hermetic(&self, c: &mut Command) {
        c.env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CEILING_DIRECTORIES", std::env::temp_dir())
            .env_remove("GIT_DIR")
            .env_remove("GIT_WORK_TREE");
    }

    fn git(&self, args: &[&str]) {
        let mut c = Command::new("git");
        c.arg("-C").arg(&self.dir).args([
            "-c",
            "user.name=fabricc tests",
            "-c",
            "user.email=tests@fabricc.invalid",
            "-c",
            "commit.gpgsign=false",
            "-c",
            "init.defaultBranch=main",
        ]);
        self.hermetic(&mut c);
        let o = c
            .args(args)
            .output()
            .expect("git is installed (CI runs from a clone)");
        assert!(
            o.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }

    /// Copies a file of `fixtures/fabrics/split/` (a pod importing its classes and models)
    /// into `fabrics/`.
    fn add_split(&self, name: &str) {
        let from = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/fabrics/split")
            .join(name);
        std::fs::copy(from, self.dir.join("fabrics").join(name)).expect("copy fixture");
    }

    fn edit(&self, rel: &str, from: &str, to: &str) {
        let path = self.dir.join(rel);
        let text = std::fs::read_to_string(&path).expect("read");
        assert!(text.contains(from), "`{from}` is not in {rel}");
        std::fs::write(&path, text.replacen(from, to, 1)).expect("write");
    }

    /// Runs `fabricc diff ARGS` in `cwd` (relative to the scratch folder).
    fn fabricc(&self, cwd: &str, args: &[&str]) -> Output {
        let mut c = Fabricc::new()
            .arg("diff")
            .args(args)
            .current_dir(self.dir.join(cwd))
            .command();
        self.hermetic(&mut c);
        c.output().expect("run fabricc")
    }

    /// A repository with the split pod committed on `main`.
    fn repo(name: &str) -> Scratch {
        let s = Scratch::new(name);
        for f in ["pod.fab", "classes.fab", "models.fab"] {
            s.add_split(f);
        }
        s.git(&["init", "-q"]);
        s.git(&["add", "."]);
        s.git(&["commit", "-q", "-m", "pod-b"]);
        s
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn json(o: &Output) -> serde_json::Value {
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).expect("json")
}

fn changed_files(v: &serde_json::Value) -> Vec<(String, u64, u64)> {
    v["files"]
        .as_array()
        .expect("files")
        .iter()
        .map(|f| {
            (
                f["path"].as_str().unwrap_or_default().to_string(),
                f["added_lines"].as_u64().unwrap_or(0),
                f["removed_lines"].as_u64().unwrap_or(0),
            )
        })
        .collect()
}

#[test]
fn git_compares_the_working_tree_with_the_revision_imports_included() {
    let repo = Scratch::repo("ecn");
    // Nothing changed yet: the same fabric on both sides.
    let same = json(&repo.fabricc("fabrics", &["--git", "HEAD", "pod.fab", "--format", "json"]));
    assert_eq!(changed_files(&same), []);

    // The pull request touches only the imported classes file.
    repo.edit("fabrics/classes.fab", "ecn min 150KB", "ecn min 200KB");
    let v = json(&repo.fabricc("fabrics", &["--git", "HEAD", "pod.fab", "--format", "json"]));
    let mut expected = vec![("report.md".to_string(), 1, 1)];
    for sw in ["leaf1", "leaf2", "leaf3", "leaf4", "spine1", "spine2"] {
        expected.push((format!("switches/{sw}/nvue-qos.yaml"), 1, 1));
    }
    assert_eq!(changed_files(&v), expected);
    let nvue = v["files"][1]["diff"].as_str().unwrap_or_default();
    assert!(
        nvue.contains(
            "-              min-threshold: 150000\n+              min-threshold: 200000\n"
        ),
        "{nvue}"
    );
    assert_eq!(
        (v["switches_changed"].as_u64(), v["hosts_changed"].as_u64()),
        (Some(6), Some(0))
    );
    assert_eq!(
        (&v["new_findings"], &v["fixed_findings"]),
        (&serde_json::json!([]), &serde_json::json!([]))
    );

    // From the repository's top, as text: the same files, and a branch name works as REV.
    let o = repo.fabricc(".", &["--git", "main", "fabrics/pod.fab", "--stat"]);
    assert_eq!(o.status.code(), Some(0));
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(text.lines().count(), 9, "{text}");
    assert!(
        text.starts_with(&format!("{:<60} +1 -1\n", "report.md")),
        "{text}"
    );
    assert!(
        text.ends_with(
            "rollout: `fabricc plan` with the same arguments orders this change in waves and proves every step\n6 switches and 0 hosts change; 7 files, +7 -7 lines; 0 new, 0 fixed and 0 changed findings\n"
        ),
        "{text}"
    );
}

#[test]
fn git_reads_imports_from_the_revision_not_the_disk() {
    // `models.fab` exists on disk but was never committed: at HEAD the pod's import of it
    // fails, so the old side does not build and every file is added.
    let s = Scratch::new("untracked-import");
    for f in ["pod.fab", "classes.fab", "models.fab"] {
        s.add_split(f);
    }
    s.git(&["init", "-q"]);
    s.git(&["add", "fabrics/pod.fab", "fabrics/classes.fab"]);
    s.git(&["commit", "-q", "-m", "pod without models"]);
    let o = s.fabricc(
        ".",
        &["--git", "HEAD", "fabrics/pod.fab", "--format", "json"],
    );
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    let v = json(&o);
    assert!(
        stderr.contains("note: OLD `HEAD:fabrics/pod.fab` does not build"),
        "{stderr}"
    );
    let files = v["files"].as_array().expect("files");
    assert!(!files.is_empty());
    assert!(files.iter().all(|f| f["change"] == "added"), "{v}");
    assert_eq!(
        v["fixed_findings"],
        serde_json::json!([{
            "code": "FAB009",
            "severity": "error",
            "message": "cannot read `models.fab`: it does not exist at `HEAD`",
            "file": "HEAD:fabrics/pod.fab",
            "line": 3,
            "column": 8,
        }])
    );
}

/// Runs a `diff` that must fail with exit status 2 and nothing on stdout; its stderr.
#[track_caller]
fn fails(o: Output) -> String {
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    assert_eq!(String::from_utf8_lossy(&o.stdout), "");
    stderr
}

#[test]
fn git_errors_exit_2_and_say_why() {
    let repo = Scratch::repo("errors");
    let unknown = fails(repo.fabricc("fabrics", &["--git", "no-such-branch", "pod.fab"]));
    assert!(
        unknown.starts_with(
            "error: unknown revision `no-such-branch`: git knows no commit by that name\nhelp: "
        ),
        "{unknown}"
    );

    std::fs::copy(
        repo.dir.join("fabrics/pod.fab"),
        repo.dir.join("fabrics/new-pod.fab"),
    )
    .expect("copy");
    let absent = fails(repo.fabricc("fabrics", &["--git", "HEAD", "new-pod.fab"]));
    assert!(
        absent.starts_with(
            "error: cannot read `HEAD:fabrics/new-pod.fab`: it does not exist at `HEAD`\nhelp: "
        ),
        "{absent}"
    );
    assert!(absent.contains("fabricc diff /dev/null FILE"), "{absent}");

    let folder = fails(repo.fabricc(".", &["--git", "HEAD", "fabrics/no-such.fab"]));
    assert!(
        folder.starts_with("error: cannot read `fabrics/no-such.fab`"),
        "{folder}"
    );

    let option = fails(repo.fabricc("fabrics", &["--git=-p", "pod.fab"]));
    assert!(
        option.starts_with("error: `-p` is not a revision"),
        "{option}"
    );

    let plain = Scratch::new("not-a-repo");
    plain.add_split("pod.fab");
    let not_repo = fails(plain.fabricc("fabrics", &["--git", "HEAD", "pod.fab"]));
    assert!(
        not_repo.contains("is not inside a git repository\nhelp: "),
        "{not_repo}"
    );

    // No git on PATH.
    let mut c = Fabricc::new()
        .args(["diff", "--git", "HEAD", "pod.fab"])
        .current_dir(repo.dir.join("fabrics"))
        .env("PATH", plain.dir.join("fabrics"))
        .command();
    let no_git = fails(c.output().expect("run fabricc"));
    assert!(
        no_git.starts_with("error: cannot run `git`: it is not installed (or not on PATH)\nhelp: "),
        "{no_git}"
    );
}

#[test]
fn diff_needs_new_or_git_but_not_both() {
    let repo = Scratch::repo("usage");
    let missing = fails(repo.fabricc("fabrics", &["pod.fab"]));
    assert!(missing.contains("<NEW>"), "{missing}");
    assert!(
        missing.contains("fabricc diff [OPTIONS] --git REV FILE"),
        "{missing}"
    );
    let both = fails(repo.fabricc("fabrics", &["--git", "HEAD", "pod.fab", "classes.fab"]));
    assert!(both.contains("cannot be used with"), "{both}");
}

/// Issue 18 item 4: giving the ninth NIC `role frontend` removes the rail it used to form
/// (its leaf, the spines that rail needed) and leaves the NIC alone in the host script.
#[test]
fn frontend_role_removes_the_extra_rail() {
    let new = "fixtures/build/inputs/nic-roles-8-plus-1.fab";
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(new)).expect("fixture");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("diff-nic-roles");
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let old = dir.join("no-role.fab");
    let without = text.replace("nic bf3 role frontend", "nic bf3");
    assert_ne!(without, text);
    std::fs::write(&old, without).expect("write old");
    let v = diff(&[old.to_str().expect("utf-8 path"), new]);
    let files = v["files"].as_array().expect("files");
    let file = |p: &str| files.iter().find(|f| f["path"] == p);
    let leaf9 = file("switches/leaf9/nvue-qos.yaml").expect("leaf9 changes");
    assert_eq!(leaf9["added_lines"].as_u64(), Some(0), "leaf9 is removed");
    let script = file("hosts/dgx01/fabricc-roce.conf").expect("the host's settings change");
    let d = script["diff"].as_str().unwrap_or_default();
    assert!(
        d.contains("+# Left alone: nic9 (frontend) is not on the lossless RoCE fabric"),
        "{d}"
    );
    assert!(d.contains("-NIC=9 "), "{d}");
}

/// Issue 36 "done means": a one-threshold ECN change on the 256-GPU pod is at most one changed
/// line per switch file in `fabricc diff`, on every target. The pod (`fixtures/fabrics/pod-256.fab`)
/// is built on each OS with only its switch model swapped; OLD and NEW differ only in the RoCE
/// class's `ecn max` (a change every target writes, also Junos's whole-percent fill levels).
/// SONiC's WRED profile states each threshold once per packet colour (`green_`, `yellow_`,
/// `red_max_threshold`, as SONiC's own qos_config.j2 profiles do); the fragment prints each
/// entry on one line, so that is one changed line too.
#[test]
fn one_ecn_threshold_is_one_line_per_switch_file_on_every_target() {
    let pod = std::fs::read_to_string("fixtures/fabrics/pod-256.fab").expect("pod-256 fixture");
    let model = "switch-model sn5400 { platform nvidia-sn5400  os sonic  lossless-limit 2 }";
    assert!(pod.contains(model), "the pod's switch model line moved");
    assert!(pod.contains("max 1500KB"), "the pod's ECN max moved");
    let dir = std::env::temp_dir().join(format!("fabricc-ecn-one-line-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch folder");
    for (os, line) in [
        (
            "sonic",
            "platform nvidia-sn5400  os sonic  lossless-limit 2",
        ),
        (
            "cumulus",
            "platform nvidia-sn5400  os cumulus  lossless-limit 2",
        ),
        (
            "eos",
            "os eos  ports 64 x 400G  buffer 113MB  lossless-limit 2",
        ),
        (
            "nxos",
            "os nxos  ports 64 x 400G  buffer 113MB  lossless-limit 2",
        ),
        (
            "junos",
            "os junos  ports 64 x 400G  buffer 113MB  lossless-limit 2",
        ),
    ] {
        let old = pod.replace(model, &format!("switch-model sn5400 {{ {line} }}"));
        let new = old.replace("max 1500KB", "max 3000KB");
        let (o, n) = (
            dir.join(format!("{os}-old.fab")),
            dir.join(format!("{os}-new.fab")),
        );
        std::fs::write(&o, &old).expect("write old");
        std::fs::write(&n, &new).expect("write new");
        let v = diff(&[&o.to_string_lossy(), &n.to_string_lossy()]);
        let files = changed_files(&v);
        let switch_files: Vec<&(String, u64, u64)> = files
            .iter()
            .filter(|f| f.0.starts_with("switches/"))
            .collect();
        // Every one of the 12 switches (8 leaves, 4 spines) changes, hosts do not.
        assert_eq!(
            (v["switches_changed"].as_u64(), v["hosts_changed"].as_u64()),
            (Some(12), Some(0)),
            "{os}: {files:?}"
        );
        let per_file = 1;
        for (path, added, removed) in &switch_files {
            assert!(
                *added <= per_file && *removed <= per_file && added + removed > 0,
                "{os}: {path} changes +{added} -{removed} lines"
            );
        }
        if os == "sonic" {
            for f in v["files"].as_array().expect("files") {
                let diff = f["diff"].as_str().unwrap_or_default();
                if !f["path"]
                    .as_str()
                    .unwrap_or_default()
                    .starts_with("switches/")
                {
                    continue;
                }
                for l in diff.lines().filter(|l| {
                    (l.starts_with('+') || l.starts_with('-'))
                        && !l.starts_with("+++")
                        && !l.starts_with("---")
                }) {
                    assert!(
                        [
                            "green_max_threshold",
                            "yellow_max_threshold",
                            "red_max_threshold"
                        ]
                        .iter()
                        .any(|k| l.contains(k)),
                        "sonic: only the colours' max threshold changes: {l}"
                    );
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
