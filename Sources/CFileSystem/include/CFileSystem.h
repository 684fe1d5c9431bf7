#ifndef CFILESYSTEM_H
#define CFILESYSTEM_H

#include <stdint.h>

/// What Searchlight needs of statx(2), in a struct Swift can see
/// (Glibc's `struct statx` is hidden behind _GNU_SOURCE from Swift's Glibc module).
typedef struct {
    uint64_t inode;
    uint64_t size;
    uint64_t blocks;
    uint32_t mode;
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

#endif
