//! A small stable sort for the core's short lists.

use crate::prelude::*;

/// Sorts `items` stably by `less`: a plain bottom-up merge sort of positions, much smaller in the
/// wasm than the standard library's sorts (which are tuned for speed on large inputs; the lists
/// sorted here are object keys and error fields).
pub fn sort_by<T>(items: &mut Vec<T>, less: impl Fn(&T, &T) -> bool) {
    let n = items.len();
    let mut order: Vec<usize> = (0..n).collect();
    let mut merged: Vec<usize> = Vec::with_capacity(n);
    let mut width = 1;
    while width < n {
        merged.clear();
        let mut start = 0;
        while start < n {
            let mid = (start + width).min(n);
            let end = (start + 2 * width).min(n);
            let (mut a, mut b) = (start, mid);
            while a < mid || b < end {
                let item = |k: usize| order.get(k).and_then(|&i| items.get(i));
                // The right run's head goes first only when strictly less: stable.
                let take_right = a >= mid
                    || (b < end && matches!((item(b), item(a)), (Some(y), Some(x)) if less(y, x)));
                let from = if take_right { &mut b } else { &mut a };
                merged.extend(order.get(*from).copied());
                *from += 1;
            }
            start = end;
        }
        core::mem::swap(&mut order, &mut merged);
        width *= 2;
    }
    let mut slots: Vec<Option<T>> = items.drain(..).map(Some).collect();
    items.extend(
        order
            .iter()
            .filter_map(|&i| slots.get_mut(i).and_then(Option::take)),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sort_by_is_a_stable_sort() {
        let mut items: Vec<(u32, usize)> = [5, 3, 9, 3, 1, 5, 0, 7, 3, 2, 8]
            .iter()
            .enumerate()
            .map(|(i, &k)| (k, i))
            .collect();
        let mut expected = items.clone();
        expected.sort_by_key(|(k, _)| *k);
        sort_by(&mut items, |a, b| a.0 < b.0);
        assert_eq!(items, expected);
        for n in 0..40 {
            let mut v: Vec<u32> = (0..n).map(|i| (i * 7919 + 13) % 23).collect();
            let mut w = v.clone();
            w.sort();
            sort_by(&mut v, |a, b| a < b);
            assert_eq!(v, w);
        }
    }
}
