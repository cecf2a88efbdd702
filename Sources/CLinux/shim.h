#pragma once
// What Glibc's Swift module lacks: epoll, timerfd, signalfd, eventfd, malloc.h, and the _GNU_SOURCE-only
// memfd_create, pipe2 and SO_PEERCRED. Headers that Glibc's module already owns are not included
// here (defining _GNU_SOURCE for them would clash with that module), so the GNU-only pieces are
// declared directly.
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <sys/signalfd.h>
#include <sys/eventfd.h>
#include <sys/types.h>
// malloc_trim and mallinfo2: giving free heap back when the daemon goes idle (MemoryRelease.swift).
#include <malloc.h>

int memfd_create(const char *name, unsigned int flags);
int pipe2(int pipefd[2], int flags);

static const unsigned int CLINUX_MFD_CLOEXEC = 0x0001U;
static const unsigned int CLINUX_MFD_ALLOW_SEALING = 0x0002U;
static const int CLINUX_SO_PEERCRED = 17;

/// struct ucred, as SO_PEERCRED fills it.
struct clinux_ucred {
    pid_t pid;
    uid_t uid;
    gid_t gid;
};
