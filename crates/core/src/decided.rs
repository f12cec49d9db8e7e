//! The state after the events decided so far: one helper for every book's
//! `decide`, which emits events one at a time and must read later rules
//! against the table as those events leave it (a Stunt that exhausts a Stat
//! before the check reads it, a defeat that ends the round the same
//! command).
//!
//! [`Decided`] keeps the events and the state they lead to without copying
//! the state while nothing is read after an event: the events are applied
//! to a copy, once, the first time the state is read after one, and from
//! then on each new event is applied as it is read. A command that only
//! reads the state it was given, or emits only at its end, never copies.
//!
//! ```
//! use tabula_core::decided::Decided;
//! # use tabula_core::{RuleError, Roller, Seat, System};
//! # #[derive(Debug)] struct Count;
//! # impl System for Count {
//! #     const ID: &'static str = "count";
//! #     type State = u32; type Command = (); type Event = u32; type View = u32;
//! #     fn decide(_: &u32, _: &Seat, _: &(), _: &mut dyn Roller) -> Result<Vec<u32>, RuleError> { Ok(vec![]) }
//! #     fn evolve(s: &mut u32, e: &u32) { *s += e; }
//! #     fn view(s: &u32, _: &Seat) -> u32 { *s }
//! #     fn legal_commands(_: &u32, _: &Seat) -> Vec<tabula_core::CommandSpec> { vec![] }
//! # }
//! let start = 10;
//! let mut d = Decided::<Count>::new(&start);
//! d.emit(2);
//! d.emit(3);
//! assert_eq!(*d.state(), 15);
//! assert_eq!(d.into_events(), vec![2, 3]);
//! ```

use crate::system::System;

/// The events one command has produced so far and the state they lead to
/// (see the [module](self) documentation). `'a` is the life of the state
/// the command was given.
pub struct Decided<'a, S: System> {
    /// The state the command was given.
    base: &'a S::State,
    /// `base` with `events[..applied]` applied, once something was read
    /// after an event.
    work: Option<S::State>,
    /// How many of `events` `work` has seen.
    applied: usize,
    /// Every event emitted, in order.
    events: Vec<S::Event>,
}

impl<'a, S: System> Decided<'a, S> {
    /// Nothing decided yet: the state is `base`.
    pub fn new(base: &'a S::State) -> Self {
        Decided {
            base,
            work: None,
            applied: 0,
            events: Vec::new(),
        }
    }

    /// Record `event` as decided. It takes effect on the next read of
    /// [`Decided::state`].
    pub fn emit(&mut self, event: S::Event) {
        self.events.push(event);
    }

    /// Record every event of `events`, in order.
    pub fn emit_all<I: IntoIterator<Item = S::Event>>(&mut self, events: I) {
        self.events.extend(events);
    }

    /// The state with every event emitted so far applied ([`System::evolve`]),
    /// copying the given state the first time an event must be applied.
    pub fn state(&mut self) -> &S::State {
        if self.applied < self.events.len() {
            let work = self.work.get_or_insert_with(|| self.base.clone());
            for e in &self.events[self.applied..] {
                S::evolve(work, e);
            }
            self.applied = self.events.len();
        }
        self.work.as_ref().unwrap_or(self.base)
    }

    /// The state the command was given, before any of its events.
    pub fn base(&self) -> &'a S::State {
        self.base
    }

    /// True while no event was emitted: [`Decided::state`] is still
    /// [`Decided::base`] and a part borrowed from it is current.
    pub fn untouched(&self) -> bool {
        self.events.is_empty()
    }

    /// The events emitted so far, in order.
    pub fn events(&self) -> &[S::Event] {
        &self.events
    }

    /// The events emitted, in order: `decide`'s answer.
    pub fn into_events(self) -> Vec<S::Event> {
        self.events
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::roller::Roller;
    use crate::rule::RuleError;
    use crate::system::{CommandSpec, Seat};
    use std::cell::Cell;

    thread_local! {
        static CLONES: Cell<usize> = const { Cell::new(0) };
    }

    /// A state that counts its copies.
    #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
    struct Counted(Vec<u32>);
    impl Clone for Counted {
        fn clone(&self) -> Self {
            CLONES.with(|c| c.set(c.get() + 1));
            Counted(self.0.clone())
        }
    }

    #[derive(Debug)]
    struct Push;
    impl System for Push {
        const ID: &'static str = "push";
        type State = Counted;
        type Command = ();
        type Event = u32;
        type View = ();
        fn decide(
            _: &Counted,
            _: &Seat,
            _: &(),
            _: &mut dyn Roller,
        ) -> Result<Vec<u32>, RuleError> {
            Ok(vec![])
        }
        fn evolve(s: &mut Counted, e: &u32) {
            s.0.push(*e);
        }
        fn view(_: &Counted, _: &Seat) {}
        fn legal_commands(_: &Counted, _: &Seat) -> Vec<CommandSpec> {
            vec![]
        }
    }

    #[test]
    fn reads_after_each_event_see_it_and_the_state_is_copied_once() {
        CLONES.with(|c| c.set(0));
        let base = Counted(vec![1]);
        let mut d = Decided::<Push>::new(&base);
        assert!(d.untouched());
        assert_eq!(d.state().0, vec![1]);
        d.emit(2);
        assert!(!d.untouched());
        assert_eq!(d.state().0, vec![1, 2]);
        d.emit_all([3, 4]);
        assert_eq!(d.state().0, vec![1, 2, 3, 4]);
        assert_eq!(d.state().0, vec![1, 2, 3, 4]);
        assert_eq!(d.base().0, vec![1]);
        assert_eq!(d.events(), &[2, 3, 4]);
        assert_eq!(CLONES.with(Cell::get), 1);
        assert_eq!(d.into_events(), vec![2, 3, 4]);
    }

    #[test]
    fn a_command_that_never_reads_after_emitting_never_copies() {
        CLONES.with(|c| c.set(0));
        let base = Counted(vec![]);
        let mut d = Decided::<Push>::new(&base);
        let _ = d.state();
        d.emit(7);
        assert_eq!(d.into_events(), vec![7]);
        assert_eq!(CLONES.with(Cell::get), 0);
    }
}
