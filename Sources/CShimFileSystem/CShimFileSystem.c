#define _GNU_SOURCE
#include <fcntl.h>
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "CShimFileSystem.h"

static int fill(int status, const struct statx *buffer, cfs_stat *result) {
    if (status != 0) return status;
    result->inode = buffer->stx_ino;
    result->size = buffer->stx_size;
    result->blocks = buffer->stx_blocks;
    result->mode = buffer->stx_mode;
    result->owner = buffer->stx_uid;
    result->group = buffer->stx_gid;
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

int cfs_memfd_create(const char *name) {
    return memfd_create(name, MFD_CLOEXEC);
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

ssize_t cfs_send_with_descriptor(int socket, const void *bytes, size_t length, int passed) {
    union { struct cmsghdr header; char space[CMSG_SPACE(sizeof(int))]; } control;
    memset(&control, 0, sizeof control);
    struct iovec vector = { .iov_base = (void *)bytes, .iov_len = length };
    struct msghdr message = { .msg_iov = &vector, .msg_iovlen = 1,
                              .msg_control = control.space, .msg_controllen = sizeof control.space };
    struct cmsghdr *header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(header), &passed, sizeof(int));
    return sendmsg(socket, &message, MSG_NOSIGNAL | MSG_DONTWAIT);
}

ssize_t cfs_receive_with_descriptor(int socket, void *bytes, size_t length, int *passed) {
    // Room for a few descriptors: a peer that sends more than one gets the rest closed.
    union { struct cmsghdr header; char space[CMSG_SPACE(4 * sizeof(int))]; } control;
    struct iovec vector = { .iov_base = bytes, .iov_len = length };
    struct msghdr message = { .msg_iov = &vector, .msg_iovlen = 1,
                              .msg_control = control.space, .msg_controllen = sizeof control.space };
    *passed = -1;
    ssize_t count = recvmsg(socket, &message, MSG_CMSG_CLOEXEC);
    if (count < 0) return count;
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
        size_t received = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t index = 0; index < received; index++) {
            int descriptor;
            memcpy(&descriptor, CMSG_DATA(header) + index * sizeof(int), sizeof(int));
            if (*passed < 0) *passed = descriptor; else close(descriptor);
        }
    }
    return count;
}

int cfs_set_no_new_privileges(void) {
    return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
}

int cfs_ptrace_attach(int pid) {
    return (int)ptrace(PTRACE_ATTACH, pid, NULL, NULL);
}

int cfs_ioctl_type(int fd, char *character) {
    return ioctl(fd, TIOCSTI, character);
}

int cfs_no_new_privileges(void) {
    return prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0);
}

int cfs_seccomp_mode(void) {
    return prctl(PR_GET_SECCOMP, 0, 0, 0, 0);
}

// The Landlock ABI of linux/landlock.h, written out: Debian 12's header predates the network
// rights (ABI 4) and the scopes (ABI 6).
struct cfs_landlock_ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net;
    uint64_t scoped;
};

struct cfs_landlock_path_beneath_attr {
    uint64_t allowed_access;
    int32_t parent_fd;
} __attribute__((packed));

#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_add_rule 445
#define SYS_landlock_restrict_self 446
#endif

int cfs_landlock_abi(void) {
    return (int)syscall(SYS_landlock_create_ruleset, NULL, 0, 1U /* LANDLOCK_CREATE_RULESET_VERSION */);
}

int cfs_landlock_create_ruleset(uint64_t filesystem, uint64_t network, uint64_t scoped) {
    struct cfs_landlock_ruleset_attr attributes = {
        .handled_access_fs = filesystem, .handled_access_net = network, .scoped = scoped };
    // An older kernel refuses a larger struct whose extra fields are not zero: pass only what is used.
    size_t size = scoped ? sizeof attributes
        : network ? offsetof(struct cfs_landlock_ruleset_attr, scoped)
        : offsetof(struct cfs_landlock_ruleset_attr, handled_access_net);
    return (int)syscall(SYS_landlock_create_ruleset, &attributes, size, 0U);
}

int cfs_landlock_allow_beneath(int ruleset, int parent, uint64_t allowed) {
    struct cfs_landlock_path_beneath_attr rule = { .allowed_access = allowed, .parent_fd = parent };
    return (int)syscall(SYS_landlock_add_rule, ruleset, 1 /* LANDLOCK_RULE_PATH_BENEATH */, &rule, 0U);
}

int cfs_landlock_restrict_self(int ruleset) {
    return (int)syscall(SYS_landlock_restrict_self, ruleset, 0U);
}

long long cfs_filesystem_type(int fd) {
    struct statfs info;
    if (fstatfs(fd, &info) != 0) return -1;
    return (long long)info.f_type;
}

int cfs_pipe_close_on_exec(int ends[2]) {
    return pipe2(ends, O_CLOEXEC);
}
