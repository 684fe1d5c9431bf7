#include "CShimVips.h"

#include <stdlib.h>
#include <string.h>
#include <vips/vips.h>

// Loader base classes we trust with files from disk. Blocking or unblocking a
// class applies to its subclasses (File, Buffer, Source). Debian's 8.14 marks
// the poppler PDF, rsvg SVG and libjxl loaders as untrusted, so
// `vips_block_untrusted_set(TRUE)` blocks them; we allow them again by name.
// Everything else untrusted (ImageMagick, OpenSlide, FITS, Matlab, raw, CSV,
// PPM, Radiance, Analyze, OpenEXR, JPEG 2000, vips' own format) stays blocked.
static const char *const allowed_loaders[] = {
    "VipsForeignLoadJpeg",
    "VipsForeignLoadPng",
    "VipsForeignLoadNsgif",
    "VipsForeignLoadWebp",
    "VipsForeignLoadTiff",
    "VipsForeignLoadHeif",
    "VipsForeignLoadSvg",
    "VipsForeignLoadPdf",
    "VipsForeignLoadJxl",
};

static char *take_error(void) {
    const char *buffer = vips_error_buffer();
    char *copy = g_strdup(buffer != NULL && buffer[0] != '\0' ? buffer : "unknown libvips error");
    vips_error_clear();
    // libvips ends each message with a newline; one line reads better.
    size_t length = strlen(copy);
    while (length > 0 && (copy[length - 1] == '\n' || copy[length - 1] == ' ')) {
        copy[--length] = '\0';
    }
    for (size_t i = 0; i < length; i++) {
        if (copy[i] == '\n') copy[i] = ' ';
    }
    return copy;
}

char *cvips_copy_error(void) {
    char *message = take_error();
    char *copy = strdup(message);
    g_free(message);
    return copy;
}

const char *cvips_version(void) {
    return vips_version_string();
}

int cvips_initialize(const char *program_name) {
    if (VIPS_INIT(program_name != NULL ? program_name : "searchlight-extractor") != 0) {
        return -1;
    }
    // One-shot thumbnails never hit the operation cache; it only holds memory.
    vips_cache_set_max(0);
    vips_cache_set_max_mem(0);
    vips_cache_set_max_files(0);
    // Parallelism comes from our own worker processes.
    vips_concurrency_set(1);
    vips_block_untrusted_set(TRUE);
    for (size_t i = 0; i < sizeof(allowed_loaders) / sizeof(allowed_loaders[0]); i++) {
        vips_operation_block_set(allowed_loaders[i], FALSE);
    }
    return 0;
}

static gboolean is_vector_loader(const char *loader) {
    return vips_isprefix("VipsForeignLoadPdf", loader) || vips_isprefix("VipsForeignLoadSvg", loader);
}

static gboolean is_blocked(const char *loader) {
    GType type = g_type_from_name(loader);
    if (type == 0) return FALSE;
    VipsOperationClass *class = VIPS_OPERATION_CLASS(g_type_class_ref(type));
    gboolean blocked = (class->flags & VIPS_OPERATION_BLOCKED) != 0;
    g_type_class_unref(class);
    return blocked;
}

static void fail(cvips_thumbnail_result *result, cvips_status status, char *message) {
    result->status = status;
    g_free(result->error);
    result->error = message;
}

void cvips_thumbnail_descriptor(int descriptor, int max_edge, int64_t max_pixels,
                                int quality, cvips_thumbnail_result *result) {
    cvips_thumbnail_descriptor_as(descriptor, max_edge, max_pixels, quality, ".webp", result);
}

void cvips_thumbnail_descriptor_as(int descriptor, int max_edge, int64_t max_pixels, int quality,
                                   const char *suffix, cvips_thumbnail_result *result) {
    memset(result, 0, sizeof(*result));

    // libvips opens the file again through /proc/self/fd: that name has no
    // "[options]" suffix to misparse, whatever the real name (not UTF-8, ending
    // in "]"). The file loaders are used rather than the VipsSource ones because
    // in 8.14 the PNG source loader only warns on truncated data despite "fail_on".
    char *name = g_strdup_printf("/proc/self/fd/%d", descriptor);
    VipsImage *header = NULL;
    VipsImage *thumbnail = NULL;
    VipsImage *pixels = NULL;
    void *buffer = NULL;
    size_t length = 0;

    // Returns the loader that would be used, blocked or not.
    const char *loader = vips_foreign_find_load(name);
    if (loader == NULL) {
        // libvips' text would name /proc/self/fd/N, which tells the reader nothing.
        vips_error_clear();
        fail(result, CVIPS_NOT_AN_IMAGE, g_strdup("not in a known image format"));
        goto done;
    }
    result->loader = g_strdup(loader);
    if (is_blocked(loader)) {
        fail(result, CVIPS_NOT_AN_IMAGE,
             g_strdup_printf("%s: format not allowed (untrusted loader)", loader));
        goto done;
    }

    if (!is_vector_loader(loader)) {
        // Only the header is read here: no pixel is decoded before the check.
        header = vips_image_new_from_file(name, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
        if (header == NULL) {
            fail(result, CVIPS_DECODE_FAILED, take_error());
            goto done;
        }
        int width = vips_image_get_width(header);
        int height = vips_image_get_height(header);
        result->original_width = width;
        result->original_height = height;
        if (max_pixels > 0 && (int64_t)width * (int64_t)height > max_pixels) {
            fail(result, CVIPS_TOO_LARGE,
                 g_strdup_printf("image of %dx%d pixels exceeds the limit of %" G_GINT64_FORMAT " pixels",
                                 width, height, (gint64)max_pixels));
            goto done;
        }
        g_object_unref(header);
        header = NULL;
    }

    if (vips_thumbnail(name, &thumbnail, max_edge,
                       "height", max_edge,
                       "size", VIPS_SIZE_DOWN,
                       // A truncated file fails instead of giving a half-grey picture;
                       // lesser decoder warnings (common in real photos) are tolerated.
                       "fail_on", VIPS_FAIL_ON_TRUNCATED,
                       NULL) != 0) {
        fail(result, CVIPS_DECODE_FAILED, take_error());
        goto done;
    }
    // Decode into memory first: pixel errors surface here, whereas the WebP
    // buffer writer in 8.14 can succeed on a pipeline that failed (a blank picture).
    pixels = vips_image_copy_memory(thumbnail);
    if (pixels == NULL) {
        fail(result, CVIPS_DECODE_FAILED, take_error());
        goto done;
    }
    // PNG is lossless: it takes no quality.
    int written = strcmp(suffix, ".webp") == 0
        ? vips_image_write_to_buffer(pixels, suffix, &buffer, &length, "Q", quality, "strip", TRUE, NULL)
        : vips_image_write_to_buffer(pixels, suffix, &buffer, &length, "strip", TRUE, NULL);
    if (written != 0) {
        fail(result, CVIPS_ENCODE_FAILED, take_error());
        goto done;
    }
    result->may_hold_text = cvips_may_hold_text(vips_image_get_data(pixels), vips_image_get_width(pixels),
                                                vips_image_get_height(pixels), vips_image_get_bands(pixels));
    // 16-bit and CMYK pictures are not judged: they keep their thumbnail.
    result->legible_as_icon = vips_image_get_format(pixels) != VIPS_FORMAT_UCHAR
            || vips_image_get_interpretation(pixels) == VIPS_INTERPRETATION_CMYK
        ? 1
        : cvips_legible_as_icon(vips_image_get_data(pixels), vips_image_get_width(pixels),
                                vips_image_get_height(pixels), vips_image_get_bands(pixels));
    result->status = CVIPS_OK;
    result->bytes = buffer;
    result->length = length;
    result->width = vips_image_get_width(thumbnail);
    result->height = vips_image_get_height(thumbnail);

done:
    if (header != NULL) g_object_unref(header);
    if (thumbnail != NULL) g_object_unref(thumbnail);
    if (pixels != NULL) g_object_unref(pixels);
    g_free(name);
}

void cvips_thumbnail_result_clear(cvips_thumbnail_result *result) {
    g_free(result->bytes);
    g_free(result->loader);
    g_free(result->error);
    memset(result, 0, sizeof(*result));
}

void *cvips_header_open(int descriptor, char **error) {
    *error = NULL;
    char *name = g_strdup_printf("/proc/self/fd/%d", descriptor);
    VipsImage *header = NULL;
    const char *loader = vips_foreign_find_load(name);
    if (loader == NULL) {
        vips_error_clear();
        *error = strdup("not in a known image format");
    } else if (is_blocked(loader)) {
        *error = g_strdup_printf("%s: format not allowed (untrusted loader)", loader);
    } else {
        // Only the header and metadata are read: no pixel is decoded.
        header = vips_image_new_from_file(name, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
        if (header == NULL) {
            char *message = take_error();
            *error = strdup(message);
            g_free(message);
        }
    }
    g_free(name);
    return header;
}

char *cvips_header_field(void *image, const char *field) {
    VipsImage *header = image;
    if (vips_image_get_typeof(header, field) == 0) return NULL;
    char *value = NULL;
    if (vips_image_get_as_string(header, field, &value) != 0) {
        vips_error_clear();
        return NULL;
    }
    char *copy = strdup(value);
    g_free(value);
    return copy;
}

int cvips_header_width(void *image) { return vips_image_get_width((VipsImage *)image); }

int cvips_header_height(void *image) { return vips_image_get_height((VipsImage *)image); }

void cvips_header_close(void *image) {
    if (image != NULL) g_object_unref((VipsImage *)image);
}

int cvips_may_hold_text(const unsigned char *pixels, int width, int height, int bands) {
    if (pixels == NULL || width <= 0 || height <= 0 || bands <= 0) return 0;
    size_t count = (size_t)width * (size_t)height;
    size_t histogram[256] = {0};
    for (size_t i = 0; i < count; i++) histogram[pixels[i * (size_t)bands]]++;
    // The background: the most common 25-level band of grey.
    size_t window = 0, best = 0;
    int best_start = 0;
    for (int level = 0; level < 256; level++) {
        window += histogram[level];
        if (level >= 25) window -= histogram[level - 25];
        if (window > best) {
            best = window;
            best_start = level - 24 < 0 ? 0 : level - 24;
        }
    }
    int background = best_start + 12;
    // Marks: pixels far from the background (ink on paper, text on a screen).
    size_t marks = 0;
    for (int level = 0; level < 256; level++) {
        if (level < background - 60 || level > background + 60) marks += histogram[level];
    }
    double background_share = (double)best / (double)count;
    double mark_share = (double)marks / (double)count;
    return background_share >= 0.30 && mark_share >= 0.002 && mark_share <= 0.6;
}

/// The lightness (0–255) of one pixel, transparency seen against white.
static double lightness(const unsigned char *pixel, int bands) {
    double value = bands >= 3 ? 0.299 * pixel[0] + 0.587 * pixel[1] + 0.114 * pixel[2] : pixel[0];
    if (bands == 2 || bands == 4) {
        double alpha = pixel[bands - 1] / 255.0;
        value = value * alpha + 255.0 * (1.0 - alpha);
    }
    return value;
}

int cvips_legible_as_icon(const unsigned char *pixels, int width, int height, int bands) {
    if (pixels == NULL || width <= 0 || height <= 0 || bands <= 0 || bands > 4) return 0;
    int longest = width > height ? width : height;
    int cells_x = width * CVIPS_ICON_EDGE / longest, cells_y = height * CVIPS_ICON_EDGE / longest;
    if (longest <= CVIPS_ICON_EDGE) { cells_x = width; cells_y = height; }
    if (cells_x < 1) cells_x = 1;
    if (cells_y < 1) cells_y = 1;
    // Box averages: each cell of the icon-sized grid is the mean of the pixels it covers.
    double sum = 0, squares = 0;
    for (int cy = 0; cy < cells_y; cy++) {
        int y0 = (int)((int64_t)cy * height / cells_y), y1 = (int)((int64_t)(cy + 1) * height / cells_y);
        if (y1 <= y0) y1 = y0 + 1;
        for (int cx = 0; cx < cells_x; cx++) {
            int x0 = (int)((int64_t)cx * width / cells_x), x1 = (int)((int64_t)(cx + 1) * width / cells_x);
            if (x1 <= x0) x1 = x0 + 1;
            double cell = 0;
            for (int y = y0; y < y1; y++) {
                const unsigned char *row = pixels + ((size_t)y * (size_t)width) * (size_t)bands;
                for (int x = x0; x < x1; x++) cell += lightness(row + (size_t)x * (size_t)bands, bands);
            }
            cell /= (double)(y1 - y0) * (double)(x1 - x0);
            sum += cell;
            squares += cell * cell;
        }
    }
    double count = (double)cells_x * (double)cells_y;
    double mean = sum / count;
    double variance = squares / count - mean * mean;
    return variance >= (double)CVIPS_ICON_MIN_DEVIATION * CVIPS_ICON_MIN_DEVIATION;
}
