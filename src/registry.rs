//! The wire formats, one row each: the only list of them.
//!
//! A row gives a format's [`WireProtocol`] variant, its name (the `protocol` argument of
//! `fromProvider`, `toProvider` and `StreamAccumulator`, and `metadata.wire_protocol` on the
//! messages `fromProvider` makes), the type that implements it (a [`crate::providers::Format`],
//! in its folder under `src/providers/`) and, for a format that has a stream, `(streams)`: its
//! type implements [`crate::providers::ReadStream`] too, and `StreamAccumulator` takes its name.
//! A read-only format (no `(streams)`) has no stream half at all. Everything that depends on the
//! list is made from it here: the enum, [`WireProtocol::ALL`], [`WireProtocol::NAMES`], the names
//! a Sycophant message's `wire_protocol` may take ([`SYCOPHANT_NAMES`]), and
//! [`WireProtocol::visit`] / [`WireProtocol::visit_stream`], the one place a protocol value becomes
//! its implementation. The TypeScript `WireProtocol` union (`build.rs` writes it into the
//! generated d.ts), docs/API.md's list and the tests' lists of formats are checked against this
//! list by `tests/registry.rs`.
//!
//! This module is in every build (the names are Sycophant's too); `visit` only in builds with
//! the `providers` feature, which holds the implementations.

use serde::{Serialize, Serializer};

macro_rules! registry {
    // One row of `visit_stream`: the format's type when the row says `(streams)`.
    (@stream $visitor:ident $protocol:ident $module:ident::$ty:ident streams) => {
        $visitor.visit::<crate::providers::$module::$ty>($protocol)
    };
    (@stream $visitor:ident $protocol:ident $module:ident::$ty:ident) => {
        $visitor.none($protocol)
    };
    (@streams streams) => { true };
    (@streams) => { false };
    (
        sycophant { $($(#[$s_doc:meta])* $s_variant:ident = $s_name:literal => $s_module:ident::$s_type:ident $(($s_streams:ident))?,)* }
        others { $($(#[$o_doc:meta])* $o_variant:ident = $o_name:literal => $o_module:ident::$o_type:ident $(($o_streams:ident))?,)* }
    ) => {
        /// A provider wire format, named as Sycophant names it.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum WireProtocol {
            $($(#[$s_doc])* $s_variant,)*
            $($(#[$o_doc])* $o_variant,)*
        }

        /// The TypeScript type of the `protocol` argument, for the generated d.ts
        /// (`src/wasm/providers.rs` puts it there): a union of the registry's names.
        pub const WIRE_PROTOCOL_TS: &str = concat!(
            "/** A wire format's name: one row each of the registry (src/registry.rs). A format\n",
            " * without a stream (StreamAccumulator refuses it) is read and written only. */\n",
            "export type WireProtocol =",
            $(" | \"", $s_name, "\"",)*
            $(" | \"", $o_name, "\"",)*
            ";\n"
        );

        /// Declares each format's folder as a module of `crate::providers` (its `mod.rs` calls
        /// it), so a new row is the only line outside the folder.
        #[allow(unused_macros)]
        macro_rules! format_modules {
            () => {
                $(pub mod $s_module;)*
                $(pub mod $o_module;)*
            };
        }
        #[allow(unused_imports)]
        pub(crate) use format_modules;

        /// How many formats there are.
        pub const COUNT: usize = [$($s_name,)* $($o_name,)*].len();

        /// The names a Sycophant message's `wire_protocol` may take: Sycophant's own formats.
        pub const SYCOPHANT_NAMES: [&str; [$($s_name,)*].len()] = [$($s_name,)*];

        impl WireProtocol {
            /// Every format, in the registry's order.
            pub const ALL: [WireProtocol; COUNT] = [
                $(WireProtocol::$s_variant,)*
                $(WireProtocol::$o_variant,)*
            ];

            /// Every format's name, in the registry's order.
            pub const NAMES: [&'static str; COUNT] = [$($s_name,)* $($o_name,)*];

            pub fn as_str(self) -> &'static str {
                match self {
                    $(WireProtocol::$s_variant => $s_name,)*
                    $(WireProtocol::$o_variant => $o_name,)*
                }
            }

            /// Whether the format has a stream (its row says `(streams)`).
            pub const fn streams(self) -> bool {
                match self {
                    $(WireProtocol::$s_variant => registry!(@streams $($s_streams)?),)*
                    $(WireProtocol::$o_variant => registry!(@streams $($o_streams)?),)*
                }
            }

            /// Does `visitor`'s work with this format's stream half, or [`crate::providers::VisitStream::none`]
            /// for a read-only format.
            #[cfg(feature = "providers")]
            pub fn visit_stream<V: crate::providers::VisitStream>(self, visitor: V) -> V::Output {
                let protocol = self;
                match self {
                    $(WireProtocol::$s_variant => {
                        registry!(@stream visitor protocol $s_module::$s_type $($s_streams)?)
                    })*
                    $(WireProtocol::$o_variant => {
                        registry!(@stream visitor protocol $o_module::$o_type $($o_streams)?)
                    })*
                }
            }

            /// Does `visitor`'s work with this format's implementation.
            #[cfg(feature = "providers")]
            pub fn visit<V: crate::providers::Visit>(self, visitor: V) -> V::Output {
                match self {
                    $(WireProtocol::$s_variant => {
                        visitor.visit::<crate::providers::$s_module::$s_type>(self)
                    })*
                    $(WireProtocol::$o_variant => {
                        visitor.visit::<crate::providers::$o_module::$o_type>(self)
                    })*
                }
            }
        }
    };
}

registry! {
    // Sycophant's `wire_protocol` values: a Sycophant message may carry one of these names.
    sycophant {
        /// Anthropic Messages (`messages`, top-level `system`, content blocks with `type`).
        AnthropicMessages = "anthropic_messages" => anthropic::Anthropic (streams),
        /// OpenAI Chat Completions (`messages` with `tool_calls` and `tool` messages; `choices`).
        OpenaiCompletions = "openai_completions" => openai_completions::OpenaiCompletions (streams),
        /// OpenAI Responses (`input` / `output` item arrays).
        OpenaiResponses = "openai_responses" => openai_responses::OpenaiResponses (streams),
        /// AWS Bedrock Converse (`messages` of one-key union blocks; `output.message`).
        BedrockConverse = "bedrock_converse" => bedrock::Bedrock (streams),
        /// Google Gemini generateContent (`contents` of `parts`; `candidates`).
        GoogleGemini = "google_gemini" => gemini::Gemini (streams),
    }
    // Formats Sycophant does not name.
    others {
        /// The Vercel AI SDK's `UIMessage[]` (v5-v7: `{id, role, parts}` with typed parts) and its
        /// UI message stream.
        AiSdkUi = "ai_sdk_ui" => ai_sdk_ui::AiSdkUi (streams),
        /// LangChain.js messages (serialized `{lc, kwargs}`, stored `{type, data}`, plain `{type, content}`).
        LangchainJs = "langchain_js" => langchain_js::LangchainJs,
        /// Ollama's native `/api/chat` (`{model, messages}` with `images`, `thinking`, object
        /// arguments and `tool_name`; the response `{message, done}`; its NDJSON stream).
        Ollama = "ollama" => ollama::Ollama (streams),
    }
}

impl WireProtocol {
    /// The format with this name.
    pub fn parse(s: &str) -> Option<WireProtocol> {
        WireProtocol::ALL.into_iter().find(|p| p.as_str() == s)
    }
}

impl Serialize for WireProtocol {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}
