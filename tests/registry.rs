//! The registry (src/registry.rs) is the one list of wire formats. Whatever else lists them
//! either reads it or is checked here against it, so that adding a format (its folder and its
//! row) leaves nothing behind that still lists the others only:
//!
//! * the scripts read the rows with tests/tools/formats.mjs, whose reading of them is checked here;
//! * the generated TypeScript `WireProtocol` union comes from the registry, and no `.d.ts` written by
//!   hand defines it again;
//! * docs/API.md's `WireProtocol` names every format;
//! * every format has its provider fixtures (`tests/fixtures/providers_<name>.json`, or a folder
//!   `tests/fixtures/<name>/` of its own), every format that streams its stream fixtures
//!   (`tests/fixtures/streams/<name>/`), and the browser tests, which cannot list a directory,
//!   name every one of those files.
#![cfg(not(target_arch = "wasm32"))]

use chat_display::providers::{has_stream, WireProtocol};
use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

fn read(path: &str) -> String {
    fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The rows as tests/tools/formats.mjs reads them: `Variant = "name" => module::Type,` with
/// ` (streams)` before the comma.
fn rows() -> Vec<(String, bool)> {
    read("src/registry.rs")
        .lines()
        .filter_map(|line| {
            let line = line.trim();
            let (variant, rest) = line.split_once(" = \"")?;
            if !variant.chars().next()?.is_ascii_uppercase()
                || !variant.chars().all(|c| c.is_ascii_alphanumeric())
            {
                return None;
            }
            let (name, rest) = rest.split_once("\" => ")?;
            let rest = rest.strip_suffix(',')?;
            let (path, streams) = match rest.strip_suffix(" (streams)") {
                Some(path) => (path, true),
                None => (rest, false),
            };
            let (module, ty) = path.split_once("::")?;
            let word =
                |s: &str| !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || c == '_');
            (word(module) && word(ty)).then(|| (name.to_string(), streams))
        })
        .collect()
}

#[test]
fn the_scripts_reading_of_the_rows_is_the_registry() {
    let expected: Vec<(String, bool)> = WireProtocol::ALL
        .iter()
        .map(|p| (p.as_str().to_string(), has_stream(*p)))
        .collect();
    assert_eq!(rows(), expected);
    let mjs = read("tests/tools/formats.mjs");
    assert!(
        mjs.contains(
            r#"const ROW = /^\s*[A-Z]\w* = "([a-z0-9_]+)" => \w+::\w+( \(streams\))?,\s*$/gm;"#
        ),
        "formats.mjs reads the rows as rows() here does"
    );
    for script in [
        "tests/tools/diff-builds.mjs",
        "bench/scaling.mjs",
        "fuzz/run.sh",
    ] {
        let text = read(script);
        assert!(
            text.contains("formats"),
            "{script} reads the formats from formats.mjs"
        );
        // A case about one format may name it; a list of formats kept by hand names several.
        let named: Vec<&str> = WireProtocol::NAMES
            .into_iter()
            .filter(|name| text.contains(&format!("\"{name}\"")))
            .collect();
        assert!(
            named.len() <= 1,
            "{script} lists formats by hand: {named:?}"
        );
    }
}

#[test]
fn the_typescript_union_is_the_registrys() {
    let union = chat_display::registry::WIRE_PROTOCOL_TS;
    for name in WireProtocol::NAMES {
        assert!(union.contains(&format!(" | \"{name}\"")), "{union}");
    }
    for entry in fs::read_dir(root().join("src/wasm")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "ts") {
            let text = fs::read_to_string(&path).unwrap();
            assert!(
                !text.contains("type WireProtocol ="),
                "{}: WireProtocol is written from the registry, not by hand",
                path.display()
            );
        }
    }
}

#[test]
fn docs_api_names_every_format() {
    let api = read("docs/API.md");
    let start = api
        .find("type WireProtocol =")
        .expect("docs/API.md has the WireProtocol type");
    let end = start + api[start..].find(';').expect("the type ends with ;");
    let listed: Vec<&str> = api[start..end].split('"').skip(1).step_by(2).collect();
    assert_eq!(listed, WireProtocol::NAMES, "docs/API.md's WireProtocol");
}

/// The file names of a directory whose names start with `prefix` and end with `suffix`, sorted.
fn names(dir: &str, prefix: &str, suffix: &str) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(root().join(dir))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(prefix) && n.ends_with(suffix))
        .collect();
    names.sort();
    names
}

#[test]
fn every_format_has_its_fixtures_and_every_fixture_file_its_format() {
    for name in WireProtocol::NAMES {
        let file = root().join(format!("tests/fixtures/providers_{name}.json"));
        let folder = root().join(format!("tests/fixtures/{name}"));
        assert!(
            file.exists() || folder.is_dir(),
            "{name}: no tests/fixtures/providers_{name}.json and no tests/fixtures/{name}/"
        );
    }
    for file in names("tests/fixtures", "providers_", ".json") {
        let text = read(&format!("tests/fixtures/{file}"));
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        let protocol = value["protocol"].as_str().unwrap_or_default();
        assert_eq!(file, format!("providers_{protocol}.json"));
        assert!(
            WireProtocol::parse(protocol).is_some(),
            "{file}: {protocol}"
        );
        assert!(value["error_flag"].is_boolean(), "{file}: error_flag");
    }
    let streaming: Vec<String> = WireProtocol::ALL
        .into_iter()
        .filter(|p| has_stream(*p))
        .map(|p| p.as_str().to_string())
        .collect();
    let mut folders: Vec<String> = fs::read_dir(root().join("tests/fixtures/streams"))
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    folders.sort();
    let mut sorted = streaming.clone();
    sorted.sort();
    assert_eq!(
        folders, sorted,
        "tests/fixtures/streams/ has one folder per format that streams"
    );
}

#[test]
fn the_browser_tests_name_every_fixture_file() {
    let providers = read("tests/boundary_providers.rs");
    for file in names("tests/fixtures", "providers_", ".json") {
        assert!(
            providers.contains(&format!("include_str!(\"fixtures/{file}\")")),
            "tests/boundary_providers.rs does not run {file}"
        );
    }
    let streams = read("tests/boundary_stream.rs");
    for protocol in WireProtocol::ALL.into_iter().filter(|p| has_stream(*p)) {
        assert!(
            streams.contains(&format!(
                "include_str!(\"fixtures/streams/{}/",
                protocol.as_str()
            )),
            "tests/boundary_stream.rs runs no {} stream",
            protocol.as_str()
        );
    }
}
