#ifndef CMAGICLOADER_H
#define CMAGICLOADER_H

// libmagic's types and constants, and its functions opened with dlopen(3) on first use: only
// `scan` and `watch` inspect files, so `search` and the other commands do not pay for
// loading and binding libmagic, liblzma and libbz2 at every start; an extraction worker loads
// it when it first meets an archive's member. The one way Swift reaches libmagic.
#include <magic.h>

// NULL once libmagic is loaded, else why it could not be (a static string).
const char *searchlight_magic_library_error(void);

// The libmagic functions of the same names; call searchlight_magic_library_error first.
magic_t searchlight_magic_open(int flags);
void searchlight_magic_close(magic_t cookie);
int searchlight_magic_load(magic_t cookie, const char *filename);
int searchlight_magic_setparam(magic_t cookie, int parameter, const void *value);
const char *searchlight_magic_descriptor(magic_t cookie, int descriptor);
const char *searchlight_magic_buffer(magic_t cookie, const void *buffer, size_t length);
const char *searchlight_magic_error(magic_t cookie);

#endif
