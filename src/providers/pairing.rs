//! Pairing tool results with the calls they answer, for both directions (`fromProvider`'s
//! [`super::Conversation`] and `toProvider`'s [`super::read_messages`]).

use crate::error::text;
use crate::prelude::*;

/// The calls of a conversation in order, for pairing results with them: by id, or, where the
/// result has no id, with the first unanswered call of the same name (of any name when the result
/// has none either). A call without an id gets `synthetic-<n>`.
///
/// Each call's data is kept beside the calls rather than in them, so that the pairing itself
/// ([`Calls`]) is compiled once, not once per type of data.
#[derive(Debug)]
pub struct Pairing<T> {
    calls: Calls,
    /// The data of each call, in the order of `calls.list`.
    data: Vec<T>,
}

#[derive(Debug, Default)]
struct Calls {
    list: Vec<PairedCall>,
    synthetic: usize,
}

#[derive(Debug)]
struct PairedCall {
    id: String,
    name: Option<String>,
    answered: bool,
}

impl<T> Default for Pairing<T> {
    fn default() -> Self {
        Pairing {
            calls: Calls::default(),
            data: Vec::new(),
        }
    }
}

impl<T> Pairing<T> {
    /// Registers a call; returns its id and whether it was made up here.
    pub fn add(&mut self, id: Option<String>, name: Option<String>, data: T) -> (String, bool) {
        self.data.push(data);
        self.calls.add(id, name)
    }

    /// The data of the call added last.
    pub fn last_mut(&mut self) -> Option<&mut T> {
        self.data.last_mut()
    }

    /// The call a result answers, marked answered.
    pub fn answer(&mut self, id: Option<&str>, name: Option<&str>) -> Option<&T> {
        let position = self.calls.answer(id, name)?;
        self.data.get(position)
    }
}

impl Calls {
    fn add(&mut self, id: Option<String>, name: Option<String>) -> (String, bool) {
        let (id, synthetic) = match id {
            Some(id) => (id, false),
            None => {
                self.synthetic += 1;
                (text!("synthetic-", self.synthetic), true)
            }
        };
        self.list.push(PairedCall {
            id: id.clone(),
            name,
            answered: false,
        });
        (id, synthetic)
    }

    /// Where the call a result answers is, marked answered.
    fn answer(&mut self, id: Option<&str>, name: Option<&str>) -> Option<usize> {
        let position = match id {
            Some(id) => self
                .list
                .iter()
                .position(|c| !c.answered && c.id == id)
                .or_else(|| self.list.iter().position(|c| c.id == id)),
            None => self
                .list
                .iter()
                .position(|c| !c.answered && (name.is_none() || c.name.as_deref() == name)),
        }?;
        self.list.get_mut(position)?.answered = true;
        Some(position)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairing_uses_ids_then_order_and_name() {
        let mut pairing: Pairing<u8> = Pairing::default();
        pairing.add(Some("a".into()), Some("f".into()), 1);
        let (id, synthetic) = pairing.add(None, Some("g".into()), 2);
        assert_eq!((id.as_str(), synthetic), ("synthetic-1", true));
        pairing.add(None, Some("f".into()), 3);
        assert_eq!(pairing.answer(None, Some("f")), Some(&1));
        assert_eq!(pairing.answer(None, Some("f")), Some(&3));
        assert_eq!(pairing.answer(None, Some("f")), None);
        assert_eq!(pairing.answer(Some("synthetic-1"), None), Some(&2));
    }
}
