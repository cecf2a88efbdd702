import CLinux
import Glibc

/// What the picture helper gives up before it reads a byte a client sent: the one place that knows
/// seccomp, Landlock, `PR_SET_NO_NEW_PRIVS` and the resource limits (wob keeps its pledge the same way,
/// behind one header).
///
/// After `apply`, the process may read and write descriptors it already has or is passed, map
/// memory, make memfds and threads, and nothing else: every `open`, `openat`, `exec`, `socket`,
/// `connect`, `ptrace`, `kill` of another process (and any call not listed in `allowedCalls`) fails
/// with EPERM. Landlock, where the kernel has it, refuses the filesystem a second time, whatever a
/// library finds to call. The filter is inherited and can never be removed.
package enum Confinement {
    /// The resource limits set with the filter.
    package struct Limits: Sendable {
        /// Address space (RLIMIT_AS): decoding the largest picture allowed (`PictureLimits`) takes
        /// ~200 MB; past this, an allocation fails and the decoder gives up (or the helper dies).
        package var addressSpaceBytes = 1 << 30
        /// CPU time (RLIMIT_CPU, seconds, soft; SIGXCPU then): the helper exits on its own before,
        /// between pictures (`PictureHelper.cpuSecondsBeforeRestart`).
        package var cpuSeconds = 600
        /// Open descriptors (RLIMIT_NOFILE): the socket, a picture, a memfd, what glib keeps.
        package var descriptors = 32

        package init() {}
    }

    /// What `apply` managed: seccomp and no-new-privs always (or it throws); Landlock when the kernel
    /// offers it (its ABI version, nil without).
    package struct Applied: Sendable {
        package var landlockABI: Int?
    }

    package struct Failure: Error, CustomStringConvertible {
        package var step: String
        package var code: Int32
        package var description: String { "\(step): \(String(cString: strerror(code)))" }
    }

    /// Confines the calling process (all its threads), for good.
    package static func apply(_ limits: Limits = Limits()) throws(Failure) -> Applied {
        func limit(_ resource: __rlimit_resource, _ value: Int) throws(Failure) {
            var bound = rlimit(rlim_cur: rlim_t(value), rlim_max: rlim_t(value))
            guard setrlimit(__rlimit_resource_t(resource.rawValue), &bound) == 0 else { throw Failure(step: "setrlimit", code: errno) }
        }
        try limit(RLIMIT_AS, limits.addressSpaceBytes)
        try limit(RLIMIT_CPU, limits.cpuSeconds)
        try limit(RLIMIT_NOFILE, limits.descriptors)
        try limit(RLIMIT_CORE, 0)
        guard clinux_set_no_new_privs() == 0 else { throw Failure(step: "PR_SET_NO_NEW_PRIVS", code: errno) }
        var applied = Applied()
        let abi = Int(clinux_landlock_abi())
        if abi >= 1, clinux_landlock_deny_all(landlockAccess(abi: abi)) == 0 { applied.landlockABI = abi }
        let program = filter()
        let installed = program.withUnsafeBufferPointer { clinux_install_seccomp($0.baseAddress, UInt16($0.count)) }
        guard installed == 0 else { throw Failure(step: "seccomp", code: errno) }
        return applied
    }

    /// Every filesystem access right the kernel's Landlock ABI knows of: handled, and granted nowhere.
    static func landlockAccess(abi: Int) -> UInt64 {
        var rights: UInt64 = (1 << 13) - 1        // ABI 1: execute ... make_sym
        if abi >= 2 { rights |= 1 << 13 }          // refer
        if abi >= 3 { rights |= 1 << 14 }          // truncate
        if abi >= 5 { rights |= 1 << 15 }          // ioctl_dev
        return rights
    }

    /// The system calls decoding needs once the libraries are loaded and warmed up (see
    /// `PictureHelper.warmUp`): reading and writing given descriptors, memory, threads, time,
    /// signals to itself, memfds for the pixels sent back.
    static var allowedCalls: [Int32] {
        var calls: [Int32] = [
            __NR_read, __NR_write, __NR_readv, __NR_writev, __NR_pread64, __NR_close, __NR_fstat, __NR_newfstatat,
            __NR_lseek, __NR_mmap, __NR_munmap, __NR_mremap, __NR_mprotect, __NR_madvise, __NR_brk,
            __NR_futex, __NR_set_robust_list, __NR_rseq, __NR_membarrier,
            __NR_rt_sigreturn, __NR_rt_sigprocmask, __NR_rt_sigaction, __NR_sigaltstack, __NR_restart_syscall,
            __NR_exit, __NR_exit_group, __NR_getpid, __NR_gettid, __NR_tgkill,
            __NR_clock_gettime, __NR_clock_getres, __NR_gettimeofday, __NR_clock_nanosleep, __NR_nanosleep,
            __NR_sched_yield, __NR_sched_getaffinity, __NR_getrandom, __NR_getrusage, __NR_prlimit64,
            __NR_getuid, __NR_geteuid, __NR_getgid, __NR_getegid, __NR_uname, __NR_prctl,
            __NR_ppoll, __NR_recvmsg, __NR_sendmsg, __NR_recvfrom, __NR_sendto, __NR_memfd_create, __NR_ftruncate, __NR_fcntl,
            __NR_eventfd2, __NR_pipe2,
        ]
        #if arch(x86_64)
        calls += [__NR_poll, __NR_arch_prctl, __NR_time]
        #endif
        return calls
    }

    /// The BPF program: the wrong architecture kills; `clone` is allowed for threads only (a new
    /// process could escape nothing, but the limits are per process); `clone3`, whose flags the
    /// filter cannot read, says ENOSYS so that glibc falls back to `clone`; what `allowedCalls`
    /// lists is allowed; anything else fails with EPERM (a library then reports an error instead of
    /// the helper dying).
    static func filter() -> [sock_filter] {
        func statement(_ code: Int32, _ k: UInt32) -> sock_filter {
            sock_filter(code: UInt16(code), jt: 0, jf: 0, k: k)
        }
        func jump(_ code: Int32, _ k: UInt32, _ jt: UInt8, _ jf: UInt8) -> sock_filter {
            sock_filter(code: UInt16(code), jt: jt, jf: jf, k: k)
        }
        let load = BPF_LD | BPF_W | BPF_ABS, equal = BPF_JMP | BPF_JEQ | BPF_K, ret = BPF_RET | BPF_K
        let allow = UInt32(SECCOMP_RET_ALLOW), kill = UInt32(SECCOMP_RET_KILL_PROCESS)
        let refuse = UInt32(SECCOMP_RET_ERRNO) | UInt32(EPERM), missing = UInt32(SECCOMP_RET_ERRNO) | UInt32(ENOSYS)
        // struct seccomp_data: nr at 0, arch at 4, args from 16 (the low half of arg 0 there).
        var program = [
            statement(load, 4),
            jump(equal, CLINUX_AUDIT_ARCH, 1, 0),
            statement(ret, kill),
            statement(load, 0),
        ]
        #if arch(x86_64)
        // x32 system calls share the architecture value: refuse the whole range.
        program += [jump(BPF_JMP | BPF_JGE | BPF_K, 0x4000_0000, 0, 1), statement(ret, refuse)]
        #endif
        program += [
            jump(equal, UInt32(__NR_clone3), 0, 1), statement(ret, missing),
            jump(equal, UInt32(__NR_clone), 0, 4),
            statement(load, 16),
            jump(BPF_JMP | BPF_JSET | BPF_K, UInt32(CLINUX_CLONE_THREAD), 0, 1),
            statement(ret, allow),
            statement(ret, refuse),
        ]
        for call in allowedCalls {
            program += [jump(equal, UInt32(call), 0, 1), statement(ret, allow)]
        }
        program.append(statement(ret, refuse))
        return program
    }
}
