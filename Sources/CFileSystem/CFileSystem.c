#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "CFileSystem.h"

static int fill(int status, const struct statx *buffer, cfs_stat *result) {
    if (status != 0) return status;
    result->inode = buffer->stx_ino;
    result->size = buffer->stx_size;
    result->blocks = buffer->stx_blocks;
    result->mode = buffer->stx_mode;
    result->link_count = buffer->stx_nlink;
    result->device_major = buffer->stx_dev_major;
    result->device_minor = buffer->stx_dev_minor;
    result->modification_seconds = buffer->stx_mtime.tv_sec;
    result->modification_nanoseconds = buffer->stx_mtime.tv_nsec;
    result->change_seconds = buffer->stx_ctime.tv_sec;
    result->change_nanoseconds = buffer->stx_ctime.tv_nsec;
    result->has_birth_time = (buffer->stx_mask & STATX_BTIME) != 0;
    result->birth_seconds = result->has_birth_time ? buffer->stx_btime.tv_sec : 0;
    result->birth_nanoseconds = result->has_birth_time ? buffer->stx_btime.tv_nsec : 0;
    return 0;
}

int cfs_statx_nofollow(int dirfd, const char *path, cfs_stat *result) {
    struct statx buffer;
    int status = statx(dirfd, path, AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT, STATX_BASIC_STATS | STATX_BTIME, &buffer);
    return fill(status, &buffer, result);
}

int cfs_fstatx(int fd, cfs_stat *result) {
    struct statx buffer;
    int status = statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS | STATX_BTIME, &buffer);
    return fill(status, &buffer, result);
}

// From <linux/ioprio.h>, which older kernels' headers lack.
enum { CFS_IOPRIO_WHO_PROCESS = 1, CFS_IOPRIO_CLASS_SHIFT = 13 };

int cfs_set_io_priority(int tid, int io_class, int level) {
    return (int)syscall(SYS_ioprio_set, CFS_IOPRIO_WHO_PROCESS, tid, (io_class << CFS_IOPRIO_CLASS_SHIFT) | level);
}

int cfs_get_io_priority(int tid) {
    return (int)syscall(SYS_ioprio_get, CFS_IOPRIO_WHO_PROCESS, tid);
}

int cfs_readable_bytes(int fd) {
    int count = 0;
    if (ioctl(fd, FIONREAD, &count) != 0) return -1;
    return count;
}

int cfs_gettid(void) {
    return (int)syscall(SYS_gettid);
}

#include <sys/xattr.h>

ssize_t cfs_fgetxattr(int fd, const char *name, void *value, size_t size) {
    return fgetxattr(fd, name, value, size);
}

ssize_t cfs_flistxattr(int fd, char *list, size_t size) {
    return flistxattr(fd, list, size);
}

ssize_t cfs_lgetxattr(const char *path, const char *name, void *value, size_t size) {
    return lgetxattr(path, name, value, size);
}

int cfs_setxattr(const char *path, const char *name, const void *value, size_t size) {
    return setxattr(path, name, value, size, 0);
}

int cfs_removexattr(const char *path, const char *name) {
    return removexattr(path, name);
}
