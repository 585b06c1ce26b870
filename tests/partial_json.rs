//! Properties of the incremental JSON parser (`chat_display::json::partial`).
//!
//! The invariant: for any valid JSON text and any way of cutting it into fragments, the changes
//! emitted, applied in order to `null`, give after each push exactly what a slow, obviously
//! correct reference computes from the text read so far (`reference` below), and after `finish`
//! exactly `serde_json::from_str::<Parsed>` of the text. Texts come from a deterministic
//! generator (xorshift) of nested values with escapes, unicode, numbers and literals, from a list
//! of hand-written cases and from the fixture files; cuts are every single cut point, every char,
//! and random.
#![cfg(not(target_arch = "wasm32"))]

use chat_display::json::partial::{apply, compact, Change, PartialJson, Step};
use chat_display::json::MAX_DEPTH;
use chat_display::providers::Parsed;

// ---------------------------------------------------------------------------------------------
// The reference: the value parsed so far of a prefix of a valid text, by the rules of the module,
// recomputed from the start (O(n) per prefix). It may panic on text that is not a prefix of
// valid JSON; it is only given such prefixes.

/// A value read from the prefix: complete (and where it ends), or cut by the end of the prefix
/// (with what of it is visible, if anything).
enum R {
    Done(Parsed, usize),
    Cut(Option<Parsed>),
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\n' | b'\r') {
        i += 1;
    }
    i
}

/// The value parsed so far of `prefix`, where nothing visible is `null` (the value the changes
/// are applied to).
fn reference(prefix: &str) -> Parsed {
    match ref_value(prefix, 0) {
        R::Done(v, end) => {
            assert_eq!(skip_ws(prefix.as_bytes(), end), prefix.len());
            v
        }
        R::Cut(v) => v.unwrap_or(Parsed::Null),
    }
}

fn ref_value(t: &str, i: usize) -> R {
    let b = t.as_bytes();
    let i = skip_ws(b, i);
    let Some(&c) = b.get(i) else {
        return R::Cut(None);
    };
    match c {
        b'{' => {
            let mut entries = Parsed::Object(Vec::new());
            let mut i = skip_ws(b, i + 1);
            if b.get(i) == Some(&b'}') {
                return R::Done(entries, i + 1);
            }
            loop {
                if i == b.len() {
                    return R::Cut(Some(entries));
                }
                assert_eq!(b[i], b'"');
                // A key is never visible alone.
                let (key, end) = ref_string(t, i);
                let Some(end) = end else {
                    return R::Cut(Some(entries));
                };
                i = skip_ws(b, end);
                if i == b.len() {
                    return R::Cut(Some(entries));
                }
                assert_eq!(b[i], b':');
                match ref_value(t, i + 1) {
                    R::Cut(None) => return R::Cut(Some(entries)),
                    R::Cut(Some(v)) => {
                        entries.set(&key, v);
                        return R::Cut(Some(entries));
                    }
                    R::Done(v, end) => {
                        entries.set(&key, v);
                        i = skip_ws(b, end);
                    }
                }
                match b.get(i) {
                    None => return R::Cut(Some(entries)),
                    Some(b',') => i = skip_ws(b, i + 1),
                    Some(b'}') => return R::Done(entries, i + 1),
                    Some(&other) => panic!("unexpected {:?} at {i}", other as char),
                }
            }
        }
        b'[' => {
            let mut items = Vec::new();
            let mut i = skip_ws(b, i + 1);
            if b.get(i) == Some(&b']') {
                return R::Done(Parsed::Array(items), i + 1);
            }
            loop {
                match ref_value(t, i) {
                    R::Cut(None) => return R::Cut(Some(Parsed::Array(items))),
                    R::Cut(Some(v)) => {
                        items.push(v);
                        return R::Cut(Some(Parsed::Array(items)));
                    }
                    R::Done(v, end) => {
                        items.push(v);
                        i = skip_ws(b, end);
                    }
                }
                match b.get(i) {
                    None => return R::Cut(Some(Parsed::Array(items))),
                    Some(b',') => i += 1,
                    Some(b']') => return R::Done(Parsed::Array(items), i + 1),
                    Some(&other) => panic!("unexpected {:?} at {i}", other as char),
                }
            }
        }
        b'"' => match ref_string(t, i) {
            (s, Some(end)) => R::Done(Parsed::String(s), end),
            // A string is visible from its opening quote on.
            (s, None) => R::Cut(Some(Parsed::String(s))),
        },
        b'-' | b'0'..=b'9' => {
            let len = b[i..]
                .iter()
                .take_while(|c| b"0123456789+-.eE".contains(c))
                .count();
            if i + len == b.len() {
                // Not complete before the character after it.
                R::Cut(None)
            } else {
                let n = t[i..i + len].parse().expect("a valid number");
                R::Done(Parsed::Number(n), i + len)
            }
        }
        _ => {
            for (word, value) in [
                ("true", Parsed::Bool(true)),
                ("false", Parsed::Bool(false)),
                ("null", Parsed::Null),
            ] {
                let rest = &t[i..];
                if rest.len() < word.len() && word.starts_with(rest) {
                    return R::Cut(None);
                }
                if rest.starts_with(word) {
                    return R::Done(value, i + word.len());
                }
            }
            panic!("unexpected {:?} at {i}", c as char)
        }
    }
}

/// One unit of a string's text: a character, or the code of a `\u` escape.
enum Unit {
    Char(char),
    Code(u16),
}

/// The visible text of the string whose opening quote is at `i`, and where it ends if it does.
fn ref_string(t: &str, i: usize) -> (String, Option<usize>) {
    let b = t.as_bytes();
    let mut units = Vec::new();
    let mut i = i + 1;
    let end = loop {
        if i >= b.len() {
            break None;
        }
        match b[i] {
            b'"' => break Some(i + 1),
            b'\\' => {
                let Some(&e) = b.get(i + 1) else { break None };
                if e == b'u' {
                    // An escape cut by the end is not visible.
                    let Some(hex) = t.get(i + 2..i + 6) else {
                        break None;
                    };
                    units.push(Unit::Code(u16::from_str_radix(hex, 16).expect("hex")));
                    i += 6;
                } else {
                    units.push(Unit::Char(match e {
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        other => other as char,
                    }));
                    i += 2;
                }
            }
            _ => {
                let c = t[i..].chars().next().expect("a char");
                units.push(Unit::Char(c));
                i += c.len_utf8();
            }
        }
    };
    let mut s = String::new();
    let mut k = 0;
    while k < units.len() {
        match units[k] {
            Unit::Char(c) => s.push(c),
            Unit::Code(h @ 0xD800..=0xDBFF) => match units.get(k + 1) {
                Some(Unit::Code(l @ 0xDC00..=0xDFFF)) => {
                    let c = 0x10000 + ((h as u32 - 0xD800) << 10) + (*l as u32 - 0xDC00);
                    s.push(char::from_u32(c).unwrap());
                    k += 1;
                }
                Some(_) => s.push('\u{FFFD}'),
                // A leading surrogate last in a string still open waits for its pair.
                None if end.is_none() => break,
                None => s.push('\u{FFFD}'),
            },
            Unit::Code(code) => s.push(char::from_u32(code as u32).unwrap_or('\u{FFFD}')),
        }
        k += 1;
    }
    (s, end)
}

// ---------------------------------------------------------------------------------------------
// Feeding

/// The value at `path` in `v`, if any.
fn at<'a>(v: &'a Parsed, path: &[Step]) -> Option<&'a Parsed> {
    let mut at = v;
    for step in path {
        at = match (step, at) {
            (Step::Key(k), _) => at.get(k)?,
            (Step::Index(i), Parsed::Array(items)) => items.get(*i)?,
            _ => return None,
        };
    }
    Some(at)
}

/// Checks the shape of the changes of one push (against the value before them) and applies them.
fn apply_checked(v: &mut Parsed, changes: &[Change]) {
    for (n, change) in changes.iter().enumerate() {
        match change {
            Change::Set { path, value } => {
                match value {
                    Parsed::String(s) => assert!(s.is_empty(), "a string begins empty"),
                    Parsed::Array(items) => assert!(items.is_empty()),
                    Parsed::Object(entries) => assert!(entries.is_empty()),
                    _ => {}
                }
                if let Some((last, parent)) = path.split_last() {
                    match (at(v, parent), last) {
                        (Some(Parsed::Array(items)), Step::Index(i)) => {
                            assert_eq!(*i, items.len(), "an array grows at its end")
                        }
                        (Some(Parsed::Object(_)), Step::Key(_)) => {}
                        _ => panic!("no container at {parent:?}"),
                    }
                }
            }
            Change::Append { path, text } => {
                assert!(!text.is_empty(), "an empty Append");
                assert!(
                    !matches!(changes.get(n + 1), Some(Change::Append { .. })),
                    "the characters of one push are one Append"
                );
                assert!(matches!(at(v, path), Some(Parsed::String(_))));
            }
        }
        apply(v, change);
    }
}

/// Feeds `text` cut at `cuts` (increasing char boundaries), comparing with the reference after
/// each push and with serde_json after finish.
fn check_cuts(text: &str, cuts: &[usize]) {
    let expected: Parsed = serde_json::from_str(text).unwrap_or_else(|e| {
        assert!(serde_rejects_only_a_lone_surrogate(&e), "{text:?}: {e}");
        reference(text)
    });
    let mut p = PartialJson::new();
    let mut v = Parsed::Null;
    // The same changes compacted (as a stream's patches carry them) give the same value.
    let mut w = Parsed::Null;
    let mut out = Vec::new();
    let mut from = 0;
    for &to in cuts.iter().chain([text.len()].iter()) {
        out.clear();
        p.push(&text[from..to], &mut out);
        apply_checked(&mut v, &out);
        let compacted = compact(out.clone());
        assert!(compacted.len() <= out.len());
        for change in &compacted {
            apply(&mut w, change);
        }
        assert_eq!(w, v, "{text:?}: compacted changes after {:?}", &text[..to]);
        assert!(!p.failed(), "{text:?} failed at {to}");
        assert_eq!(
            v,
            reference(&text[..to]),
            "{text:?} after {:?}",
            &text[..to]
        );
        from = to;
    }
    out.clear();
    assert!(p.finish(&mut out), "{text:?}");
    assert!(p.complete() && !p.failed());
    apply_checked(&mut v, &out);
    assert_eq!(v, expected, "{text:?}");
}

fn boundaries(text: &str) -> Vec<usize> {
    (1..text.len())
        .filter(|&i| text.is_char_boundary(i))
        .collect()
}

/// Every single cut point, every char, and some random cuts.
fn check_all_cuts(text: &str, rng: &mut Rng) {
    let bounds = boundaries(text);
    check_cuts(text, &[]);
    for &cut in &bounds {
        check_cuts(text, &[cut]);
    }
    check_cuts(text, &bounds);
    for _ in 0..4 {
        check_cuts(text, &random_cuts(text, rng, 8));
    }
}

fn random_cuts(text: &str, rng: &mut Rng, mean: usize) -> Vec<usize> {
    let mut cuts = Vec::new();
    let mut i = 0;
    loop {
        i += 1 + rng.below(2 * mean);
        while i < text.len() && !text.is_char_boundary(i) {
            i += 1;
        }
        if i >= text.len() {
            return cuts;
        }
        cuts.push(i);
    }
}

/// What feeding `text` cut at `cuts` gives: finish's result, failed(), and the value.
fn outcome(text: &str, cuts: &[usize]) -> (bool, bool, Parsed) {
    let mut p = PartialJson::new();
    let mut v = Parsed::Null;
    let mut out = Vec::new();
    let mut from = 0;
    let mut failed_at = None;
    for &to in cuts.iter().chain([text.len()].iter()) {
        out.clear();
        p.push(&text[from..to], &mut out);
        if failed_at.is_some() {
            assert!(out.is_empty(), "changes after a failure");
        }
        for c in &out {
            apply(&mut v, c);
        }
        if p.failed() && failed_at.is_none() {
            failed_at = Some(to);
        }
        from = to;
    }
    out.clear();
    let ok = p.finish(&mut out);
    assert_eq!(ok, !p.failed());
    assert_eq!(ok, p.complete());
    if failed_at.is_some() {
        assert!(out.is_empty());
    }
    for c in &out {
        apply(&mut v, c);
    }
    (ok, p.failed(), v)
}

/// Where the parser differs from serde_json on purpose: a lone surrogate escape (U+FFFD here, as
/// JSON.parse accepts it; serde_json rejects it).
fn serde_rejects_only_a_lone_surrogate(e: &serde_json::Error) -> bool {
    let m = e.to_string();
    m.contains("lone leading surrogate") || m.contains("unexpected end of hex escape")
}

/// Any text (valid or not): the outcome is the same however it is cut, and agrees with
/// serde_json.
fn check_any(text: &str, rng: &mut Rng) {
    let whole = outcome(text, &[]);
    match serde_json::from_str::<Parsed>(text) {
        Ok(expected) => {
            assert!(whole.0, "{text:?} is JSON");
            assert_eq!(whole.2, expected, "{text:?}");
        }
        Err(e) => assert!(
            !whole.0 || serde_rejects_only_a_lone_surrogate(&e),
            "{text:?} is not JSON ({e}) but was read as {:?}",
            whole.2
        ),
    }
    let bounds = boundaries(text);
    assert_eq!(outcome(text, &bounds), whole, "{text:?} char by char");
    for _ in 0..3 {
        let cuts = random_cuts(text, rng, 4);
        assert_eq!(outcome(text, &cuts), whole, "{text:?} cut at {cuts:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// Generation

/// A xorshift64* generator; with `lone_surrogates`, generated strings also hold lone surrogate
/// escapes (which serde_json rejects, so the expected value is then the reference's).
struct Rng {
    state: u64,
    lone_surrogates: bool,
}

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng {
            state: seed,
            lone_surrogates: false,
        }
    }
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.state ^= self.state >> 12;
        self.state ^= self.state << 25;
        self.state ^= self.state >> 27;
        self.state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

fn gen_ws(rng: &mut Rng, out: &mut String) {
    if rng.below(3) == 0 {
        out.push_str(rng.pick(&[" ", "\n", "\t", "\r\n  ", "  "]));
    }
}

fn gen_string(rng: &mut Rng, out: &mut String) {
    out.push('"');
    let len = match rng.below(10) {
        0 => 0,
        1 => rng.below(120),
        _ => rng.below(10),
    };
    for _ in 0..len {
        match rng.below(12) {
            0 => {
                out.push_str(rng.pick(&["\\n", "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\r", "\\t"]))
            }
            1 => {
                // A \u escape of a char of the basic plane, not a surrogate.
                let code = loop {
                    let c = rng.below(0x10000) as u32;
                    if !(0xD800..0xE000).contains(&c) {
                        break c;
                    }
                };
                let hex = if rng.below(2) == 0 {
                    format!("\\u{code:04x}")
                } else {
                    format!("\\u{code:04X}")
                };
                out.push_str(&hex);
            }
            2 => {
                // A surrogate pair.
                let c = 0x10000 + rng.below(0x100000) as u32;
                let high = 0xD800 + ((c - 0x10000) >> 10);
                let low = 0xDC00 + ((c - 0x10000) & 0x3FF);
                out.push_str(&format!("\\u{high:04X}\\u{low:04x}"));
            }
            3 if rng.lone_surrogates && rng.below(2) == 0 => {
                let code = 0xD800 + rng.below(0x800);
                out.push_str(&format!("\\u{code:04X}"));
            }
            3 => out.push_str(rng.pick(&["é", "中", "😀", "\u{10FFFF}", "ß", "\u{7f}"])),
            4 => out.push(' '),
            _ => out.push(rng.pick(&['a', 'b', 'k', 'Z', '0', '9', ':', ',', '{', ']', '\''])),
        }
    }
    out.push('"');
}

fn gen_digits(rng: &mut Rng, out: &mut String, max: usize) {
    for _ in 0..1 + rng.below(max) {
        out.push(char::from(b'0' + rng.below(10) as u8));
    }
}

fn gen_number(rng: &mut Rng, out: &mut String) {
    if rng.below(3) == 0 {
        out.push('-');
    }
    if rng.below(4) == 0 {
        out.push('0');
    } else {
        out.push(char::from(b'1' + rng.below(9) as u8));
        // Up to 21 digits: past u64, read as a float.
        if rng.below(2) == 0 {
            let max = if rng.below(5) == 0 { 20 } else { 4 };
            gen_digits(rng, out, max);
        }
    }
    if rng.below(3) == 0 {
        out.push('.');
        gen_digits(rng, out, 8);
    }
    if rng.below(4) == 0 {
        out.push(rng.pick(&['e', 'E']));
        out.push_str(rng.pick(&["", "+", "-"]));
        // At most two digits: never past f64's range.
        gen_digits(rng, out, 2);
    }
}

fn gen_value(rng: &mut Rng, depth: usize, out: &mut String) {
    gen_ws(rng, out);
    let kinds = if depth == 0 { 6 } else { 9 };
    match rng.below(kinds) {
        0 | 1 => gen_string(rng, out),
        2 => gen_number(rng, out),
        3 => out.push_str(rng.pick(&["true", "false", "null"])),
        4 | 5 => gen_number(rng, out),
        6 | 7 => {
            out.push('{');
            gen_ws(rng, out);
            let n = rng.below(5);
            for k in 0..n {
                if k > 0 {
                    out.push(',');
                    gen_ws(rng, out);
                }
                // Few distinct keys, so some repeat.
                if rng.below(3) == 0 {
                    gen_string(rng, out);
                } else {
                    out.push_str(rng.pick(&["\"a\"", "\"b\"", "\"\"", "\"\\u0061\"", "\"ké\""]));
                }
                gen_ws(rng, out);
                out.push(':');
                gen_value(rng, depth - 1, out);
            }
            out.push('}');
        }
        _ => {
            out.push('[');
            gen_ws(rng, out);
            let n = rng.below(5);
            for k in 0..n {
                if k > 0 {
                    out.push(',');
                }
                gen_value(rng, depth - 1, out);
            }
            out.push(']');
        }
    }
    gen_ws(rng, out);
}

fn gen_text(rng: &mut Rng, depth: usize) -> String {
    let mut out = String::new();
    gen_value(rng, depth, &mut out);
    out
}

/// A small random edit of `text`: a char deleted, inserted or replaced.
fn mutate(text: &str, rng: &mut Rng) -> String {
    let chars: Vec<char> = text.chars().collect();
    let i = rng.below(chars.len() + 1);
    let new = rng.pick(&[
        '{', '}', '[', ']', '"', ':', ',', '\\', 'u', '0', '1', 'e', '.', '-', '+', ' ', 't', 'n',
        'a', 'D', '8', '\n', '\u{1}', 'é',
    ]);
    let mut out: Vec<char> = chars.clone();
    let structural: Vec<usize> = (0..chars.len())
        .filter(|&k| "{}[]:,\"".contains(chars[k]))
        .collect();
    if !structural.is_empty() && rng.below(3) == 0 {
        // One structural char for another: the errors of structure.
        let k = structural[rng.below(structural.len())];
        out[k] = rng.pick(&['{', '}', '[', ']', ':', ',', '"']);
        return out.into_iter().collect();
    }
    match rng.below(3) {
        0 if i < chars.len() => {
            out.remove(i);
        }
        1 if i < chars.len() => out[i] = new,
        _ => out.insert(i, new),
    }
    out.into_iter().collect()
}

// ---------------------------------------------------------------------------------------------
// Tests

const CASES: &[&str] = &[
    "null",
    "true",
    "false",
    "0",
    "-0",
    "42",
    "-12.5e-3",
    "1E+2",
    "18446744073709551616",
    "-9223372036854775809",
    "1e-400",
    "\"\"",
    " \"a\\u00e9\\n\\\"\\\\\\/\\b\\f\\r\\t😀\\uD83D\\uDE00\" ",
    "[]",
    "{}",
    "[[[]]]",
    "{\"a\":{\"b\":{\"c\":{}}}}",
    "[1,2.5,-3,true,false,null,\"x\",[],{}]",
    " { \"city\" : \"Paris\" , \"days\" : 3 , \"tags\" : [ \"a\" , \"b\" ] } ",
    "{\"a\":1,\"b\":2,\"a\":3}",
    "{\"a\":\"xy\",\"a\":[1,{\"a\":\"z\"}],\"a\":\"w\"}",
    "{\"\":\"\",\"\\u0041\":\"k\\u00e9y\"}",
    "[\"中文\",\"é\",\"\\u4e2d\"]",
    "{\"path\":\"src/main.rs\",\"content\":\"fn main() {\\n    println!(\\\"hi\\\");\\n}\\n\"}",
    "[0,1,10,0.5,100e2,0e0,-0.0]",
    "\n\t\r [ 1 ] \n",
];

#[test]
fn hand_written_cases_at_every_cut() {
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
    for text in CASES {
        check_all_cuts(text, &mut rng);
    }
}

#[test]
fn generated_texts_at_every_cut() {
    let mut rng = Rng::new(0x1234_5678_9ABC_DEF1);
    for n in 0..400 {
        let text = gen_text(&mut rng, 1 + n % 5);
        check_all_cuts(&text, &mut rng);
    }
}

#[test]
fn lone_surrogates_at_every_cut() {
    let mut rng = Rng::new(0x5EED);
    rng.lone_surrogates = true;
    let mut lone = 0;
    for n in 0..200 {
        let text = gen_text(&mut rng, 1 + n % 4);
        lone += usize::from(serde_json::from_str::<Parsed>(&text).is_err());
        check_all_cuts(&text, &mut rng);
    }
    assert!(lone > 20, "{lone}");
}

#[test]
fn large_generated_texts_at_random_cuts() {
    let mut rng = Rng::new(0xDEAD_BEEF_CAFE_F00D);
    let mut done = 0;
    while done < 60 {
        let text = gen_text(&mut rng, 7);
        if text.len() < 300 {
            continue;
        }
        done += 1;
        for mean in [1, 3, 20, 200] {
            check_cuts(&text, &random_cuts(&text, &mut rng, mean));
        }
    }
}

#[test]
fn the_reference_agrees_with_serde_json_on_whole_texts() {
    let mut rng = Rng::new(7);
    for _ in 0..500 {
        let text = gen_text(&mut rng, 5);
        // A number alone is complete only at finish, which the reference does not model.
        let trimmed = text.trim_end_matches([' ', '\n', '\t', '\r']);
        if matches!(serde_json::from_str::<Parsed>(&text), Ok(Parsed::Number(_)))
            && text.len() == trimmed.len()
        {
            continue;
        }
        assert_eq!(
            reference(&text),
            serde_json::from_str::<Parsed>(&text).unwrap()
        );
    }
}

#[test]
fn fixture_files_at_random_cuts() {
    let mut rng = Rng::new(0xF1F1_F1F1);
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut files = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("json") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        if serde_json::from_str::<Parsed>(&text).is_err() {
            continue;
        }
        files += 1;
        // About 40 pushes per file, each compared with the reference.
        check_cuts(&text, &random_cuts(&text, &mut rng, text.len() / 80 + 1));
    }
    assert!(files > 10);
}

#[test]
fn every_prefix_of_a_valid_text_is_complete_exactly_when_serde_json_reads_it() {
    let mut rng = Rng::new(99);
    let mut texts: Vec<String> = CASES.iter().map(|s| s.to_string()).collect();
    texts.extend((0..150).map(|n| gen_text(&mut rng, 1 + n % 4)));
    for text in &texts {
        for end in (0..=text.len()).filter(|&i| text.is_char_boundary(i)) {
            let prefix = &text[..end];
            let mut p = PartialJson::new();
            let mut out = Vec::new();
            p.push(prefix, &mut out);
            assert!(!p.failed(), "{prefix:?} is the beginning of JSON");
            let ok = p.finish(&mut out);
            assert_eq!(
                ok,
                serde_json::from_str::<Parsed>(prefix).is_ok(),
                "{prefix:?}"
            );
        }
    }
}

#[test]
fn invalid_texts_fail_at_every_cut_and_never_panic() {
    let mut rng = Rng::new(4242);
    let invalid = [
        "",
        "   ",
        "[1,]",
        "[,1]",
        "{,\"a\":1}",
        "[1,,2]",
        "{\"a\":1,,\"b\":2}",
        "{\"a\"::1}",
        "{\"a\":1:2}",
        "[1:2]",
        "{\"a\",1}",
        "[1}",
        "{\"a\":1]",
        "[{]}",
        "{\"a\" \"b\":1}",
        "{\"a\":1 \"b\"}",
        "{\"a\":1,}",
        "{\"a\" 1}",
        "{\"a\":}",
        "{'a':1}",
        "[01]",
        "[1.]",
        "[.1]",
        "[1e]",
        "[-]",
        "[+1]",
        "[1e400]",
        "-1e400",
        "[tru]",
        "[nulll]",
        "{\"a\":1}}",
        "[1] 2",
        "\"a\tb\"",
        "\"\\a\"",
        "\"\\u00G0\"",
        "[\"abc",
        "{\"a\":[1,2",
        "{\"a\"",
        "\"\\ud83d",
        "[1 true]",
        "{\"a\":1 \"b\":2}",
        "[}",
        "{]",
    ];
    for text in invalid {
        check_any(text, &mut rng);
        assert!(!outcome(text, &[]).0, "{text:?}");
    }
}

#[test]
fn mutated_texts_agree_with_serde_json_at_every_cut() {
    let mut rng = Rng::new(0xABCD_EF01);
    let mut accepted = 0;
    let mut rejected = 0;
    for n in 0..1500 {
        let text = gen_text(&mut rng, 1 + n % 4);
        let bad = mutate(&text, &mut rng);
        check_any(&bad, &mut rng);
        if serde_json::from_str::<Parsed>(&bad).is_ok() {
            accepted += 1;
        } else {
            rejected += 1;
        }
    }
    assert!(accepted > 100 && rejected > 500, "{accepted} {rejected}");
}

#[test]
fn lone_surrogates_are_read_where_serde_json_rejects_them() {
    for text in ["\"\\uD800\"", "[\"\\udc00x\"]", "\"\\uD83D\\n\""] {
        let e = serde_json::from_str::<Parsed>(text).unwrap_err();
        assert!(serde_rejects_only_a_lone_surrogate(&e), "{e}");
        let (ok, _, v) = outcome(text, &[]);
        assert!(ok);
        assert!(format!("{v:?}").contains('\u{FFFD}'));
    }
}

#[test]
fn nesting_of_100000_fails_at_129_without_recursion() {
    // Each pattern opens `per` containers; `inner` is its innermost `per` levels, closed.
    for (open, close, inner, per) in [
        ("[", "]", "[]", 1),
        ("{\"a\":", "}", "{}", 1),
        ("[{\"k\":", "}]", "[{}]", 2),
    ] {
        let text = open.repeat(100_000);
        for cut_every in [text.len(), 1, 7] {
            let mut p = PartialJson::new();
            let mut out = Vec::new();
            let mut v = Parsed::Null;
            for chunk in text.as_bytes().chunks(cut_every) {
                out.clear();
                p.push(std::str::from_utf8(chunk).unwrap(), &mut out);
                for c in &out {
                    apply(&mut v, c);
                }
            }
            assert!(p.failed(), "{open}");
            assert!(!p.finish(&mut out));
            // The value holds the MAX_DEPTH containers opened before the failure.
            let mut depth = 0;
            let mut at = Some(&v);
            while let Some(node) = at {
                at = match node {
                    Parsed::Array(items) => items.first(),
                    Parsed::Object(entries) => entries.first().map(|(_, v)| v),
                    _ => break,
                };
                depth += 1;
            }
            assert_eq!(depth, MAX_DEPTH, "{open}");
        }
        // Exactly MAX_DEPTH levels are fine, one more is not.
        let n = MAX_DEPTH / per - 1;
        let ok = open.repeat(n) + inner + &close.repeat(n);
        assert!(outcome(&ok, &[]).0, "{ok}");
        let deeper = open.repeat(n + 1) + inner + &close.repeat(n + 1);
        assert!(!outcome(&deeper, &[]).0, "{deeper}");
    }
}

/// The values in `v` (containers included), and the length of its string values.
fn census(v: &Parsed) -> (usize, usize) {
    match v {
        Parsed::String(s) => (1, s.len()),
        Parsed::Array(items) => items
            .iter()
            .map(census)
            .fold((1, 0), |a, b| (a.0 + b.0, a.1 + b.1)),
        Parsed::Object(entries) => entries
            .iter()
            .map(|(_, v)| census(v))
            .fold((1, 0), |a, b| (a.0 + b.0, a.1 + b.1)),
        _ => (1, 0),
    }
}

#[test]
fn an_81_kb_object_in_2000_fragments_is_emitted_once() {
    // A file-editing tool call: a path, a long file content, and a list of edits.
    let mut rng = Rng::new(81);
    let mut content = String::new();
    while content.len() < 60_000 {
        let mut line = String::new();
        gen_string(&mut rng, &mut line);
        content.push_str(&line[1..line.len() - 1]);
        content.push_str("\\n");
    }
    let mut text = format!("{{\"path\": \"src/lib.rs\", \"content\": \"{content}\", \"edits\": [");
    let mut first = true;
    while text.len() < 81_000 {
        if !first {
            text.push_str(", ");
        }
        first = false;
        text.push_str("{\"old\": ");
        gen_string(&mut rng, &mut text);
        text.push_str(", \"new\": ");
        gen_string(&mut rng, &mut text);
        text.push_str(", \"line\": ");
        gen_number(&mut rng, &mut text);
        text.push('}');
    }
    text.push_str("]}");
    let expected: Parsed = serde_json::from_str(&text).unwrap();

    // 2,000 fragments of random sizes.
    let mut cuts: Vec<usize> = (0..1999).map(|_| rng.below(text.len())).collect();
    cuts.sort();
    cuts.dedup();
    for c in &mut cuts {
        while !text.is_char_boundary(*c) {
            *c += 1;
        }
    }
    cuts.dedup();
    let mut p = PartialJson::new();
    let mut v = Parsed::Null;
    let mut out = Vec::new();
    let (mut sets, mut appended, mut appends) = (0, 0, 0);
    let mut from = 0;
    for &to in cuts.iter().chain([text.len()].iter()) {
        out.clear();
        p.push(&text[from..to], &mut out);
        for c in &out {
            match c {
                Change::Set { .. } => sets += 1,
                Change::Append { text, .. } => {
                    appended += text.len();
                    appends += 1;
                }
            }
            apply(&mut v, c);
        }
        from = to;
    }
    out.clear();
    assert!(p.finish(&mut out) && out.is_empty());
    assert_eq!(v, expected);
    let (values, string_len) = census(&expected);
    // Each value is set once, each character of a string value appended once.
    assert_eq!(sets, values);
    assert_eq!(appended, string_len);
    assert!(appends <= values + cuts.len() + 1);
}

/// A random change over a small set of paths, so that changes meet: sets of scalars, strings and
/// containers, appends, at the root and below, existing or not.
fn random_change(rng: &mut Rng) -> Change {
    let steps = [
        Step::Key("a".into()),
        Step::Key("b".into()),
        Step::Key("__proto__".into()),
        Step::Index(0),
        Step::Index(1),
    ];
    let path: Vec<Step> = (0..rng.below(4))
        .map(|_| steps[rng.below(steps.len())].clone())
        .collect();
    if rng.below(3) == 0 {
        return Change::Append {
            path,
            text: ["x", "é", "12"][rng.below(3)].to_string(),
        };
    }
    let value = match rng.below(6) {
        0 => Parsed::Object(Vec::new()),
        1 => Parsed::Object(vec![("a".into(), Parsed::String("s".into()))]),
        2 => Parsed::Array(Vec::new()),
        3 => Parsed::Array(vec![Parsed::Null]),
        4 => Parsed::String(String::new()),
        _ => Parsed::Bool(true),
    };
    Change::Set { path, value }
}

#[test]
fn compacted_changes_give_the_same_value_from_any_start() {
    let mut rng = Rng::new(0x00C0_FFEE_1234_5678);
    let starts = [
        Parsed::Null,
        Parsed::Object(Vec::new()),
        Parsed::Array(Vec::new()),
        serde_json::from_str(r#"{"a": {"b": ["x", {"a": "y"}]}, "b": [[], "z"]}"#).unwrap(),
    ];
    let mut shorter = 0;
    for round in 0..20_000 {
        let changes: Vec<Change> = (0..1 + rng.below(8))
            .map(|_| random_change(&mut rng))
            .collect();
        let start = &starts[round % starts.len()];
        let mut sequential = start.clone();
        for change in &changes {
            apply(&mut sequential, change);
        }
        let compacted = compact(changes.clone());
        shorter += usize::from(compacted.len() < changes.len());
        let mut folded = start.clone();
        for change in &compacted {
            apply(&mut folded, change);
        }
        assert_eq!(folded, sequential, "{changes:?} compacted to {compacted:?}");
    }
    // The rounds did fold changes (the test would not notice a compact that does nothing).
    assert!(shorter > 2_000, "only {shorter} rounds were compacted");
}

#[test]
fn a_fragment_with_whole_fields_is_one_change() {
    let mut p = PartialJson::new();
    let mut out = Vec::new();
    p.push(
        r#"{"path": "a.txt", "options": {"mode": 420, "tags": ["x", "y"]}, "content": "ab"#,
        &mut out,
    );
    let compacted = compact(out);
    assert_eq!(compacted.len(), 1, "{compacted:?}");
    let Change::Set { path, value } = &compacted[0] else {
        panic!("{compacted:?}")
    };
    assert!(path.is_empty());
    assert_eq!(
        value,
        &serde_json::from_str::<Parsed>(
            r#"{"path": "a.txt", "options": {"mode": 420, "tags": ["x", "y"]}, "content": "ab"}"#
        )
        .unwrap()
    );
}
