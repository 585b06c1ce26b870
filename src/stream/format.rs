//! What the accumulator takes from its format's stream half ([`ReadStream`]), each through
//! [`WireProtocol::visit_stream`]: the format's constants, looked up once, its reader of one
//! event, and its body holding one block. A format without a stream gives no transports (every
//! stream is then an error record) and nothing else.

use super::{Reader, StreamAccumulator, Transport};
use crate::json::partial::Step;
use crate::providers::{Format, Parsed, ReadStream, VisitStream, WireProtocol};

/// The constants of the format's [`ReadStream`], looked up once.
pub(super) struct StreamFormat {
    pub(super) empty_body: &'static str,
    pub(super) transports: &'static [Transport],
}

impl StreamFormat {
    pub(super) fn of(protocol: WireProtocol) -> Self {
        struct Of;
        impl VisitStream for Of {
            type Output = StreamFormat;
            fn visit<F: Format + ReadStream>(self, _: WireProtocol) -> StreamFormat {
                StreamFormat {
                    empty_body: F::EMPTY_BODY,
                    transports: F::TRANSPORTS,
                }
            }
            fn none(self, _: WireProtocol) -> StreamFormat {
                StreamFormat {
                    empty_body: "null",
                    transports: &[],
                }
            }
        }
        protocol.visit_stream(Of)
    }
}

/// The format's [`ReadStream::event`] for one event.
pub(super) struct Event<'a, 'n, R: Reader> {
    pub(super) acc: &'a mut StreamAccumulator<R>,
    pub(super) at: usize,
    pub(super) name: Option<&'n str>,
    pub(super) event: Parsed,
}

impl<R: Reader> VisitStream for Event<'_, '_, R> {
    type Output = ();
    fn visit<F: Format + ReadStream>(self, _: WireProtocol) {
        F::event(self.acc, self.at, self.name, &self.event)
    }
    fn none(self, _: WireProtocol) {}
}

/// The format's [`ReadStream::mini_body`].
pub(super) struct MiniBody<'a>(pub(super) &'a [Step], pub(super) Parsed);

impl VisitStream for MiniBody<'_> {
    type Output = Parsed;
    fn visit<F: Format + ReadStream>(self, _: WireProtocol) -> Parsed {
        F::mini_body(self.0, self.1)
    }
    fn none(self, _: WireProtocol) -> Parsed {
        Parsed::Null
    }
}
