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
    uint32_t owner;
    uint32_t group;
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

/// The type of the filesystem of the open file `fd` (`statfs(2)`'s `f_type`: 0x4d44 for FAT),
/// or -1 with errno set.
long long cfs_filesystem_type(int fd);

/// memfd_create(2) with MFD_CLOEXEC: an anonymous file in memory named `name`. Returns its
/// descriptor, or -1 with errno set.
int cfs_memfd_create(const char *name);

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

/// sendmsg(2) of `length` bytes with the open descriptor `passed` as SCM_RIGHTS ancillary data,
/// with MSG_NOSIGNAL | MSG_DONTWAIT. Returns the bytes sent, or -1 with errno set.
ssize_t cfs_send_with_descriptor(int socket, const void *bytes, size_t length, int passed);

/// recvmsg(2) of up to `length` bytes, blocking; a descriptor that came with them (SCM_RIGHTS,
/// received close-on-exec) is stored in `*passed`, which is -1 otherwise (extra ones are closed).
/// Returns the bytes received (0 at end of stream), or -1 with errno set.
ssize_t cfs_receive_with_descriptor(int socket, void *bytes, size_t length, int *passed);

/// prctl(2) PR_SET_NO_NEW_PRIVS: neither this process nor its children can gain privileges
/// (set-user-id bits, file capabilities) through execve. Returns 0, or -1 with errno set.
int cfs_set_no_new_privileges(void);

/// Landlock (Glibc has no wrappers; the raw system calls). The highest ABI version the kernel
/// supports, or -1 with errno set (EOPNOTSUPP: built in but disabled; ENOSYS: not built).
int cfs_landlock_abi(void);

/// landlock_create_ruleset(2) handling `filesystem` and `network` rights and the `scoped`
/// IPC scopes (0 for what an older ABI does not know). Returns the ruleset's descriptor, or
/// -1 with errno set.
int cfs_landlock_create_ruleset(uint64_t filesystem, uint64_t network, uint64_t scoped);

/// landlock_add_rule(2) LANDLOCK_RULE_PATH_BENEATH: `allowed` rights beneath the file or folder
/// open as `parent` (an O_PATH descriptor). Returns 0, or -1 with errno set.
int cfs_landlock_allow_beneath(int ruleset, int parent, uint64_t allowed);

/// landlock_restrict_self(2): this thread (and threads and children started later) enter
/// the ruleset's domain. Returns 0, or -1 with errno set.
int cfs_landlock_restrict_self(int ruleset);

/// The seccomp mode of this process from prctl(2) PR_GET_SECCOMP: 0 none, 2 filter; -1 with
/// errno EINVAL when the kernel has no seccomp.
int cfs_seccomp_mode(void);

/// ptrace(2) PTRACE_ATTACH to the process `pid` (variadic in Glibc: Swift cannot call it); the
/// sandbox's self-test tries it. Returns 0, or -1 with errno set.
int cfs_ptrace_attach(int pid);

/// ioctl(2) TIOCSTI on `fd`: pushes `character` into the terminal's input (variadic in Glibc);
/// the sandbox's self-test tries it. Returns 0, or -1 with errno set.
int cfs_ioctl_type(int fd, char *character);

/// Whether no_new_privs is set on this process (prctl(2) PR_GET_NO_NEW_PRIVS): 1, 0, or -1.
int cfs_no_new_privileges(void);

/// pipe2(2) with O_CLOEXEC (hidden from Swift by Glibc's module): both ends close-on-exec from
/// the start, so a child spawned by another thread meanwhile inherits neither. Returns 0, or -1
/// with errno set.
int cfs_pipe_close_on_exec(int ends[2]);

#endif
