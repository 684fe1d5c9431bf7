#include "CShimGsf.h"

#include <gsf/gsf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *copy_error(GError *error, const char *fallback) {
    char *copy = strdup(error != NULL && error->message != NULL ? error->message : fallback);
    if (error != NULL) g_error_free(error);
    return copy;
}

static GsfInfile *open_compound(int descriptor, char **error) {
    static gsize initialized = 0;
    if (g_once_init_enter(&initialized)) {
        gsf_init();
        g_once_init_leave(&initialized, 1);
    }
    char name[64];
    snprintf(name, sizeof(name), "/proc/self/fd/%d", descriptor);
    GError *failure = NULL;
    GsfInput *input = gsf_input_stdio_new(name, &failure);
    if (input == NULL) {
        *error = copy_error(failure, "cannot open the file");
        return NULL;
    }
    GsfInfile *infile = gsf_infile_msole_new(input, &failure);
    g_object_unref(input);
    if (infile == NULL) *error = copy_error(failure, "not an OLE2 compound file");
    return infile;
}

static char *string_property(GsfDocMetaData *meta, const char *name) {
    GsfDocProp *property = gsf_doc_meta_data_lookup(meta, name);
    if (property == NULL) return NULL;
    GValue const *value = gsf_doc_prop_get_val(property);
    if (value == NULL || !G_VALUE_HOLDS_STRING(value)) return NULL;
    const char *text = g_value_get_string(value);
    return text != NULL && text[0] != '\0' ? strdup(text) : NULL;
}

static int64_t time_property(GsfDocMetaData *meta, const char *name) {
    GsfDocProp *property = gsf_doc_meta_data_lookup(meta, name);
    if (property == NULL) return -1;
    GValue const *value = gsf_doc_prop_get_val(property);
    if (value == NULL || !G_VALUE_HOLDS(value, GSF_TIMESTAMP_TYPE)) return -1;
    GsfTimestamp const *stamp = g_value_get_boxed(value);
    return stamp != NULL && stamp->timet > 0 ? (int64_t)stamp->timet : -1;
}

static int int_property(GsfDocMetaData *meta, const char *name) {
    GsfDocProp *property = gsf_doc_meta_data_lookup(meta, name);
    if (property == NULL) return -1;
    GValue const *value = gsf_doc_prop_get_val(property);
    if (value == NULL) return -1;
    if (G_VALUE_HOLDS_INT(value)) return g_value_get_int(value);
    if (G_VALUE_HOLDS_UINT(value)) return (int)g_value_get_uint(value);
    return -1;
}

int cole2_read_summary(int descriptor, cole2_summary *summary, char **error) {
    memset(summary, 0, sizeof(*summary));
    summary->created = summary->modified = -1;
    summary->page_count = summary->slide_count = -1;
    *error = NULL;
    GsfInfile *infile = open_compound(descriptor, error);
    if (infile == NULL) return -1;
    GsfDocMetaData *meta = gsf_doc_meta_data_new();
    static const char *const streams[] = {"\005SummaryInformation", "\005DocumentSummaryInformation"};
    for (size_t i = 0; i < 2; i++) {
        GsfInput *stream = gsf_infile_child_by_name(infile, streams[i]);
        if (stream == NULL) continue;
        GError *failure = gsf_doc_meta_data_read_from_msole(meta, stream);
        if (failure != NULL) g_error_free(failure);
        g_object_unref(stream);
    }
    summary->title = string_property(meta, GSF_META_NAME_TITLE);
    summary->author = string_property(meta, GSF_META_NAME_CREATOR);
    summary->subject = string_property(meta, GSF_META_NAME_SUBJECT);
    summary->keywords = string_property(meta, GSF_META_NAME_KEYWORDS);
    summary->comments = string_property(meta, GSF_META_NAME_DESCRIPTION);
    summary->created = time_property(meta, GSF_META_NAME_DATE_CREATED);
    summary->modified = time_property(meta, GSF_META_NAME_DATE_MODIFIED);
    summary->page_count = int_property(meta, GSF_META_NAME_PAGE_COUNT);
    summary->slide_count = int_property(meta, GSF_META_NAME_SLIDE_COUNT);
    g_object_unref(meta);
    g_object_unref(infile);
    return 0;
}

void cole2_summary_clear(cole2_summary *summary) {
    free(summary->title);
    free(summary->author);
    free(summary->subject);
    free(summary->keywords);
    free(summary->comments);
    memset(summary, 0, sizeof(*summary));
}

unsigned char *cole2_read_stream(int descriptor, const char *name, size_t max_bytes, size_t *length, char **error) {
    *length = 0;
    *error = NULL;
    GsfInfile *infile = open_compound(descriptor, error);
    if (infile == NULL) return NULL;
    GsfInput *stream = gsf_infile_child_by_name(infile, name);
    g_object_unref(infile);
    if (stream == NULL) {
        *error = strdup("the compound file has no such stream");
        return NULL;
    }
    gsf_off_t size = gsf_input_size(stream);
    size_t wanted = size < 0 ? 0 : (size_t)size < max_bytes ? (size_t)size : max_bytes;
    unsigned char *bytes = malloc(wanted > 0 ? wanted : 1);
    if (bytes == NULL || (wanted > 0 && gsf_input_read(stream, wanted, bytes) == NULL)) {
        free(bytes);
        g_object_unref(stream);
        *error = strdup("cannot read the stream");
        return NULL;
    }
    g_object_unref(stream);
    *length = wanted;
    return bytes;
}
