// One malloc arena for the whole process, chosen before any library starts a thread.
//
// Why: the daemon draws and answers on one thread, but Pango 1.50 runs fontconfig's start-up
// (FcInit) and its font sorts on short-lived threads of its own, and glibc gives each new thread
// an arena of its own (64 MB reserved; the pages it touched stay, with free room that the main
// heap's allocations never reuse): three such arenas held ~436 KiB of anonymous memory at idle.
// With one arena those threads allocate from the main heap, whose free room later allocations
// reuse and the daemon's trims give back (Anonymous at idle 2.82 -> 2.68 MB, medians of 6 starts
// alternated with the build before). The threads are few and brief: they never wait on each other.
//
// When: an executable's .preinit_array runs before any library's constructor, so before any thread
// exists. MALLOC_ARENA_MAX or a GLIBC_TUNABLES in the environment is the user's choice, left alone.

#include "malloc_slices.h"

#include <malloc.h>
#include <stddef.h>
#include <string.h>

static int arenas_limited = 0;

static int names_variable(char *const *envp, const char *prefix) {
    size_t length = strlen(prefix);
    for (char *const *entry = envp; entry != NULL && *entry != NULL; entry++) {
        if (strncmp(*entry, prefix, length) == 0) return 1;
    }
    return 0;
}

static void use_one_arena(int argc, char **argv, char **envp) {
    (void)argc;
    (void)argv;
    if (names_variable(envp, "MALLOC_ARENA_MAX=") || names_variable(envp, "GLIBC_TUNABLES=")) return;
    arenas_limited = mallopt(M_ARENA_MAX, 1) == 1;
}

__attribute__((section(".preinit_array"), used))
static void (*const use_one_arena_at_load)(int, char **, char **) = use_one_arena;

int toastd_malloc_arenas_limited(void) {
    return arenas_limited;
}
