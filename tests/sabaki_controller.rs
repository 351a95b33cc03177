//! Sabaki's own GTP controller (the npm package @sabaki/gtp) drives the engine binary
//! through Sabaki's exact sequence (`tests/sabaki/sequence.js`). `.ci/run` installs the
//! package; without Node.js or the package the test says so and passes.

use std::path::Path;
use std::process::Command;

#[test]
fn sabaki_controller_drives_the_engine_through_its_sequence() {
    let dir = Path::new("tests/sabaki");
    if !dir.join("node_modules/@sabaki/gtp").exists() {
        eprintln!("@sabaki/gtp is not installed: run `npm install` in tests/sabaki (.ci/run does)");
        return;
    }
    let output = Command::new("node")
        .arg("sequence.js")
        .arg(env!("CARGO_BIN_EXE_yeoul"))
        .args(["--level", "easy", "--threads", "1"])
        .current_dir(dir)
        .output();
    let output = match output {
        Ok(o) => o,
        Err(e) => {
            eprintln!("node is not available ({e}): skipping");
            return;
        }
    };
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "sequence failed:\n{stdout}\n{stderr}"
    );
    assert!(stdout.starts_with("ok: "), "{stdout}");
    eprintln!("{stdout}");
}
