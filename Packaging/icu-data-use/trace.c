/* Loaded with LD_PRELOAD into a release executable: when the executable maps Foundation's ICU
 * data (icudt76l.dat, Sources/CShimFoundationICUData), it gets a copy that no page of can be read
 * until a fault says which one; each page read is written, as its offset, to
 * $ICU_TRACE_DIR/PID. `run` maps the offsets to the package's items. Run with
 * SWIFT_BACKTRACE=enable=no: the runtime's own handler of faults would replace this one. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static char *traced;
static size_t traced_length;
static int trace_file = -1;

static void on_fault(int signal_number, siginfo_t *info, void *context) {
    (void)context;
    char *address = info->si_addr;
    if (traced && address >= traced && address < traced + traced_length) {
        uintptr_t page = (uintptr_t)(address - traced) & ~(uintptr_t)4095;
        mprotect(traced + page, 4096, PROT_READ);
        char line[32];
        int length = snprintf(line, sizeof line, "%lu\n", (unsigned long)page);
        if (trace_file >= 0 && write(trace_file, line, (size_t)length) < 0) { /* nothing to do */ }
        return;
    }
    signal(signal_number, SIG_DFL);
    raise(signal_number);
}

void *mmap(void *address, size_t length, int protection, int flags, int descriptor, off_t offset) {
    static void *(*real_mmap)(void *, size_t, int, int, int, off_t);
    if (!real_mmap) real_mmap = (void *(*)(void *, size_t, int, int, int, off_t))dlsym(RTLD_NEXT, "mmap");
    char link[64], path[4096];
    ssize_t path_length = -1;
    if (descriptor >= 0 && !traced) {
        snprintf(link, sizeof link, "/proc/self/fd/%d", descriptor);
        path_length = readlink(link, path, sizeof path - 1);
    }
    if (path_length <= 0) return real_mmap(address, length, protection, flags, descriptor, offset);
    path[path_length] = '\0';
    if (!strstr(path, "icudt76l.dat")) return real_mmap(address, length, protection, flags, descriptor, offset);
    char *copy = real_mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (copy == MAP_FAILED) return copy;
    for (size_t done = 0; done < length;) {
        ssize_t read_now = pread(descriptor, copy + done, length - done, offset + (off_t)done);
        if (read_now <= 0) break;
        done += (size_t)read_now;
    }
    mprotect(copy, length, PROT_NONE);
    traced = copy;
    traced_length = length;
    const char *folder = getenv("ICU_TRACE_DIR");
    char file[4200];
    snprintf(file, sizeof file, "%s/%d", folder ? folder : ".", (int)getpid());
    trace_file = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_fault;
    action.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigaction(SIGSEGV, &action, NULL);
    return copy;
}
