#ifndef COCR_H
#define COCR_H

// Text in pictures for the extraction worker: Tesseract's C API over pixels that libvips
// decodes (images) or renders (one PDF page; the worker's Swift side decides which pages
// have no text layer of their own, with poppler).
//
// Tesseract and libvips headers stay in CShimTesseract.c; only `searchlight-extractor` links this target.

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
    /// Pages of a multi-page image (TIFF) read at most; 1 for other formats (a GIF's frames are no pages).
    int max_image_pages;
    /// Resolution PDF pages are rendered at.
    int dpi;
    /// At most this many bytes of text.
    size_t text_limit;
    /// Skip an image the quick look finds unlikely to hold text (a photo).
    int prefilter;
    /// The installed languages of other scripts than the configured ones, by Tesseract's
    /// script name: "Greek:ell,Cyrillic:rus+ukr" (NULL or "": none). A page the configured
    /// languages read poorly and the script detector finds in one of these scripts is read
    /// again with its languages.
    const char *script_languages;
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
    /// Pages read (0 when skipped), pages of the file (a multi-page TIFF has several; a PDF page is 1).
    int pages_read;
    int page_count;
    /// Pages whose orientation was corrected.
    int pages_rotated;
    /// Pages read with the languages of another script (`script_languages`).
    int pages_in_other_script;
    /// Pages stopped at the page deadline.
    int pages_timed_out;
    /// Why nothing was read although the file was fine ("too small", "no text expected"), or NULL.
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

/// Reads the text of the image readable from `descriptor` (`pdf_page` < 0), or of the page
/// `pdf_page` (from 0) of the PDF readable from it, rendered at `dpi`.
void cocr_recognize(int descriptor, int pdf_page, const cocr_options *options, cocr_result *result);

/// Frees what `result` owns and zeroes it.
void cocr_result_clear(cocr_result *result);

#ifdef __cplusplus
}
#endif

#endif
