// Dot products of int8 vectors: a stored, quantized embedding against a quantized query.
#include "CEmbedding.h"
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
CE_AVX2 static void dot_many_avx2(const int8_t *q, const int8_t *v, size_t s, int d, size_t c, int32_t *o) {
    dot_many_body(q, v, s, d, c, o);
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
