#ifndef CFILESYSTEM_H
#define CFILESYSTEM_H

#include <stdint.h>
#include <sys/types.h>

/// What Searchlight needs of statx(2), in a struct Swift can see
/// (Glibc's `struct statx` is hidden behind _GNU_SOURCE from Swift's Glibc module).
typedef struct {
    uint64_t inode;
    uint64_t size;
    uint64_t blocks;
    uint32_t mode;
    uint32_t link_count;
    uint32_t device_major;
    uint32_t device_minor;
    int64_t modification_seconds;
    uint32_t modification_nanoseconds;
    int64_t change_seconds;
    uint32_t change_nanoseconds;
    int64_t birth_seconds;
    uint32_t birth_nanoseconds;
    int has_birth_time;
} cfs_stat;

/// statx(2) of `path` relative to `dirfd`, never following a final symbolic link.
/// Returns 0, or -1 with errno set.
int cfs_statx_nofollow(int dirfd, const char *path, cfs_stat *result);

/// statx(2) of an open descriptor. Returns 0, or -1 with errno set.
int cfs_fstatx(int fd, cfs_stat *result);

/// ioprio_set(2) for the thread `tid` (IOPRIO_WHO_PROCESS; 0 for the calling thread): `io_class` is 1
/// (real time), 2 (best effort) or 3 (idle), `level` 0-7. Glibc has no wrapper.
/// Returns 0, or -1 with errno set.
int cfs_set_io_priority(int tid, int io_class, int level);

/// ioprio_get(2) for the thread `tid` (0: the calling thread): the class in the high bits (>> 13), the level in
/// the low ones; -1 with errno set on failure.
int cfs_get_io_priority(int tid);

/// ioctl(2) FIONREAD: how many bytes can be read from `fd` now (for inotify: the events the kernel has queued
/// and nobody read yet). Returns the count, or -1 with errno set. (ioctl is variadic: Swift cannot call it.)
int cfs_readable_bytes(int fd);

/// gettid(2): the calling thread's id.
int cfs_gettid(void);

/// Extended attributes (<sys/xattr.h>, which Swift's Glibc module leaves out). Each returns
/// what the C function returns, with errno set on failure.
ssize_t cfs_fgetxattr(int fd, const char *name, void *value, size_t size);
ssize_t cfs_flistxattr(int fd, char *list, size_t size);
ssize_t cfs_lgetxattr(const char *path, const char *name, void *value, size_t size);
int cfs_setxattr(const char *path, const char *name, const void *value, size_t size);
int cfs_removexattr(const char *path, const char *name);

#endif
