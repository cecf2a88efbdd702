#pragma once
// What Glibc's Swift module lacks: epoll, timerfd, signalfd, eventfd, malloc.h, and the _GNU_SOURCE-only
// memfd_create, pipe2, mremap and SO_PEERCRED. Headers that Glibc's module already owns are not included
// here (defining _GNU_SOURCE for them would clash with that module), so the GNU-only pieces are
// declared directly.
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <sys/signalfd.h>
#include <sys/eventfd.h>
#include <sys/types.h>
// malloc_trim and mallinfo2: giving free heap back when the screen empties (MemoryReturn.swift).
#include <malloc.h>

int memfd_create(const char *name, unsigned int flags);
int pipe2(int pipefd[2], int flags);
void *mremap(void *old_address, size_t old_size, size_t new_size, int flags, ...);
/// mremap without its variadic tail (Swift cannot call variadic C): grows or moves a mapping.
static inline void *clinux_mremap(void *old_address, size_t old_size, size_t new_size, int flags) {
    return mremap(old_address, old_size, new_size, flags);
}

static const unsigned int CLINUX_MFD_CLOEXEC = 0x0001U;
static const unsigned int CLINUX_MFD_ALLOW_SEALING = 0x0002U;
static const int CLINUX_SO_PEERCRED = 17;
static const int CLINUX_MREMAP_MAYMOVE = 1;

/// struct ucred, as SO_PEERCRED fills it.
struct clinux_ucred {
    pid_t pid;
    uid_t uid;
    gid_t gid;
};

// Passing a file descriptor over the control socket (SCM_RIGHTS): `toast hud --stream` hands its
// standard input to toastd, which then reads the values itself. The cmsg macros are not callable from
// Swift, hence these two.
#include <sys/socket.h>
#include <string.h>
#include <unistd.h>

/// pidfd_open(2), which glibc 2.36 wraps but older ones do not: a descriptor that becomes readable
/// when the process exits (`toastd --replace` waits for the daemon it replaced).
static inline int clinux_pidfd_open(pid_t pid) {
    return (int)syscall(434 /* SYS_pidfd_open, the same number on every architecture */, pid, 0);
}

/// recvmsg of up to `len` bytes, without blocking; descriptors that came with them (close-on-exec)
/// go to `fds`, at most `max_fds` of them, and any beyond are closed. Returns recvmsg's result.
static inline ssize_t clinux_recv_with_fds(int sock, void *buf, size_t len, int *fds, int max_fds, int *fd_count) {
    struct iovec iov = { buf, len };
    union { struct cmsghdr align; char space[CMSG_SPACE(sizeof(int) * 4)]; } control;
    struct msghdr msg;
    memset(&msg, 0, sizeof msg);
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.space;
    msg.msg_controllen = sizeof control.space;
    *fd_count = 0;
    ssize_t n = recvmsg(sock, &msg, 0x40000000 /* MSG_CMSG_CLOEXEC */ | MSG_DONTWAIT);
    if (n < 0) return n;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c != NULL; c = CMSG_NXTHDR(&msg, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
        size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < count; i++) {
            int received;
            memcpy(&received, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
            if (*fd_count < max_fds) fds[(*fd_count)++] = received; else close(received);
        }
    }
    return n;
}

/// sendmsg of `len` bytes with descriptor `fd` attached (no SIGPIPE). Returns sendmsg's result.
static inline ssize_t clinux_send_with_fd(int sock, const void *buf, size_t len, int fd) {
    struct iovec iov = { (void *)buf, len };
    union { struct cmsghdr align; char space[CMSG_SPACE(sizeof(int))]; } control;
    memset(&control, 0, sizeof control);
    struct msghdr msg;
    memset(&msg, 0, sizeof msg);
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.space;
    msg.msg_controllen = sizeof control.space;
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(c), &fd, sizeof(int));
    return sendmsg(sock, &msg, MSG_NOSIGNAL);
}

