//! The test kit of the Rust tests: what more than one test file needs, in one place. Each test
//! file is its own crate and takes it with `mod common; use common::*;`. `native` serves the
//! native tests (serde_json values), `browser` the boundary tests (`tests/boundary*.rs`, in a
//! headless browser, JavaScript values).
#![allow(dead_code, unused_imports)]

#[cfg(not(target_arch = "wasm32"))]
mod native;
#[cfg(not(target_arch = "wasm32"))]
pub use native::*;

#[cfg(target_arch = "wasm32")]
mod browser;
#[cfg(target_arch = "wasm32")]
pub use browser::*;
