//! The hash maps of tool call ids and of object keys: the standard library's own (hashbrown), with
//! FNV-1a.

use core::hash::{BuildHasherDefault, Hasher};

/// A map keyed by tool call ids or object keys.
pub type Map<K, V> = hashbrown::HashMap<K, V, BuildHasherDefault<Fnv>>;

/// FNV-1a: ids and keys are short, and SipHash's protection against chosen keys costs more than
/// the whole lookup here. They come from the caller's own conversation, and in the module SipHash
/// had no secret key to protect them with anyway (wasm32-unknown-unknown has no randomness).
#[derive(Default)]
pub struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut hash = self.0 ^ 0xcbf2_9ce4_8422_2325;
        for byte in bytes {
            hash = (hash ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = hash;
    }
}
