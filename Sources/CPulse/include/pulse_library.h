#ifndef TOASTD_PULSE_LIBRARY_H
#define TOASTD_PULSE_LIBRARY_H

#include <pulse/context.h>
#include <pulse/error.h>
#include <pulse/introspect.h>
#include <pulse/mainloop-api.h>
#include <pulse/operation.h>
#include <pulse/subscribe.h>
#include <pulse/volume.h>

/// The libpulse functions toastd calls, found with dlopen when the first sound request comes: a daemon
/// that never changes the volume does not load libpulse and the dozen libraries it pulls in (libsndfile
/// and its codecs, libdbus, libX11-xcb) at every start. Each member has the type of the function it
/// holds (`__typeof__`), so Swift calls them with the header's own signatures.
struct toastd_pulse_library {
#define TOASTD_PULSE_FUNCTION(name) __typeof__(name) *name;
#include "pulse_functions.h"
#undef TOASTD_PULSE_FUNCTION
};

/// Fills `library` from libpulse.so.0; returns 0, or -1 with the reason in `error` (dlerror's text,
/// or the name of a function it lacks).
int toastd_pulse_library_load(struct toastd_pulse_library *library, char *error, unsigned long error_size);

/// PA_VOLUME_NORM and the bit of `tv_usec` that marks a time event's deadline as CLOCK_MONOTONIC
/// (libpulse's PA_TIMEVAL_RTCLOCK, which its public headers do not export).
enum {
    toastd_pulse_volume_norm = PA_VOLUME_NORM,
    toastd_pulse_volume_max = PA_VOLUME_MAX,
    toastd_pulse_timeval_rtclock = 1 << 30,
};

#endif
