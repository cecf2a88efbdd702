// GLib's slice allocator routed through malloc, chosen before GLib starts.
//
// Why: GLib before 2.76 keeps freed slices (Pango's layout lines, items and lists) in magazines
// carved from whole pages, and a page goes back only when every slice on it is free: after a storm
// of notifications in many scripts, ~8 MB of such pages stayed resident for good, out of reach of
// malloc_trim. Through malloc they are trimmed with the rest of the heap.
//
// When: GLib's own constructor already allocates slices, and the allocator reads its configuration
// once, at its first allocation. An executable's .preinit_array runs before any library's
// constructor (after every library is loaded and relocated), so GLib's configuration is set here,
// exactly as G_SLICE=always-malloc in the environment would set it. Setting the environment from
// here does not work: libc's initialisation, which runs after this, resets it. GLib 2.76 and newer
// serve slices with malloc whatever is asked, and ignore the call.

#include "malloc_slices.h"

#include <stddef.h>
#include <string.h>

// From GLib's gslice.h, declared here so that no GLib header (and its deprecation of these calls)
// is needed: GSliceConfig is an enum, gint64 a 64-bit integer.
enum { toastd_G_SLICE_CONFIG_ALWAYS_MALLOC = 1 };
extern void g_slice_set_config(int ckey, long long value);
extern long long g_slice_get_config(int ckey);

static int names_g_slice(char *const *envp) {
    for (char *const *entry = envp; entry != NULL && *entry != NULL; entry++) {
        if (strncmp(*entry, "G_SLICE=", 8) == 0) return 1;
    }
    return 0;
}

static void route_slices_through_malloc(int argc, char **argv, char **envp) {
    (void)argc;
    (void)argv;
    // A G_SLICE the user set (to debug, say) is theirs: GLib reads it as usual.
    if (names_g_slice(envp)) return;
    g_slice_set_config(toastd_G_SLICE_CONFIG_ALWAYS_MALLOC, 1);
}

__attribute__((section(".preinit_array"), used))
static void (*const route_slices_at_load)(int, char **, char **) = route_slices_through_malloc;

int toastd_glib_slices_set_to_malloc(void) {
    return g_slice_get_config(toastd_G_SLICE_CONFIG_ALWAYS_MALLOC) != 0;
}
