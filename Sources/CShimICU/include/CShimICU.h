#ifndef CICU_H
#define CICU_H

// A small C layer over ICU for the extraction worker: charset detection, conversion to
// UTF-8 and word breaks. ICU's headers clash with Foundation's private copy of ICU when a
// Swift file imports both, so they are included only in CShimICU.c; this header uses plain C
// types. Only `searchlight-extractor` links it.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The charsets ICU's detector finds `bytes` could be in, best first: writes up to `capacity`
/// names (such as "Shift_JIS", "ISO-8859-2", "UTF-8"), each NUL-terminated in a slot of
/// `CICU_CHARSET_NAME_SIZE` bytes of `names`, and their confidences (0–100) into `confidences`.
///
/// With `without_markup` non-zero the detector leaves out what stands between `<` and `>`
/// (ICU keeps the bytes as they are when they hold few tags).
///
/// Returns how many were written, or -1 when the detector failed.
/// The corresponding ICU functions are `ucsdet_open`, `ucsdet_enableInputFilter`, `ucsdet_setText`
/// and `ucsdet_detectAll`.
int32_t cicu_detect_charsets(const char *bytes, size_t length, int without_markup, char *names, int32_t *confidences,
                             int32_t capacity);

/// The size of one name's slot in `cicu_detect_charsets`'s `names`.
#define CICU_CHARSET_NAME_SIZE 32

/// Whether ICU has a converter for the charset `name` (an IANA name or alias).
int cicu_charset_is_known(const char *name);

/// Converts `bytes` in charset `name` to UTF-8. Byte sequences invalid in that charset
/// become U+FFFD. On success `*output` is a malloc-allocated buffer (free with `free`)
/// of `*output_length` bytes (not NUL-terminated) and 0 is returned; -1 means ICU does not
/// know the charset, -2 any other failure. The corresponding ICU function is `ucnv_convert`.
int cicu_convert_to_utf8(const char *name, const char *bytes, size_t length,
                         char **output, size_t *output_length);

/// Marks word boundaries inside runs of scripts written without spaces between words
/// (Han, Hiragana, Katakana, Thai, Lao, Khmer, Myanmar) with U+200B ZERO WIDTH SPACE, using
/// ICU's dictionary-based word breaks: 東京都庁の写真 → 東京\u200B都庁\u200Bの\u200B写真.
/// Other text is copied unchanged. Returns 0 and a malloc-allocated UTF-8 buffer, or -2.
/// The corresponding ICU functions are `ubrk_open` and `ubrk_next`.
int cicu_mark_word_breaks(const char *utf8, size_t length, char **output, size_t *output_length);

#ifdef __cplusplus
}
#endif

#endif
