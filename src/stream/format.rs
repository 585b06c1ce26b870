//! What the accumulator takes from its format's stream half ([`ReadStream`](crate::providers::ReadStream)), each through
//! [`WireProtocol::visit`]: the format's constants, looked up once, its reader of one event, and
//! its body holding one block.

use super::{Reader, StreamAccumulator};
use crate::json::partial::Step;
use crate::providers::{Format, Parsed, Visit, WireProtocol};

/// The constants of the format's [`ReadStream`](crate::providers::ReadStream), looked up once.
pub(super) struct StreamFormat {
    pub(super) empty_body: &'static str,
}

impl StreamFormat {
    pub(super) fn of(protocol: WireProtocol) -> Self {
        struct Of;
        impl Visit for Of {
            type Output = StreamFormat;
            fn visit<F: Format>(self, _: WireProtocol) -> StreamFormat {
                StreamFormat {
                    empty_body: F::EMPTY_BODY,
                }
            }
        }
        protocol.visit(Of)
    }
}

/// The format's [`ReadStream::event`](crate::providers::ReadStream::event) for one event.
pub(super) struct Event<'a, 'n, R: Reader> {
    pub(super) acc: &'a mut StreamAccumulator<R>,
    pub(super) at: usize,
    pub(super) name: Option<&'n str>,
    pub(super) event: Parsed,
}

impl<R: Reader> Visit for Event<'_, '_, R> {
    type Output = ();
    fn visit<F: Format>(self, _: WireProtocol) {
        F::event(self.acc, self.at, self.name, &self.event)
    }
}

/// The format's [`ReadStream::mini_body`](crate::providers::ReadStream::mini_body).
pub(super) struct MiniBody<'a>(pub(super) &'a [Step], pub(super) Parsed);

impl Visit for MiniBody<'_> {
    type Output = Parsed;
    fn visit<F: Format>(self, _: WireProtocol) -> Parsed {
        F::mini_body(self.0, self.1)
    }
}
