#include "CShimICU.h"

#include <stdlib.h>
#include <string.h>
#include <unicode/ubrk.h>
#include <unicode/ucnv.h>
#include <unicode/ucsdet.h>
#include <unicode/uchar.h>
#include <unicode/uscript.h>
#include <unicode/ustring.h>
#include <unicode/utf16.h>

int32_t cicu_detect_charsets(const char *bytes, size_t length, int without_markup, char *names, int32_t *confidences,
                             int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    UCharsetDetector *detector = ucsdet_open(&status);
    if (U_FAILURE(status)) return -1;
    // The detector looks at a sample; a few tens of kilobytes are plenty.
    int32_t sample = length > (64 << 10) ? (64 << 10) : (int32_t)length;
    ucsdet_enableInputFilter(detector, without_markup ? 1 : 0);
    ucsdet_setText(detector, bytes, sample, &status);
    int32_t found = 0, written = 0;
    const UCharsetMatch **matches = U_SUCCESS(status) ? ucsdet_detectAll(detector, &found, &status) : NULL;
    for (int32_t index = 0; U_SUCCESS(status) && matches != NULL && index < found && written < capacity; index++) {
        const char *name = ucsdet_getName(matches[index], &status);
        int32_t confidence = ucsdet_getConfidence(matches[index], &status);
        if (U_FAILURE(status) || name == NULL) break;
        char *slot = names + (size_t)written * CICU_CHARSET_NAME_SIZE;
        strncpy(slot, name, CICU_CHARSET_NAME_SIZE - 1);
        slot[CICU_CHARSET_NAME_SIZE - 1] = '\0';
        confidences[written++] = confidence;
    }
    ucsdet_close(detector);
    return U_FAILURE(status) && written == 0 ? -1 : written;
}

int cicu_charset_is_known(const char *name) {
    UErrorCode status = U_ZERO_ERROR;
    UConverter *converter = ucnv_open(name, &status);
    if (U_FAILURE(status) || converter == NULL) return 0;
    ucnv_close(converter);
    return 1;
}

int cicu_convert_to_utf8(const char *name, const char *bytes, size_t length,
                         char **output, size_t *output_length) {
    *output = NULL;
    *output_length = 0;
    if (length > INT32_MAX / 4) return -2;
    UErrorCode status = U_ZERO_ERROR;
    UConverter *source = ucnv_open(name, &status);
    if (U_FAILURE(status)) return -1;
    UConverter *target = ucnv_open("UTF-8", &status);
    if (U_FAILURE(status)) {
        ucnv_close(source);
        return -2;
    }
    // A byte becomes at most 3 UTF-8 bytes (U+FFFD or a BMP character); 4-byte
    // characters come from at least 2 input bytes.
    int32_t capacity = (int32_t)length * 3 + 16;
    char *buffer = malloc((size_t)capacity);
    if (buffer == NULL) {
        ucnv_close(source);
        ucnv_close(target);
        return -2;
    }
    char *write = buffer;
    const char *read = bytes;
    ucnv_convertEx(target, source, &write, buffer + capacity, &read, bytes + length,
                   NULL, NULL, NULL, NULL, 1, 1, &status);
    ucnv_close(source);
    ucnv_close(target);
    if (U_FAILURE(status)) {
        free(buffer);
        return -2;
    }
    *output = buffer;
    *output_length = (size_t)(write - buffer);
    return 0;
}

/// Scripts whose words are not separated by spaces, so that a word index needs ICU's
/// dictionary breaks to find them.
static int is_unspaced_script(UChar32 c) {
    UErrorCode status = U_ZERO_ERROR;
    UScriptCode script = uscript_getScript(c, &status);
    if (U_FAILURE(status)) return 0;
    switch (script) {
    case USCRIPT_HAN:
    case USCRIPT_HIRAGANA:
    case USCRIPT_KATAKANA:
    case USCRIPT_THAI:
    case USCRIPT_LAO:
    case USCRIPT_KHMER:
    case USCRIPT_MYANMAR:
        return 1;
    default:
        return 0;
    }
}

static int is_word_character(UChar32 c) {
    return u_isalnum(c) || u_charType(c) == U_NON_SPACING_MARK || u_charType(c) == U_COMBINING_SPACING_MARK
        || u_charType(c) == U_MODIFIER_LETTER;
}

int cicu_mark_word_breaks(const char *utf8, size_t length, char **output, size_t *output_length) {
    *output = NULL;
    *output_length = 0;
    if (length > INT32_MAX / 4) return -2;
    UErrorCode status = U_ZERO_ERROR;
    int32_t units = 0;
    u_strFromUTF8WithSub(NULL, 0, &units, utf8, (int32_t)length, 0xFFFD, NULL, &status);
    if (status != U_BUFFER_OVERFLOW_ERROR && U_FAILURE(status)) return -2;
    status = U_ZERO_ERROR;
    UChar *text = malloc(sizeof(UChar) * ((size_t)units + 1));
    // At most one mark per character.
    UChar *marked = malloc(sizeof(UChar) * ((size_t)units * 2 + 1));
    char *result = NULL;
    UBreakIterator *breaks = NULL;
    int code = -2;
    if (text == NULL || marked == NULL) goto done;
    u_strFromUTF8WithSub(text, units + 1, NULL, utf8, (int32_t)length, 0xFFFD, NULL, &status);
    if (U_FAILURE(status)) goto done;
    breaks = ubrk_open(UBRK_WORD, "", text, units, &status);
    if (U_FAILURE(status)) goto done;

    int32_t written = 0;
    int32_t copied = 0;
    for (int32_t boundary = ubrk_next(breaks); boundary != UBRK_DONE && boundary < units;
         boundary = ubrk_next(breaks)) {
        if (boundary <= 0) continue;
        UChar32 before, after;
        int32_t index = boundary;
        U16_PREV(text, 0, index, before);
        index = boundary;
        U16_NEXT(text, index, units, after);
        if (!is_word_character(before) || !is_word_character(after)) continue;
        if (!is_unspaced_script(before) && !is_unspaced_script(after)) continue;
        memcpy(marked + written, text + copied, sizeof(UChar) * (size_t)(boundary - copied));
        written += boundary - copied;
        copied = boundary;
        marked[written++] = 0x200B;
    }
    memcpy(marked + written, text + copied, sizeof(UChar) * (size_t)(units - copied));
    written += units - copied;

    int32_t bytes = 0;
    u_strToUTF8(NULL, 0, &bytes, marked, written, &status);
    if (status != U_BUFFER_OVERFLOW_ERROR && U_FAILURE(status)) goto done;
    status = U_ZERO_ERROR;
    result = malloc((size_t)bytes + 1);
    if (result == NULL) goto done;
    u_strToUTF8(result, bytes + 1, NULL, marked, written, &status);
    if (U_FAILURE(status)) {
        free(result);
        result = NULL;
        goto done;
    }
    *output = result;
    *output_length = (size_t)bytes;
    code = 0;

done:
    if (breaks != NULL) ubrk_close(breaks);
    free(text);
    free(marked);
    return code;
}
