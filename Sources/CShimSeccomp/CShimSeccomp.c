#define _GNU_SOURCE
#include <errno.h>
#include <sys/ioctl.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/ucontext.h>
#include <unistd.h>
#include <seccomp.h>
#include "CShimSeccomp.h"

// Large enough for every system call number of x86_64 and aarch64 (below 1024).
#define CALL_LIMIT 1024

// Names resolved before the filter is installed: the handler may not allocate.
static const char *call_names[CALL_LIMIT];
static atomic_uchar logged[CALL_LIMIT];
static atomic_ulong denials;

static void append(char *line, size_t *length, size_t size, const char *text) {
    while (*text && *length + 1 < size) line[(*length)++] = *text++;
}

// Runs on the thread whose call the filter trapped; async-signal-safe.
static void denied(int signal, siginfo_t *info, void *context) {
    (void)signal;
    ucontext_t *state = context;
    int call = info->si_syscall;
#if defined(__x86_64__)
    state->uc_mcontext.gregs[REG_RAX] = -EPERM;
#elif defined(__aarch64__)
    state->uc_mcontext.regs[0] = (unsigned long long)-EPERM;
#endif
    atomic_fetch_add(&denials, 1);
    if (call < 0 || call >= CALL_LIMIT || atomic_exchange(&logged[call], 1)) return;
    char line[160];
    size_t length = 0;
    char number[12];
    int digits = 0;
    unsigned value = (unsigned)call;
    do { number[digits++] = (char)('0' + value % 10); value /= 10; } while (value);
    append(line, &length, sizeof line, "searchlight-extractor: the sandbox denied system call ");
    append(line, &length, sizeof line, call_names[call] ? call_names[call] : "?");
    append(line, &length, sizeof line, " (");
    while (digits) { char digit[2] = { number[--digits], 0 }; append(line, &length, sizeof line, digit); }
    append(line, &length, sizeof line, "): EPERM\n");
    int saved = errno;
    (void)!write(STDERR_FILENO, line, length);
    errno = saved;
}

unsigned long cseccomp_denial_count(void) {
    return atomic_load(&denials);
}

/// Allows `call` for every value of its second argument's low 32 bits (the kernel reads an
/// `ioctl` request as 32 bits) but the `count` values of `excluded`. A rule can only compare
/// masked bits for equality, so the allowed values are covered by prefixes: walking the binary
/// trie of the excluded values from the top bit, each branch that leads to no excluded value
/// is one rule (its prefix under its mask) — at most 32 rules per excluded value.
static int allow_all_requests_but(scmp_filter_ctx filter, int call, const uint32_t *excluded, int count) {
    for (int depth = 0; depth < 32; depth++) {
        uint64_t mask = (0xFFFFFFFFull << (31 - depth)) & 0xFFFFFFFFull;
        uint64_t above = depth == 0 ? 0 : (0xFFFFFFFFull << (32 - depth)) & 0xFFFFFFFFull;
        for (int index = 0; index < count; index++) {
            uint64_t prefix = excluded[index] & above;
            int seen = 0;
            for (int other = 0; other < index; other++) seen |= (excluded[other] & above) == prefix;
            if (seen) continue;
            for (uint64_t bit = 0; bit <= 1; bit++) {
                uint64_t branch = prefix | (bit << (31 - depth));
                int leads = 0;
                for (int other = 0; other < count; other++) leads |= (excluded[other] & mask) == branch;
                if (leads) continue;
                int status = seccomp_rule_add(filter, SCMP_ACT_ALLOW, call, 1, SCMP_A1(SCMP_CMP_MASKED_EQ, mask, branch));
                if (status != 0) return status;
            }
        }
    }
    return 0;
}

int cseccomp_install(const char *const *allowed, size_t count) {
    for (int call = 0; call < CALL_LIMIT; call++) {
        // libseccomp's names for the native architecture; kept for the life of the process.
        call_names[call] = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, call);
    }
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = denied;
    action.sa_flags = SA_SIGINFO | SA_NODEFER | SA_RESTART;
    sigemptyset(&action.sa_mask);
    if (sigaction(SIGSYS, &action, NULL) != 0) return -errno;

    scmp_filter_ctx filter = seccomp_init(SCMP_ACT_TRAP);
    if (!filter) return -ENOMEM;
    int status = seccomp_attr_set(filter, SCMP_FLTATR_CTL_TSYNC, 1);
    // Every system call runs the filter: a binary tree over the call numbers instead of
    // libseccomp's default chain of ~200 comparisons (Benchmarks/sandbox.sh measured the
    // chain at about 5 % of a content scan). Best effort: older libseccomp lacks it.
    (void)seccomp_attr_set(filter, SCMP_FLTATR_CTL_OPTIMIZE, 2);
    // Keep speculative store bypass as the rest of the system has it: a filter otherwise turns
    // on its mitigation (SSBD) for the worker, which costs every load, and protects nothing
    // here (code that runs in the worker can read the worker's memory without a side channel).
    (void)seccomp_attr_set(filter, SCMP_FLTATR_CTL_SSB, 1);
    for (size_t index = 0; status == 0 && index < count; index++) {
        int call = seccomp_syscall_resolve_name(allowed[index]);
        if (call == __NR_SCMP_ERROR) continue;
        status = seccomp_rule_add(filter, SCMP_ACT_ALLOW, call, 0);
    }
    // Threads and processes, but no new namespaces (user namespaces are how many kernel
    // exploits start).
    const uint64_t namespaces = CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID
        | CLONE_NEWNET | CLONE_NEWCGROUP;
    if (status == 0) status = seccomp_rule_add(filter, SCMP_ACT_ALLOW, SCMP_SYS(clone), 1,
                                               SCMP_A0(SCMP_CMP_MASKED_EQ, namespaces, 0));
    if (status == 0) status = seccomp_rule_add(filter, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
    // `ioctl`, but for the two requests that push input into a terminal (a worker whose
    // standard error is the user's terminal could type a command there): those are denied
    // like any other call (trapped, EPERM, logged).
    static const uint32_t terminal_input[] = { TIOCSTI, TIOCLINUX };
    if (status == 0) status = allow_all_requests_but(filter, SCMP_SYS(ioctl), terminal_input, 2);
    if (status == 0) status = seccomp_load(filter);
    seccomp_release(filter);
    return status;
}
