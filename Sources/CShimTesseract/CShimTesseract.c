#include "CShimTesseract.h"
#include "CShimVips.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <tesseract/capi.h>
#include <vips/vips.h>

// One engine per worker process, started on the first OCR request.
static TessBaseAPI *engine = NULL;
// The orientation and script detector (osd.traineddata), NULL when it is not installed.
static TessBaseAPI *orientation = NULL;
// Where the language data is (NULL: Tesseract's default), for the engines started later.
static char *data_path = NULL;

// Engines for the languages of other scripts, started when a page in that script is first
// met (`cocr_options.script_languages`), kept for the process: at most a few.
enum { MAX_SCRIPT_ENGINES = 4 };
static struct {
    char *languages;
    TessBaseAPI *api;
} script_engines[MAX_SCRIPT_ENGINES];
static int script_engine_count = 0;

int cocr_initialize(const char *datapath, const char *languages, char **error) {
    *error = NULL;
    if (engine != NULL) return 0;
    TessBaseAPI *api = TessBaseAPICreate();
    if (TessBaseAPIInit3(api, datapath, languages) != 0) {
        TessBaseAPIDelete(api);
        *error = g_strdup_printf("cannot start Tesseract for languages '%s'", languages);
        char *copy = strdup(*error);
        g_free(*error);
        *error = copy;
        return -1;
    }
    // Tesseract's own debug output would go to the worker's standard error.
    TessBaseAPISetVariable(api, "debug_file", "/dev/null");
    engine = api;
    if (datapath != NULL) data_path = strdup(datapath);
    TessBaseAPI *osd = TessBaseAPICreate();
    if (TessBaseAPIInit3(osd, datapath, "osd") == 0) {
        TessBaseAPISetVariable(osd, "debug_file", "/dev/null");
        TessBaseAPISetPageSegMode(osd, PSM_OSD_ONLY);
        orientation = osd;
    } else {
        TessBaseAPIDelete(osd);
    }
    return 0;
}

static char *take_vips_error(void) {
    char *text = cvips_copy_error();
    return text != NULL ? text : strdup("unknown libvips error");
}

static void fail(cocr_result *result, cocr_status status, char *message) {
    result->status = status;
    free(result->error);
    result->error = message;
}

/// Appends to the result's text, up to the limit.
typedef struct {
    GString *text;
    size_t limit;
    int truncated;
} text_sink;

static void sink_append(text_sink *sink, const char *bytes, size_t length) {
    if (sink->truncated) return;
    if (sink->text->len + length > sink->limit) {
        // Cut at a UTF-8 boundary.
        size_t room = sink->limit - sink->text->len;
        while (room > 0 && ((unsigned char)bytes[room] & 0xC0) == 0x80) room--;
        g_string_append_len(sink->text, bytes, (gssize)room);
        sink->truncated = 1;
        return;
    }
    g_string_append_len(sink->text, bytes, (gssize)length);
}

/// A single-band 8-bit copy of `image` in memory: alpha flattened on white, colour to grey.
static VipsImage *grey_pixels(VipsImage *image) {
    VipsImage *current = image;
    g_object_ref(current);
    VipsImage *next = NULL;
    if (vips_image_hasalpha(current)) {
        VipsArrayDouble *white = vips_array_double_newv(1, 255.0);
        int status = vips_flatten(current, &next, "background", white, NULL);
        vips_area_unref(VIPS_AREA(white));
        g_object_unref(current);
        if (status != 0) return NULL;
        current = next;
    }
    if (vips_colourspace(current, &next, VIPS_INTERPRETATION_B_W, NULL) != 0) {
        g_object_unref(current);
        return NULL;
    }
    g_object_unref(current);
    current = next;
    if (vips_image_get_bands(current) > 1) {
        if (vips_extract_band(current, &next, 0, NULL) != 0) {
            g_object_unref(current);
            return NULL;
        }
        g_object_unref(current);
        current = next;
    }
    if (vips_image_get_format(current) != VIPS_FORMAT_UCHAR) {
        if (vips_cast_uchar(current, &next, NULL) != 0) {
            g_object_unref(current);
            return NULL;
        }
        g_object_unref(current);
        current = next;
    }
    next = vips_image_copy_memory(current);
    g_object_unref(current);
    return next;
}

/// What the orientation and script detector says of a page.
typedef struct {
    /// How far the page is turned clockwise (0, 90, 180, 270), 0 when unsure.
    int degrees;
    /// Tesseract's name of the page's script ("Latin", "Greek", "Cyrillic", "Han"…), or NULL when unsure.
    const char *script;
} page_layout;

/// Runs the detector on a greyscale page; nothing is detected when it is not installed.
static page_layout detect_layout(VipsImage *page, int dpi) {
    page_layout layout = {0, NULL};
    if (orientation == NULL) return layout;
    const unsigned char *pixels = vips_image_get_data(page);
    int width = vips_image_get_width(page), height = vips_image_get_height(page);
    TessBaseAPISetImage(orientation, pixels, width, height, 1, width);
    TessBaseAPISetSourceResolution(orientation, dpi);
    int degrees = 0;
    float confidence = 0, script_confidence = 0;
    const char *script = NULL;
    BOOL found = TessBaseAPIDetectOrientationScript(orientation, &degrees, &confidence, &script, &script_confidence);
    TessBaseAPIClear(orientation);
    if (!found) return layout;
    // Below about 1.5 the detector is guessing (Tesseract's own guidance for OSD).
    if (confidence >= 1.5f) layout.degrees = degrees;
    // The script's name is a static string of Tesseract's.
    if (script != NULL && script_confidence >= 1.0f) layout.script = script;
    return layout;
}

/// Turns `*page` upright by `degrees` clockwise turned; returns whether it did.
static int turn_upright(VipsImage **page, int degrees) {
    if (degrees == 0) return 0;
    VipsImage *image = *page;
    // `degrees` is how far the page is turned clockwise: turn it back.
    VipsAngle angle = degrees == 90 ? VIPS_ANGLE_D270 : degrees == 180 ? VIPS_ANGLE_D180 : VIPS_ANGLE_D90;
    VipsImage *rotated = NULL, *copy = NULL;
    if (vips_rot(image, &rotated, angle, NULL) != 0) {
        vips_error_clear();
        return 0;
    }
    copy = vips_image_copy_memory(rotated);
    g_object_unref(rotated);
    if (copy == NULL) {
        vips_error_clear();
        return 0;
    }
    g_object_unref(image);
    *page = copy;
    return 1;
}

/// The languages `options->script_languages` ("Greek:ell,Cyrillic:rus+ukr") names for `script`, or NULL.
static char *languages_for_script(const char *script, const char *table) {
    if (script == NULL || table == NULL) return NULL;
    size_t length = strlen(script);
    for (const char *entry = table; *entry != '\0';) {
        const char *end = strchr(entry, ',');
        if (end == NULL) end = entry + strlen(entry);
        const char *colon = memchr(entry, ':', (size_t)(end - entry));
        if (colon != NULL && (size_t)(colon - entry) == length && strncmp(entry, script, length) == 0) {
            return strndup(colon + 1, (size_t)(end - colon - 1));
        }
        entry = *end == ',' ? end + 1 : end;
    }
    return NULL;
}

/// The engine for `languages`, started on first use; NULL when it cannot start or too many are.
static TessBaseAPI *script_engine(const char *languages) {
    for (int index = 0; index < script_engine_count; index++) {
        if (strcmp(script_engines[index].languages, languages) == 0) return script_engines[index].api;
    }
    if (script_engine_count == MAX_SCRIPT_ENGINES) return NULL;
    TessBaseAPI *api = TessBaseAPICreate();
    if (TessBaseAPIInit3(api, data_path, languages) != 0) {
        TessBaseAPIDelete(api);
        return NULL;
    }
    TessBaseAPISetVariable(api, "debug_file", "/dev/null");
    script_engines[script_engine_count].languages = strdup(languages);
    script_engines[script_engine_count].api = api;
    script_engine_count += 1;
    return api;
}

/// What Tesseract read on one page.
typedef struct {
    GString *text;
    int kept;
    int dropped;
    /// Tesseract's mean word confidence (0–100).
    int confidence;
    int timed_out;
} page_text;

/// Recognises one greyscale page.
static page_text recognize_page(TessBaseAPI *engine, VipsImage *page, int dpi, const cocr_options *options) {
    page_text read = {.text = g_string_new(NULL)};
    int width = vips_image_get_width(page), height = vips_image_get_height(page);
    TessBaseAPISetPageSegMode(engine, PSM_AUTO);
    TessBaseAPISetImage(engine, vips_image_get_data(page), width, height, 1, width);
    TessBaseAPISetSourceResolution(engine, dpi);
    ETEXT_DESC *monitor = TessMonitorCreate();
    if (options->page_deadline_ms > 0) TessMonitorSetDeadlineMSecs(monitor, options->page_deadline_ms);
    // Non-zero when stopped at the deadline (or failed): what was recognised is still there, if anything.
    read.timed_out = TessBaseAPIRecognize(engine, monitor) != 0;
    TessMonitorDelete(monitor);
    read.confidence = TessBaseAPIMeanTextConf(engine);
    TessResultIterator *words = TessBaseAPIGetIterator(engine);
    if (words != NULL) {
        const TessPageIterator *position = TessResultIteratorGetPageIteratorConst(words);
        int line_has_words = 0;
        do {
            if (TessPageIteratorIsAtBeginningOf(position, RIL_TEXTLINE) && line_has_words) {
                g_string_append_c(read.text, '\n');
                line_has_words = 0;
            }
            char *word = TessResultIteratorGetUTF8Text(words, RIL_WORD);
            if (word == NULL) continue;
            float confidence = TessResultIteratorConfidence(words, RIL_WORD);
            if (confidence >= (float)options->min_confidence && word[0] != '\0') {
                if (line_has_words) g_string_append_c(read.text, ' ');
                g_string_append(read.text, word);
                line_has_words = 1;
                read.kept += 1;
            } else {
                read.dropped += 1;
            }
            TessDeleteText(word);
        } while (TessResultIteratorNext(words, RIL_WORD));
        TessResultIteratorDelete(words);
    }
    TessBaseAPIClear(engine);
    return read;
}

/// Keeps the better of two readings of a page (more words kept), freeing the other.
static int keep_better(page_text *read, page_text other) {
    if (other.kept > read->kept) {
        g_string_free(read->text, TRUE);
        *read = other;
        return 1;
    }
    g_string_free(other.text, TRUE);
    return 0;
}

/// Decodes, reads and, when the reading is poor, straightens and reads again one page image.
///
/// Most pages are upright and in the configured languages' script: they are read once. The
/// orientation and script detector runs only when Tesseract was unsure of what it read (few
/// words kept, a low mean confidence): a page it finds turned is turned back and read again,
/// and a page in another script is read again with the installed languages of that script
/// (`script_languages`); the reading that keeps the most words wins.
static void read_page(VipsImage *decoded, int dpi, const cocr_options *options, text_sink *sink, cocr_result *result) {
    VipsImage *page = grey_pixels(decoded);
    if (page == NULL) {
        fail(result, COCR_DECODE_FAILED, take_vips_error());
        return;
    }
    page_text read = recognize_page(engine, page, dpi, options);
    if (read.kept < 3 || read.confidence < 70) {
        page_layout layout = detect_layout(page, dpi);
        int turned = turn_upright(&page, layout.degrees);
        if (turned && keep_better(&read, recognize_page(engine, page, dpi, options))) result->pages_rotated += 1;
        char *languages = languages_for_script(layout.script, options->script_languages);
        TessBaseAPI *other = languages != NULL ? script_engine(languages) : NULL;
        if (other != NULL && keep_better(&read, recognize_page(other, page, dpi, options))) {
            result->pages_in_other_script += 1;
        }
        free(languages);
    }
    if (read.text->len > 0) {
        if (sink->text->len > 0) sink_append(sink, "\n\n", 2);
        sink_append(sink, read.text->str, read.text->len);
    }
    result->words_kept += read.kept;
    result->words_dropped += read.dropped;
    result->pages_timed_out += read.timed_out;
    result->pages_read += 1;
    g_string_free(read.text, TRUE);
    g_object_unref(page);
}

/// The quick look: a small copy of the image, and whether it may hold text; -1 when it
/// cannot be decoded (the error is left in libvips' buffer).
static int image_may_hold_text(const char *name) {
    VipsImage *small = NULL;
    if (vips_thumbnail(name, &small, 256, "height", 256, "size", VIPS_SIZE_DOWN,
                       "fail_on", VIPS_FAIL_ON_TRUNCATED, NULL) != 0) {
        return -1;
    }
    VipsImage *grey = grey_pixels(small);
    g_object_unref(small);
    if (grey == NULL) return -1;
    int answer = cvips_may_hold_text(vips_image_get_data(grey), vips_image_get_width(grey),
                                     vips_image_get_height(grey), 1);
    g_object_unref(grey);
    return answer;
}

static void recognize_image(int descriptor, const char *name, const cocr_options *options, text_sink *sink, cocr_result *result) {
    char *error = NULL;
    void *header = cvips_header_open(descriptor, &error);
    if (header == NULL) {
        fail(result, strstr(error, "not in a known image format") != NULL || strstr(error, "not allowed") != NULL
                         ? COCR_NOT_AN_IMAGE : COCR_DECODE_FAILED, error);
        return;
    }
    int width = cvips_header_width(header), height = cvips_header_height(header);
    cvips_header_close(header);
    result->width = width;
    result->height = height;
    if (options->max_pixels > 0 && (int64_t)width * height > options->max_pixels) {
        char *message = g_strdup_printf("image of %dx%d pixels exceeds the limit of %" G_GINT64_FORMAT " pixels",
                                        width, height, (gint64)options->max_pixels);
        fail(result, COCR_TOO_LARGE, strdup(message));
        g_free(message);
        return;
    }
    int shorter = width < height ? width : height, longer = width < height ? height : width;
    if (shorter < options->min_short_side || longer < options->min_long_side) {
        result->skipped = strdup("too small");
        return;
    }
    if (options->prefilter) {
        int look = image_may_hold_text(name);
        if (look < 0) {
            fail(result, COCR_DECODE_FAILED, take_vips_error());
            return;
        }
        if (look == 0) {
            result->skipped = strdup("no text expected");
            return;
        }
    }
    // A multi-page image (a TIFF from a scanner or a fax) is read page by page.
    int pages = 1;
    for (int index = 0; index < pages && index < options->max_image_pages && !sink->truncated; index++) {
        // Only the loaders of multi-page formats know `page`.
        VipsImage *decoded = index == 0
            ? vips_image_new_from_file(name, "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", VIPS_FAIL_ON_TRUNCATED, NULL)
            : vips_image_new_from_file(name, "access", VIPS_ACCESS_SEQUENTIAL, "page", index,
                                       "fail_on", VIPS_FAIL_ON_TRUNCATED, NULL);
        if (decoded == NULL) {
            // A later page that cannot be read keeps what the earlier ones gave.
            if (index == 0) fail(result, COCR_DECODE_FAILED, take_vips_error()); else vips_error_clear();
            break;
        }
        if (index == 0) pages = vips_image_get_n_pages(decoded);
        int page_width = vips_image_get_width(decoded), page_height = vips_image_get_height(decoded);
        if (index > 0 && options->max_pixels > 0 && (int64_t)page_width * page_height > options->max_pixels) {
            g_object_unref(decoded);
            break;
        }
        // A photo's EXIF orientation first, then the detector's.
        VipsImage *upright = NULL;
        if (vips_autorot(decoded, &upright, NULL) != 0) {
            g_object_unref(decoded);
            if (index == 0) fail(result, COCR_DECODE_FAILED, take_vips_error()); else vips_error_clear();
            break;
        }
        g_object_unref(decoded);
        double resolution = vips_image_get_xres(upright) * 25.4;  // pixels per mm → per inch
        int dpi = resolution >= 70 && resolution <= 1200 ? (int)(resolution + 0.5) : 300;
        read_page(upright, dpi, options, sink, result);
        g_object_unref(upright);
        if (result->status != COCR_OK) break;
    }
    result->page_count = pages;
}

static void recognize_pdf_page(const char *name, int page, const cocr_options *options, text_sink *sink,
                               cocr_result *result) {
    VipsImage *rendered = NULL;
    if (vips_pdfload(name, &rendered, "page", page, "dpi", (double)options->dpi, "access", VIPS_ACCESS_SEQUENTIAL,
                     NULL) != 0) {
        fail(result, COCR_DECODE_FAILED, take_vips_error());
        return;
    }
    int width = vips_image_get_width(rendered), height = vips_image_get_height(rendered);
    if (options->max_pixels > 0 && (int64_t)width * height > options->max_pixels) {
        g_object_unref(rendered);
        char *message = g_strdup_printf("page of %dx%d pixels exceeds the limit of %" G_GINT64_FORMAT " pixels",
                                        width, height, (gint64)options->max_pixels);
        fail(result, COCR_TOO_LARGE, strdup(message));
        g_free(message);
        return;
    }
    read_page(rendered, options->dpi, options, sink, result);
    g_object_unref(rendered);
    result->page_count = 1;
}

void cocr_recognize(int descriptor, int pdf_page, const cocr_options *options, cocr_result *result) {
    memset(result, 0, sizeof(*result));
    if (engine == NULL) {
        fail(result, COCR_ENGINE_FAILED, strdup("Tesseract is not started"));
        return;
    }
    char *name = g_strdup_printf("/proc/self/fd/%d", descriptor);
    text_sink sink = {.text = g_string_new(NULL), .limit = options->text_limit, .truncated = 0};
    if (pdf_page >= 0) {
        recognize_pdf_page(name, pdf_page, options, &sink, result);
    } else {
        recognize_image(descriptor, name, options, &sink, result);
    }
    if (result->status == COCR_OK) {
        result->length = sink.text->len;
        result->text = malloc(sink.text->len + 1);
        memcpy(result->text, sink.text->str, sink.text->len + 1);
        result->truncated = sink.truncated;
    }
    g_string_free(sink.text, TRUE);
    g_free(name);
}

void cocr_result_clear(cocr_result *result) {
    free(result->text);
    free(result->error);
    free(result->skipped);
    memset(result, 0, sizeof(*result));
}
