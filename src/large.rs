//! Large tables on huge pages: the transposition table, the network's feature weights and the
//! continuation history are read at random points of several megabytes each, so with 4 KiB
//! pages most reads also miss the TLB. A [`Large`] slice of two megabytes or more is aligned to
//! 2 MiB on Linux, and the kernel is asked (`madvise(MADV_HUGEPAGE)`) to back it with
//! transparent huge pages before it is first written, as Stockfish's large-page allocation
//! does. Where the system offers none (THP off) it is an aligned slice like any other, and on
//! other systems (a browser's memory) a plain one. The contents never depend on the pages.

use std::alloc::{self, Layout};
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

/// The size and alignment of a huge page on x86-64 and AArch64 Linux.
const HUGE_PAGE: usize = 2 << 20;

/// A boxed slice, aligned to a huge page when it spans one or more.
pub struct Large<T> {
    ptr: NonNull<T>,
    len: usize,
}

// SAFETY: `Large<T>` owns its elements like `Box<[T]>` does.
unsafe impl<T: Send> Send for Large<T> {}
// SAFETY: shared access hands out `&[T]` only.
unsafe impl<T: Sync> Sync for Large<T> {}

/// The allocation could not be made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the allocator refused {0} bytes")]
pub struct AllocError(pub usize);

impl<T> Large<T> {
    /// `len` elements, the `i`-th made by `f(i)`.
    pub fn try_from_fn(len: usize, mut f: impl FnMut(usize) -> T) -> Result<Large<T>, AllocError> {
        let bytes = len
            .checked_mul(std::mem::size_of::<T>())
            .ok_or(AllocError(usize::MAX))?;
        let layout = Self::layout(len).ok_or(AllocError(bytes))?;
        let ptr = if layout.size() == 0 {
            // Nothing to allocate (no elements, or elements of no size).
            NonNull::dangling()
        } else {
            // SAFETY: the layout's size is not zero.
            let raw = unsafe { alloc::alloc(layout) } as *mut T;
            let ptr = NonNull::new(raw).ok_or(AllocError(bytes))?;
            if layout.align() >= HUGE_PAGE {
                advise_huge_pages(raw as *mut u8, layout.size());
            }
            ptr
        };
        let raw = ptr.as_ptr();
        // A panic in `f` must not leave uninitialized elements to `drop`: they are counted.
        struct Partial<T> {
            ptr: *mut T,
            done: usize,
            layout: Layout,
        }
        impl<T> Drop for Partial<T> {
            fn drop(&mut self) {
                // SAFETY: the first `done` elements were written; the block, if any, is ours.
                unsafe {
                    std::ptr::drop_in_place(std::ptr::slice_from_raw_parts_mut(
                        self.ptr, self.done,
                    ));
                    if self.layout.size() != 0 {
                        alloc::dealloc(self.ptr as *mut u8, self.layout);
                    }
                }
            }
        }
        let mut partial = Partial {
            ptr: raw,
            done: 0,
            layout,
        };
        for i in 0..len {
            // SAFETY: `i < len`, inside the block (or `T` has no size), aligned for `T`.
            unsafe { raw.add(i).write(f(i)) };
            partial.done = i + 1;
        }
        std::mem::forget(partial);
        Ok(Large { ptr, len })
    }

    /// `len` elements, the `i`-th made by `f(i)`; panics if memory runs out.
    pub fn from_fn(len: usize, f: impl FnMut(usize) -> T) -> Large<T> {
        Self::try_from_fn(len, f).unwrap_or_else(|e| panic!("{e}"))
    }

    /// The layout of `len` elements: on Linux, aligned to a huge page from one huge page up.
    fn layout(len: usize) -> Option<Layout> {
        let layout = Layout::array::<T>(len).ok()?;
        if cfg!(target_os = "linux") && layout.size() >= HUGE_PAGE {
            let size = layout.size().next_multiple_of(HUGE_PAGE);
            Layout::from_size_align(size, HUGE_PAGE.max(layout.align())).ok()
        } else {
            Some(layout)
        }
    }
}

impl<T: Clone> Large<T> {
    /// A copy of `items`.
    pub fn from_slice(items: &[T]) -> Large<T> {
        Self::from_fn(items.len(), |i| items[i].clone())
    }
}

impl<T> Deref for Large<T> {
    type Target = [T];
    #[inline(always)]
    fn deref(&self) -> &[T] {
        // SAFETY: `len` initialized elements at `ptr` (dangling only when nothing is stored).
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T> DerefMut for Large<T> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` is unique.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<T> Drop for Large<T> {
    fn drop(&mut self) {
        let layout = Self::layout(self.len).expect("the layout it was made with");
        // SAFETY: the elements are initialized and dropped once; the block was allocated with
        // this layout unless its size is zero.
        unsafe {
            std::ptr::drop_in_place(std::ptr::slice_from_raw_parts_mut(
                self.ptr.as_ptr(),
                self.len,
            ));
            if layout.size() != 0 {
                alloc::dealloc(self.ptr.as_ptr() as *mut u8, layout);
            }
        }
    }
}

impl<T: Clone> Clone for Large<T> {
    fn clone(&self) -> Self {
        Large::from_slice(self)
    }
}

impl<T: PartialEq> PartialEq for Large<T> {
    fn eq(&self, other: &Self) -> bool {
        self[..] == other[..]
    }
}

impl<T: Eq> Eq for Large<T> {}

impl<T: std::fmt::Debug> std::fmt::Debug for Large<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Asks for transparent huge pages on `len` bytes at `ptr` (a hint: a refusal changes nothing).
#[cfg(target_os = "linux")]
fn advise_huge_pages(ptr: *mut u8, len: usize) {
    // SAFETY: the range is one allocation of ours; `madvise` reads no memory, and the advice
    // changes how pages are backed, never their contents.
    unsafe {
        libc::madvise(ptr as *mut libc::c_void, len, libc::MADV_HUGEPAGE);
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_ptr: *mut u8, _len: usize) {}

#[cfg(test)]
mod tests {
    use super::{Large, HUGE_PAGE};
    use std::rc::Rc;

    #[test]
    fn holds_what_it_was_made_with_at_any_size() {
        for len in [0, 1, 7, HUGE_PAGE / 2 - 1, HUGE_PAGE / 2, HUGE_PAGE / 2 + 3] {
            let mut a = Large::from_fn(len, |i| i as u16 ^ 0x5a5a);
            assert_eq!(a.len(), len);
            assert!(a.iter().enumerate().all(|(i, &v)| v == i as u16 ^ 0x5a5a));
            if let Some(last) = a.last_mut() {
                *last = 1;
            }
            let b = a.clone();
            assert_eq!(&b[..], &a[..]);
        }
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn a_slice_of_a_huge_page_or_more_is_aligned_to_one() {
        let a = Large::from_fn(HUGE_PAGE, |_| 0u8);
        assert_eq!(a.as_ptr() as usize % HUGE_PAGE, 0);
        let b = Large::from_fn(3 * HUGE_PAGE / 8 + 1, |_| 0u64);
        assert_eq!(b.as_ptr() as usize % HUGE_PAGE, 0);
        assert!(b.iter().all(|&v| v == 0));
    }

    #[test]
    fn every_element_is_dropped_once_even_when_making_one_panics() {
        let counter = Rc::new(());
        let a = Large::from_fn(100, |_| Rc::clone(&counter));
        assert_eq!(Rc::strong_count(&counter), 101);
        drop(a);
        assert_eq!(Rc::strong_count(&counter), 1);
        let made = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            Large::from_fn(100, |i| {
                assert!(i < 40, "the fortieth");
                Rc::clone(&counter)
            })
        }));
        assert!(made.is_err());
        assert_eq!(Rc::strong_count(&counter), 1);
    }

    #[test]
    fn elements_of_no_size_are_made_and_dropped_too() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static DROPPED: AtomicUsize = AtomicUsize::new(0);
        struct Empty;
        impl Drop for Empty {
            fn drop(&mut self) {
                DROPPED.fetch_add(1, Ordering::Relaxed);
            }
        }
        let mut made = 0;
        let a = Large::from_fn(7, |_| {
            made += 1;
            Empty
        });
        assert_eq!((a.len(), made), (7, 7));
        drop(a);
        assert_eq!(DROPPED.load(Ordering::Relaxed), 7);
    }

    #[test]
    fn an_impossible_size_is_an_error() {
        assert!(Large::<u64>::try_from_fn(usize::MAX / 4, |_| 0).is_err());
    }
}
