#ifndef CVIPS_H
#define CVIPS_H

// A small, non-variadic C layer over libvips for the extraction worker.
//
// Swift cannot call C functions declared with `...` (vips_thumbnail_source,
// vips_image_write_to_buffer, ...), so this target does those calls and hands
// back plain structs. Only `searchlight-extractor` links it.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Outcome codes of `cvips_thumbnail_descriptor`.
typedef enum {
    CVIPS_OK = 0,
    /// No allowed loader recognises the bytes (not an image, or a blocked format).
    CVIPS_NOT_AN_IMAGE = 1,
    /// The header claims more pixels than the limit: a possible decompression bomb.
    CVIPS_TOO_LARGE = 2,
    /// A loader recognised the file but decoding failed (corrupt or truncated data).
    CVIPS_DECODE_FAILED = 3,
    /// Encoding the thumbnail failed.
    CVIPS_ENCODE_FAILED = 4,
} cvips_status;

/// The result of one thumbnail. Release with `cvips_thumbnail_result_clear`.
typedef struct {
    cvips_status status;
    /// Encoded thumbnail (WebP), allocated by GLib; NULL on failure.
    unsigned char *bytes;
    size_t length;
    /// Size of the thumbnail in pixels.
    int width;
    int height;
    /// Size of the original image in pixels, 0 when unknown (vector formats: PDF, SVG).
    int original_width;
    int original_height;
    /// The loader's class name (for example "VipsForeignLoadJpegSource"), or NULL.
    char *loader;
    /// libvips' error text on failure (GLib-allocated), else NULL.
    char *error;
    /// Whether the picture looks like it may hold text (``cvips_may_hold_text`` on the
    /// thumbnail's pixels): what decides whether an image waits for OCR.
    int may_hold_text;
    /// Whether the picture still reads at an icon's size (``cvips_legible_as_icon``): a
    /// photo or a slide does, a page of text or a blank page does not.
    int legible_as_icon;
} cvips_thumbnail_result;

/// Starts libvips once for this process: operation cache off, one thread per
/// image, untrusted loaders blocked and the mainstream loaders (JPEG, PNG, GIF,
/// WebP, TIFF, HEIF/AVIF, SVG, PDF, JPEG XL) explicitly allowed again.
///
/// Returns 0 on success, -1 on failure (then `cvips_copy_error` tells why).
int cvips_initialize(const char *program_name);

/// Thumbnails the image readable from `descriptor` (a regular file, positioned
/// anywhere: it is read from its start) so that its longest edge is at most
/// `max_edge` pixels (never upscaled), and encodes it as WebP with quality
/// `quality` and metadata stripped.
///
/// Raster images whose header claims more than `max_pixels` pixels are refused
/// with `CVIPS_TOO_LARGE` before any pixel is decoded. Vector formats (PDF, SVG)
/// are rendered at the thumbnail's scale, so the limit does not apply to them.
///
/// The descriptor is not closed. Always call `cvips_thumbnail_result_clear`.
void cvips_thumbnail_descriptor(int descriptor, int max_edge, int64_t max_pixels,
                                int quality, cvips_thumbnail_result *result);

/// `cvips_thumbnail_descriptor` encoded by the saver of `suffix` (".webp" or ".png"; the
/// quality applies to WebP only).
void cvips_thumbnail_descriptor_as(int descriptor, int max_edge, int64_t max_pixels, int quality,
                                   const char *suffix, cvips_thumbnail_result *result);

/// Frees what `result` owns and zeroes it.
void cvips_thumbnail_result_clear(cvips_thumbnail_result *result);

/// A malloc-allocated copy of libvips' error buffer (free with `free`), and
/// clears the buffer.
char *cvips_copy_error(void);

/// Opens the image readable from `descriptor` for its header and metadata only (no pixel is
/// decoded), with the same allowed loaders as thumbnails. Returns an opaque handle to pass to
/// the `cvips_header_*` functions and `cvips_header_close`, or NULL with `*error` set to a
/// malloc-allocated line (free with `free`).
void *cvips_header_open(int descriptor, char **error);

/// A metadata field as libvips prints it (for EXIF: "raw (human, type, …)"), malloc-allocated
/// (free with `free`), or NULL when the image has no such field.
char *cvips_header_field(void *image, const char *field);

/// The image's size in pixels (after no rotation).
int cvips_header_width(void *image);
int cvips_header_height(void *image);

/// Releases a handle from `cvips_header_open` (NULL is fine).
void cvips_header_close(void *image);

/// Whether a small picture (`pixels`, `width`×`height`, `bands` bytes a pixel, the first
/// band read as grey) looks like it may hold text: a dominant flat background (paper, a
/// screen) covering a good part of it, with dark-on-light or light-on-dark marks on it. A
/// photo of a landscape or a face has no such background and is not read by OCR. Costs one
/// pass over the pixels.
int cvips_may_hold_text(const unsigned char *pixels, int width, int height, int bands);

/// Whether 8-bit `pixels` (1 to 4 bands: grey, grey + alpha, RGB, RGBA; transparency seen
/// against white) still show something at an icon's size: the picture is averaged down to
/// at most `CVIPS_ICON_EDGE` pixels a side, and it is legible when its lightness varies
/// enough there (standard deviation of at least `CVIPS_ICON_MIN_DEVIATION` levels of 255).
/// A page of text becomes an even pale grey at that size (about 3–7 levels), a screenshot of
/// a window about 12, a diagram about 28, a photo 40 and more.
int cvips_legible_as_icon(const unsigned char *pixels, int width, int height, int bands);

enum { CVIPS_ICON_EDGE = 32, CVIPS_ICON_MIN_DEVIATION = 16 };

/// libvips' version as "major.minor.micro" (static storage).
const char *cvips_version(void);

#ifdef __cplusplus
}
#endif

#endif
