#ifndef CSECCOMP_H
#define CSECCOMP_H

#include <stddef.h>

/// Installs the extraction worker's seccomp-BPF filter on every thread of this process
/// (SECCOMP_FILTER_FLAG_TSYNC); no_new_privs must be set first.
///
/// The system calls named in `allowed` run (names this architecture lacks are skipped);
/// `clone` runs only without the flags that make namespaces; `clone3`, whose flags the filter
/// cannot read, fails with ENOSYS, so that the C library falls back to `clone`. Every other
/// call fails with EPERM: the filter traps it (SIGSYS), and the handler installed here makes
/// the call return -EPERM and writes one line to standard error the first time each call is
/// denied. A thread that blocks SIGSYS (GLib's "gmain" thread) is killed instead, by the kernel.
///
/// Returns 0, or a negative errno (-EINVAL for a kernel without seccomp filters).
int cseccomp_install(const char *const *allowed, size_t count);

/// How many calls the filter has denied so far in this process.
unsigned long cseccomp_denial_count(void);

#endif
