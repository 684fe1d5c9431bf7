#include <archive.h>
#include <archive_entry.h>
#include <sys/syscall.h>
#include <unistd.h>

/// An anonymous file in memory for an archive member, so that the readers that take a
/// descriptor read it as they read files. `memfd_create(2)` is hidden behind _GNU_SOURCE in
/// Glibc's headers; the system call itself is not. MFD_CLOEXEC is 1.
static inline int clibarchive_memfd(const char *name) {
    return (int)syscall(SYS_memfd_create, name, 1u);
}
