#ifndef COLE2_H
#define COLE2_H

// A small C layer over libgsf for the extraction worker: the summary information and the
// streams of OLE2 compound files (Word, Excel and PowerPoint 97-2003). libgsf's headers
// pull in libxml2's (and so ICU's), which collide with Foundation's when imported into
// Swift; they stay in the .c file. Only `searchlight-extractor` links it.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What `\005SummaryInformation` and `\005DocumentSummaryInformation` say. Strings are
/// malloc-allocated or NULL; numbers are -1 when absent.
typedef struct {
    char *title;
    char *author;
    char *subject;
    char *keywords;
    char *comments;
    int64_t created;
    int64_t modified;
    int page_count;
    int slide_count;
} cole2_summary;

/// Opens the compound file readable from `descriptor` (not closed) and reads its summary
/// information. Returns 0, or -1 with `*error` set (malloc-allocated; free with `free`)
/// when the file is not a compound file.
int cole2_read_summary(int descriptor, cole2_summary *summary, char **error);

/// Frees what `summary` owns.
void cole2_summary_clear(cole2_summary *summary);

/// The first `max_bytes` bytes of the root stream `name` (malloc-allocated, free with `free`),
/// with `*length` set, or NULL with `*error` set when the file or the stream cannot be read.
unsigned char *cole2_read_stream(int descriptor, const char *name, size_t max_bytes, size_t *length, char **error);

#ifdef __cplusplus
}
#endif

#endif
