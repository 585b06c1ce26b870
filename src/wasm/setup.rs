//! What the module is before any function runs: its allocator, its panic handler, its start
//! function, and [`Local`], the one-thread stand-in for `thread_local!` that every table of the
//! boundary is kept in.

use wasm_bindgen::prelude::*;

// The allocator: talc instead of the standard dlmalloc, for the module's size.
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

/// Without std (the shipped module), a panic is a trap. None is reachable from input: every
/// failure on input is a `ChatDisplayError`, and the fuzz targets hold the core to that. Not
/// reading the panic's message keeps Rust's formatting machinery out of the module. With std
/// (wasm-pack test, through wasm-bindgen-test), std's own handler is used.
#[cfg(not(feature = "std"))]
mod trap {
    #[panic_handler]
    fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
        core::arch::wasm32::unreachable()
    }
}

/// When the module starts: the hash key of its tables (`map.rs`), drawn from the engine's random
/// numbers, so that which tool call ids share a slot cannot be known by whoever wrote them.
/// (`Math.random()` is enough: what it protects against is a conversation's text, not code running
/// in the page.)
#[wasm_bindgen(start, private)]
fn start() {
    // Two draws of 32 bits each (a draw has 52 or 53).
    let high = (js_sys::Math::random() * 4_294_967_296.0) as u64;
    let low = (js_sys::Math::random() * 4_294_967_296.0) as u64;
    crate::map::set_key((high << 32) | low);
}

/// A value of the module's own. The module has one thread (it is built without atomics), so a
/// `static` needs no lock: this stands in for `thread_local!`, which needs std.
pub(super) struct Local<T>(pub(super) T);

// SAFETY: wasm32 without the atomics feature runs on one thread, so nothing is shared.
unsafe impl<T> Sync for Local<T> {}

#[cfg(target_feature = "atomics")]
compile_error!(
    "the module's statics (wasm::setup::Local) assume one thread: build without atomics"
);

impl<T> Local<T> {
    pub(super) fn with<R>(&'static self, f: impl FnOnce(&T) -> R) -> R {
        f(&self.0)
    }
}
