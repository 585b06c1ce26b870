//! The hash map of tool call ids: the standard library's own (hashbrown), with FNV-1a.

use core::hash::{BuildHasherDefault, Hasher};

/// A map keyed by tool call ids.
pub type Map<K, V> = hashbrown::HashMap<K, V, BuildHasherDefault<Fnv>>;

/// FNV-1a, for the maps of tool call ids: ids are short, and SipHash's protection against chosen
/// keys costs more than the whole lookup here (the ids come from the caller's own conversation).
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
