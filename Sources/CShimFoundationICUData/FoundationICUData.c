#include "CShimFoundationICUData.h"

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

/// ICU's data header (`DataHeader`: `MappedData` then `UDataInfo`), 32 bytes with its padding.
typedef struct {
    uint16_t headerSize;
    uint8_t magic1, magic2;
    struct {
        uint16_t size, reservedWord;
        uint8_t isBigEndian, charsetFamily, sizeofUChar, reservedByte;
        uint8_t dataFormat[4], formatVersion[4], dataVersion[4];
    } info;
    uint8_t padding[8];
} DataHeader;

/// An ICU common-data package with no entries: the data header (magic 0xda27, little-endian,
/// ASCII, 2-byte UChar, format "ToCP" 1) and a table of contents whose count is 0 (40 bytes).
const struct {
    DataHeader header;
    uint32_t count, reserved;
} searchlight_icu_data_stub = {
    {32, 0xda, 0x27, {20, 0, 0, 0, 2, 0, {'T', 'o', 'C', 'P'}, {1, 0, 0, 0}, {0, 0, 0, 0}}, {0}},
    0, 0,
};

/// Foundation's ICU (the toolchain's `_FoundationICU`, its names prefixed `swift_`). Weak, so
/// that debug builds, which link that library only through Foundation's, need not name it.
/// (Weak references do not pull an archive member into a static link: ICU's own calls do,
/// and a build where none did would stop at every start with the message below.)
extern void swift_udata_setCommonData(const void *data, int *status) __attribute__((weak));

/// The data package the linker chose: Foundation's, or the stub above when `--defsym` named
/// it so. Weak: the toolchain's shared ICU (debug builds) does not export it.
extern const char icudt76_dat[] __attribute__((weak));

int searchlight_icu_data_is_shared(void) {
    return (const void *)icudt76_dat == (const void *)&searchlight_icu_data_stub;
}

/// Whether `size` bytes at `data` hold a whole common-data package (format "CmnD", what
/// `icupkg` and the toolchain write: a table of contents of name and data offsets from its
/// start, after the header, sorted by name): ICU checks the header but
/// trusts the table of contents, so a truncated file would fault at the first look-up of an
/// item past its end. The entries are laid out in the table's order: the last one's data
/// must start inside the file. (Two pages read, not the whole table.)
static int is_whole_package(const uint8_t *data, size_t size) {
    const DataHeader *header = (const DataHeader *)data;
    if (size < sizeof(DataHeader) + 4 || header->magic1 != 0xda || header->magic2 != 0x27 ||
        header->headerSize < sizeof(DataHeader) || header->headerSize > size - 4 ||
        memcmp(header->info.dataFormat, "CmnD", 4) != 0 || header->info.isBigEndian != 0)
        return 0;
    size_t body = size - header->headerSize;
    uint32_t count;
    memcpy(&count, data + header->headerSize, 4);
    if (count == 0 || (size_t)count > (body - 4) / 8) return 0;
    uint32_t last[2];   // name offset, data offset, from the start of the table
    memcpy(last, data + header->headerSize + 4 + 8 * ((size_t)count - 1), sizeof last);
    return last[0] < body && last[1] < body;
}

/// Maps `folder/relative/name` and gives it to ICU; 1 when ICU took it.
static int share(const char *folder, size_t folder_length, const char *relative) {
    char path[PATH_MAX];
    int written = snprintf(path, sizeof path, "%.*s/%s%s" SEARCHLIGHT_ICU_DATA_FILE,
                           (int)folder_length, folder, relative, *relative ? "/" : "");
    if (written < 0 || (size_t)written >= sizeof path) return 0;
    int descriptor = open(path, O_RDONLY | O_CLOEXEC);
    if (descriptor < 0) return 0;
    struct stat status;
    void *mapped = MAP_FAILED;
    size_t size = 0;
    if (fstat(descriptor, &status) == 0 && S_ISREG(status.st_mode) && status.st_size > 0) {
        size = (size_t)status.st_size;
        mapped = mmap(NULL, size, PROT_READ, MAP_PRIVATE, descriptor, 0);
    }
    close(descriptor);
    if (mapped == MAP_FAILED) return 0;
    int error = 0;
    if (swift_udata_setCommonData && is_whole_package(mapped, size)) {
        swift_udata_setCommonData(mapped, &error);
        if (error <= 0) return 1;
    }
    munmap(mapped, size);
    return 0;
}

/// The folder of `path` (up to its last slash; "/" itself for /searchlight, "." without one).
static void folder_of(const char *path, const char **folder, size_t *folder_length) {
    const char *slash = strrchr(path, '/');
    *folder = slash ? path : ".";
    *folder_length = slash ? (slash > path ? (size_t)(slash - path) : 1) : 1;
}

/// Shares the file from the folder of the executable at `path`, or from the install's folder beside it.
static int share_beside(const char *path) {
    const char *folder;
    size_t folder_length;
    folder_of(path, &folder, &folder_length);
    return share(folder, folder_length, "") || share(folder, folder_length, SEARCHLIGHT_ICU_DATA_INSTALLED_FOLDER);
}

/// Before `main`: an executable linked without ICU's data maps the installed copy and gives
/// it to ICU, or stops with a message naming where it looked (Foundation would otherwise
/// stop later, at its first date or time zone, with no word of why).
__attribute__((constructor)) static void searchlight_share_icu_data(void) {
    if (!searchlight_icu_data_is_shared()) return;
    // The path the executable was started by, which the kernel keeps for it: when that is the
    // file itself, not a link to it, its folder is the executable's (relative to the folder
    // the process still runs in). Reading /proc/self/exe costs about 18 µs of every start.
    const char *started = (const char *)getauxval(AT_EXECFN);
    struct stat status;
    if (started && lstat(started, &status) == 0 && S_ISREG(status.st_mode) && share_beside(started)) return;
    char executable[PATH_MAX];
    ssize_t length = readlink("/proc/self/exe", executable, sizeof executable - 1);
    if (length <= 0) {
        // No /proc (a bare container): the path it was started by, its links resolved.
        char resolved[PATH_MAX];
        if (started && realpath(started, resolved)) started = resolved;
        length = started ? (ssize_t)strnlen(started, sizeof executable - 1) : 0;
        if (length > 0) memcpy(executable, started, (size_t)length);
    }
    if (length < 0) length = 0;
    executable[length] = '\0';
    if (share_beside(executable)) return;
    const char *folder;
    size_t folder_length;
    folder_of(executable, &folder, &folder_length);
    fprintf(stderr, "%s: cannot load Foundation's ICU data: no readable, valid " SEARCHLIGHT_ICU_DATA_FILE
            " in %.*s or %.*s/" SEARCHLIGHT_ICU_DATA_INSTALLED_FOLDER " (reinstall Searchlight)\n",
            length > 0 ? executable : "searchlight", (int)folder_length, folder, (int)folder_length, folder);
    _exit(SEARCHLIGHT_ICU_DATA_MISSING_STATUS);
}
