// Dot products of int8 vectors: a stored, quantized embedding against a quantized query.
#include "CShimEmbedding.h"
#include "Internal.h"

CE_BODY int32_t dot_body(const int8_t *a, const int8_t *b, int count) {
    int32_t sum = 0;
    for (int i = 0; i < count; i++) sum += (int32_t)a[i] * (int32_t)b[i];
    return sum;
}

CE_BODY void dot_many_body(const int8_t *query, const int8_t *vectors, size_t stride, int dimensions,
                           size_t count, int32_t *out) {
    for (size_t i = 0; i < count; i++) out[i] = dot_body(query, vectors + i * stride, dimensions);
}

static void dot_many_portable(const int8_t *q, const int8_t *v, size_t s, int d, size_t c, int32_t *o) {
    dot_many_body(q, v, s, d, c, o);
}

#if CE_X86
#include <immintrin.h>

// 32 products at a time: |q| (unsigned) times v with q's sign (`vpsignb`), pairs summed to
// 16 bits (`vpmaddubsw`: at most 2 × 128 × 127, no saturation while v is never -128, which
// quantization never writes), then to 32 bits (`vpmaddwd`). The compiler's own loop widened
// every byte to 16 bits first: a search of 100 000 chunks spent 1.5 times as long here.
CE_AVX2 static void dot_many_avx2(const int8_t *q, const int8_t *v, size_t s, int d, size_t c, int32_t *o) {
    const __m256i ones = _mm256_set1_epi16(1);
    int whole = d - d % 32;
    for (size_t i = 0; i < c; i++) {
        const int8_t *b = v + i * s;
        __m256i sum = _mm256_setzero_si256();
        for (int k = 0; k < whole; k += 32) {
            __m256i x = _mm256_loadu_si256((const __m256i *)(q + k));
            __m256i y = _mm256_loadu_si256((const __m256i *)(b + k));
            __m256i pairs = _mm256_maddubs_epi16(_mm256_abs_epi8(x), _mm256_sign_epi8(y, x));
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(pairs, ones));
        }
        __m128i t = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
        t = _mm_add_epi32(t, _mm_shuffle_epi32(t, 0x4E));
        t = _mm_add_epi32(t, _mm_shuffle_epi32(t, 0xB1));
        o[i] = _mm_cvtsi128_si32(t) + dot_body(q + whole, b + whole, d - whole);
    }
}
#endif

int32_t ce_dot_i8(const int8_t *a, const int8_t *b, int count) {
    int32_t result;
    ce_dot_i8_many(a, b, 0, count, 1, &result);
    return result;
}

void ce_dot_i8_many(const int8_t *query, const int8_t *vectors, size_t stride, int dimensions,
                    size_t count, int32_t *out) {
#if CE_X86
    if (ce_uses_avx2()) { dot_many_avx2(query, vectors, stride, dimensions, count, out); return; }
#endif
    dot_many_portable(query, vectors, stride, dimensions, count, out);
}
