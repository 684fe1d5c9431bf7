extension ExtractorSandbox {
    /// The system calls a worker may make once confined, by libseccomp's names (those this
    /// architecture lacks are skipped). Everything else fails with `EPERM`, notably: `socket`,
    /// `socketpair`, `connect`, `bind`, `listen`, `accept` (no new sockets: only the one the
    /// indexer gave), `ptrace` and `process_vm_*`, `mount`, `pivot_root`, `chroot`, `keyctl`,
    /// `add_key`, `bpf`, `perf_event_open`, `unshare`, `setns`, `userfaultfd`, `io_uring_*`,
    /// modules, `chmod`/`chown`, links, `mknod`. `clone` is allowed without namespace flags and
    /// `clone3` answers `ENOSYS` (CShimSeccomp.c).
    ///
    /// Made from what the workers call in the extraction tests (`strace -f` of the
    /// ExtractorPool*, TextRecognition and ScannedPage suites: Swift, glibc, GLib, libvips,
    /// poppler, Tesseract and OpenMP, libgsf, libarchive, catdoc), and the calls of the same
    /// kind beside them (`readv` beside `read`), so that a decoder's rarer path does not fail.
    static let allowedSystemCalls = [
        // Memory.
        "brk", "mmap", "munmap", "mremap", "mprotect", "madvise", "mincore", "msync", "membarrier",
        "get_mempolicy", "set_mempolicy", "mbind",
        // Open descriptors (the request's file, the socket, pipes, memfds) and the paths Landlock allows.
        "read", "readv", "pread64", "preadv", "preadv2", "write", "writev", "pwrite64", "pwritev", "pwritev2",
        // (`ioctl` too, but for the requests that type into a terminal: `CShimSeccomp.c`.)
        "lseek", "open", "openat", "close", "close_range", "dup", "dup2", "dup3", "fcntl", "flock",
        "fstat", "stat", "lstat", "newfstatat", "statx", "fstatfs", "statfs", "access", "faccessat", "faccessat2",
        "readlink", "readlinkat", "getdents64", "getcwd", "fadvise64", "readahead", "fsync", "fdatasync",
        "ftruncate", "sendfile", "copy_file_range", "memfd_create", "pipe", "pipe2", "eventfd2", "umask",
        // The private temporary folder (Landlock keeps them there).
        "mkdir", "mkdirat", "rmdir", "unlink", "unlinkat", "rename", "renameat", "renameat2",
        // The socket the indexer gave.
        "recvmsg", "recvfrom", "sendmsg", "sendto", "shutdown", "getsockopt", "getpeername", "getsockname",
        // Waiting.
        "poll", "ppoll", "select", "pselect6", "epoll_create1", "epoll_ctl", "epoll_wait", "epoll_pwait", "epoll_pwait2",
        "nanosleep", "clock_nanosleep", "pause", "restart_syscall", "sched_yield",
        // Threads (libvips, OpenMP, GLib) and their locks.
        "futex", "futex_waitv", "set_robust_list", "get_robust_list", "rseq", "set_tid_address", "gettid",
        "sched_getaffinity", "sched_setaffinity", "sched_getparam", "sched_getscheduler", "sched_get_priority_max",
        "sched_get_priority_min", "getpriority", "exit", "exit_group", "arch_prctl", "prctl",
        // Signals (a converter is killed at its deadline; Landlock's signal scope keeps them inside).
        "rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "rt_sigtimedwait", "rt_sigsuspend", "sigaltstack",
        "tgkill", "tkill", "kill",
        // The converters (catdoc, xls2csv): Landlock lets only them be run.
        "execve", "wait4", "waitid", "setpgid", "getpgid", "getpgrp",
        // Time, identity and limits.
        "clock_gettime", "clock_getres", "gettimeofday", "time", "times", "getrusage", "getrandom",
        "prlimit64", "getrlimit", "setrlimit", "uname", "sysinfo", "getpid", "getppid", "getuid", "geteuid",
        "getgid", "getegid", "getgroups", "getresuid", "getresgid",
        "timer_create", "timer_settime", "timer_gettime", "timer_delete", "timerfd_create", "timerfd_settime",
    ]
}
