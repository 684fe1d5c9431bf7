#include "CShimMagic.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static struct {
    magic_t (*open)(int);
    void (*close)(magic_t);
    int (*load)(magic_t, const char *);
    int (*setparam)(magic_t, int, const void *);
    const char *(*descriptor)(magic_t, int);
    const char *(*buffer)(magic_t, const void *, size_t);
    const char *(*error)(magic_t);
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char failure[512];
static int loaded;

static void *symbol(void *library, const char *name) {
    void *address = dlsym(library, name);
    if (!address && !failure[0]) snprintf(failure, sizeof failure, "libmagic.so.1 has no %s", name);
    return address;
}

static void load(void) {
    void *library = dlopen("libmagic.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *reason = dlerror();
        snprintf(failure, sizeof failure, "%s", reason ? reason : "cannot load libmagic.so.1");
        return;
    }
    api.open = (magic_t (*)(int))symbol(library, "magic_open");
    api.close = (void (*)(magic_t))symbol(library, "magic_close");
    api.load = (int (*)(magic_t, const char *))symbol(library, "magic_load");
    api.setparam = (int (*)(magic_t, int, const void *))symbol(library, "magic_setparam");
    api.descriptor = (const char *(*)(magic_t, int))symbol(library, "magic_descriptor");
    api.buffer = (const char *(*)(magic_t, const void *, size_t))symbol(library, "magic_buffer");
    api.error = (const char *(*)(magic_t))symbol(library, "magic_error");
    loaded = !failure[0];
}

const char *searchlight_magic_library_error(void) {
    pthread_once(&once, load);
    return loaded ? NULL : failure;
}

magic_t searchlight_magic_open(int flags) { return api.open(flags); }
void searchlight_magic_close(magic_t cookie) { api.close(cookie); }
int searchlight_magic_load(magic_t cookie, const char *filename) { return api.load(cookie, filename); }
int searchlight_magic_setparam(magic_t cookie, int parameter, const void *value) { return api.setparam(cookie, parameter, value); }
const char *searchlight_magic_descriptor(magic_t cookie, int descriptor) { return api.descriptor(cookie, descriptor); }
const char *searchlight_magic_buffer(magic_t cookie, const void *buffer, size_t length) { return api.buffer(cookie, buffer, length); }
const char *searchlight_magic_error(magic_t cookie) { return api.error(cookie); }
