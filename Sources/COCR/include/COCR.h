#ifndef COCR_H
#define COCR_H

// Text in pictures for the extraction worker: Tesseract's C API over pixels that libvips
// decodes (images) or renders (PDF pages without a text layer, found with poppler).
//
// Tesseract, libvips and poppler headers stay in COCR.c; only `searchlight-extractor` links
// this target.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Outcome codes of `cocr_recognize`.
typedef enum {
    COCR_OK = 0,
    /// No allowed loader recognises the bytes.
    COCR_NOT_AN_IMAGE = 1,
    /// The header claims more pixels than the limit.
    COCR_TOO_LARGE = 2,
    /// Decoding or rendering failed (corrupt, truncated).
    COCR_DECODE_FAILED = 3,
    /// Tesseract could not start (a missing language) or failed.
    COCR_ENGINE_FAILED = 4,
} cocr_status;

/// How one file is read.
typedef struct {
    /// Raster images with more pixels than this are refused before decoding.
    int64_t max_pixels;
    /// Images whose shorter side is below this, or longer side below `min_long_side`, are skipped (icons).
    int min_short_side;
    int min_long_side;
    /// Words whose confidence (0–100) is below this are left out.
    int min_confidence;
    /// Milliseconds Tesseract may spend on one page (0: no limit).
    int page_deadline_ms;
    /// Pages of a PDF read at most.
    int page_limit;
    /// Resolution PDF pages are rendered at.
    int dpi;
    /// At most this many bytes of text.
    size_t text_limit;
    /// Skip an image the quick look finds unlikely to hold text (a photo).
    int prefilter;
} cocr_options;

/// What was read. Release with `cocr_result_clear`.
typedef struct {
    cocr_status status;
    /// UTF-8 text of the kept words, lines separated by '\n', pages by a blank line (malloc), or NULL.
    char *text;
    size_t length;
    int truncated;
    /// Words kept and words dropped for a low confidence.
    int words_kept;
    int words_dropped;
    /// Pages read with OCR (1 for an image), pages of the document.
    int pages_read;
    int page_count;
    /// Pages whose orientation was corrected.
    int pages_rotated;
    /// Pages stopped at the page deadline.
    int pages_timed_out;
    /// Why nothing was read although the file was fine ("too small", "no text expected", "has a text layer"), or NULL.
    char *skipped;
    /// Original size of an image, 0 when unknown.
    int width;
    int height;
    /// The error on failure (malloc), else NULL.
    char *error;
} cocr_result;

/// Starts Tesseract for `languages` ("eng", "eng+deu") from `datapath` (NULL: Tesseract's
/// default), and the orientation detector when `osd.traineddata` is there. Returns 0, or -1
/// with `*error` set (malloc) — a missing language's traineddata, say.
int cocr_initialize(const char *datapath, const char *languages, char **error);

/// Reads the text of the image or PDF readable from `descriptor` (`is_pdf`: the file is a PDF).
void cocr_recognize(int descriptor, int is_pdf, const cocr_options *options, cocr_result *result);

/// Frees what `result` owns and zeroes it.
void cocr_result_clear(cocr_result *result);

#ifdef __cplusplus
}
#endif

#endif
