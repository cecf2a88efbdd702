#include "pulse_library.h"

#include <dlfcn.h>
#include <stdio.h>

int toastd_pulse_library_load(struct toastd_pulse_library *library, char *error, unsigned long error_size) {
    /* RTLD_LOCAL: nothing of libpulse's is visible to what the daemon loads later. Never closed: its
       threads-free state (the context) lives as long as the daemon keeps a connection. */
    void *handle = dlopen("libpulse.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        snprintf(error, error_size, "%s", dlerror());
        return -1;
    }
#define TOASTD_PULSE_FUNCTION(name)                                                  \
    library->name = (__typeof__(name) *)dlsym(handle, #name);                         \
    if (!library->name) {                                                             \
        snprintf(error, error_size, "libpulse.so.0 has no %s", #name);                \
        return -1;                                                                    \
    }
#include "pulse_functions.h"
#undef TOASTD_PULSE_FUNCTION
    return 0;
}
