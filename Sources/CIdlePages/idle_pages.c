// Dropping pages that read back the same without being kept: zeroed pages of the process's own,
// and pages of a private writable file mapping that were never written. In C, not Swift, because
// between finding such a page and dropping it nothing may write to it: here no allocation, reference
// count or runtime cache can touch memory behind the loop's back.

#include "idle_pages.h"

#include <sys/mman.h>
#include <unistd.h>

#define PAGEMAP_PRESENT (1ULL << 63)
#define PAGEMAP_FILE (1ULL << 61)

static int is_zeroed(const uint64_t *words, size_t count) {
    for (size_t i = 0; i < count; i++) {
        if (words[i] != 0) return 0;
    }
    return 1;
}

size_t toastd_drop_idle_pages(uintptr_t start, uintptr_t end, enum toastd_idle_pages_kind kind,
                              int pagemap_fd, uint64_t *entries, size_t capacity) {
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t dropped = 0;
    for (uintptr_t window = start; window < end; ) {
        size_t count = (end - window) / page;
        if (count > capacity) count = capacity;
        ssize_t want = (ssize_t)(count * sizeof(uint64_t));
        if (pread(pagemap_fd, entries, (size_t)want, (off_t)(window / page * sizeof(uint64_t))) != want) {
            return dropped;
        }
        // A run of pages to drop, dropped as soon as it ends: nothing runs between finding a page and
        // dropping it but this loop.
        uintptr_t run = 0;
        for (size_t i = 0; i <= count; i++) {
            int drop = 0;
            uintptr_t address = window + i * page;
            if (i < count && (entries[i] & PAGEMAP_PRESENT)) {
                int own = !(entries[i] & PAGEMAP_FILE);
                drop = kind == TOASTD_IDLE_PAGES_ZEROED
                           ? own && is_zeroed((const uint64_t *)address, page / sizeof(uint64_t))
                           : !own;
            }
            if (drop && run == 0) run = address;
            if (!drop && run != 0) {
                if (madvise((void *)run, address - run, MADV_DONTNEED) == 0) dropped += address - run;
                run = 0;
            }
        }
        window += count * page;
    }
    return dropped;
}
