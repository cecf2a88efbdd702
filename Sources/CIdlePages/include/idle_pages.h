#ifndef TOASTD_IDLE_PAGES_H
#define TOASTD_IDLE_PAGES_H

#include <stddef.h>
#include <stdint.h>

/// Which pages of a mapping `toastd_drop_idle_pages` lets go of.
enum toastd_idle_pages_kind {
    /// Pages of the process's own (anonymous) that hold only zero bytes: they read back the same
    /// from the kernel's zero page. For private anonymous mappings (the heap, malloc's arenas).
    TOASTD_IDLE_PAGES_ZEROED = 0,
    /// Pages that are still the file's (never written): they read back the same from the file.
    /// For private writable file mappings (a program's and its libraries' data).
    TOASTD_IDLE_PAGES_UNWRITTEN = 1,
};

/// Drops (MADV_DONTNEED) the present pages of [start, end) that are of `kind`, read from the
/// process's pagemap (`pagemap_fd`, /proc/self/pagemap) `capacity` entries at a time into
/// `entries`; returns the bytes dropped, 0 if pagemap could not be read.
///
/// Only while no other thread runs: a page found zeroed or unwritten must not be written before it
/// goes (a write in between would be lost). And the caller's own memory must not be written by it
/// meanwhile: this function allocates nothing and writes only `entries` (refilled before its
/// pages are looked at) and its own stack, which no mapping passed here may be.
size_t toastd_drop_idle_pages(uintptr_t start, uintptr_t end, enum toastd_idle_pages_kind kind,
                              int pagemap_fd, uint64_t *entries, size_t capacity);

#endif
