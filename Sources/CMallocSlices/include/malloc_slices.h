#ifndef TOASTD_MALLOC_SLICES_H
#define TOASTD_MALLOC_SLICES_H

/// Whether GLib's slice allocator was set, before GLib started, to serve slices with malloc (what
/// G_SLICE=always-malloc does). False when G_SLICE was in the environment (GLib then follows it)
/// and with GLib 2.76 or newer (which always uses malloc).
int toastd_glib_slices_set_to_malloc(void);

/// Whether malloc was limited to one arena at load (malloc_arenas.c says why). False when
/// MALLOC_ARENA_MAX or GLIBC_TUNABLES was in the environment (glibc then follows it).
int toastd_malloc_arenas_limited(void);

#endif
