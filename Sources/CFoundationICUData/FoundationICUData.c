#include "CFoundationICUData.h"

#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/// An ICU common-data package with no entries: the 32-byte data header (ICU's `DataHeader`:
/// magic 0xda27, a `UDataInfo` saying little-endian, ASCII, 2-byte UChar, format "ToCP" 1)
/// followed by a table of contents whose count is 0.
const struct {
    uint16_t headerSize;
    uint8_t magic1, magic2;
    struct {
        uint16_t size, reservedWord;
        uint8_t isBigEndian, charsetFamily, sizeofUChar, reservedByte;
        uint8_t dataFormat[4], formatVersion[4], dataVersion[4];
    } info;
    uint8_t padding[8];
    uint32_t count, reserved;
} searchlight_icu_data_stub = {
    32, 0xda, 0x27,
    {20, 0, 0, 0, 2, 0, {'T', 'o', 'C', 'P'}, {1, 0, 0, 0}, {0, 0, 0, 0}},
    {0}, 0, 0,
};

/// Foundation's ICU (the toolchain's `_FoundationICU`, its names prefixed `swift_`). Weak, so
/// that debug builds, which link that library only through Foundation's, need not name it.
extern void swift_udata_setCommonData(const void *data, int *status) __attribute__((weak));

/// The data package the linker chose: Foundation's, or the stub above when `--defsym` named
/// it so. Weak: the toolchain's shared ICU (debug builds) does not export it.
extern const char icudt76_dat[] __attribute__((weak));

int searchlight_icu_data_is_shared(void) {
    return (const void *)icudt76_dat == (const void *)&searchlight_icu_data_stub;
}

/// Maps `folder/name` and returns its address, or NULL when it cannot be opened.
static const void *map_data(const char *folder, size_t folder_length, const char *relative) {
    char path[PATH_MAX];
    int written = snprintf(path, sizeof path, "%.*s/%s%s" SEARCHLIGHT_ICU_DATA_FILE,
                           (int)folder_length, folder, relative, *relative ? "/" : "");
    if (written < 0 || (size_t)written >= sizeof path) return NULL;
    int descriptor = open(path, O_RDONLY | O_CLOEXEC);
    if (descriptor < 0) return NULL;
    struct stat status;
    void *mapped = MAP_FAILED;
    if (fstat(descriptor, &status) == 0 && S_ISREG(status.st_mode) && status.st_size > 32)
        mapped = mmap(NULL, (size_t)status.st_size, PROT_READ, MAP_PRIVATE, descriptor, 0);
    close(descriptor);
    return mapped == MAP_FAILED ? NULL : mapped;
}

/// Before `main`: an executable linked without ICU's data maps the installed copy and gives
/// it to ICU, or stops with a message naming where it looked (Foundation would otherwise
/// stop later, at its first date or time zone, with no word of why).
__attribute__((constructor)) static void searchlight_share_icu_data(void) {
    if (!searchlight_icu_data_is_shared()) return;
    char executable[PATH_MAX];
    ssize_t length = readlink("/proc/self/exe", executable, sizeof executable - 1);
    if (length <= 0) {
        // No /proc (a bare container): the path the executable was started by, which the
        // kernel keeps for it; a relative one is relative to the folder it still runs in.
        const char *started = (const char *)getauxval(AT_EXECFN);
        length = started ? (ssize_t)strnlen(started, sizeof executable - 1) : 0;
        if (length > 0) memcpy(executable, started, (size_t)length);
    }
    if (length < 0) length = 0;
    executable[length] = '\0';
    // The executable's folder: up to its last slash ("/" itself for /searchlight), "." without one.
    const char *folder = ".";
    size_t folder_length = 1;
    const char *slash = strrchr(executable, '/');
    if (slash) {
        folder = executable;
        folder_length = slash > executable ? (size_t)(slash - executable) : 1;
    }
    const void *data = map_data(folder, folder_length, "");
    if (!data) data = map_data(folder, folder_length, SEARCHLIGHT_ICU_DATA_INSTALLED_FOLDER);
    int status = 0;
    if (data && swift_udata_setCommonData) swift_udata_setCommonData(data, &status);
    else data = NULL;
    if (!data || status > 0) {
        fprintf(stderr, "%s: cannot load Foundation's ICU data: no readable, valid " SEARCHLIGHT_ICU_DATA_FILE
                " in %.*s or %.*s/" SEARCHLIGHT_ICU_DATA_INSTALLED_FOLDER " (reinstall Searchlight)\n",
                length > 0 ? executable : "searchlight", (int)folder_length, folder, (int)folder_length, folder);
        _exit(70);
    }
}
