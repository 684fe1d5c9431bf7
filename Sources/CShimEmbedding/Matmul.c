// Products of float activations with 4-bit weight matrices: each group of weight rows is
// expanded to floats once and multiplied with a block of tokens, so that both stay in cache.
#include <stdlib.h>
#include "CShimEmbedding.h"
#include "Internal.h"

#if CE_X86
#include <immintrin.h>
#endif

/// Tokens multiplied with one expanded group of rows before the next group is expanded.
#define TOKEN_BLOCK 64
/// Weight rows expanded together (the AVX2 kernel keeps 3 rows × 4 tokens of sums in registers).
#define ROW_GROUP 3

static void dequantize_portable(const uint8_t *row, int count, float *out) {
    for (int block = 0; block < count / CE_Q4_BLOCK_WEIGHTS; block++) {
        const uint8_t *b = row + (size_t)block * CE_Q4_BLOCK_BYTES;
        float scale = ce_half_to_float((uint16_t)(b[0] | (b[1] << 8)));
        float *o = out + block * CE_Q4_BLOCK_WEIGHTS;
        for (int j = 0; j < 16; j++) {
            o[j] = (float)((int)(b[2 + j] & 0x0f) - 8) * scale;
            o[j + 16] = (float)((int)(b[2 + j] >> 4) - 8) * scale;
        }
    }
}

static void matmul_portable(const uint8_t *weights, const float *bias, const float *x, float *y,
                            int tokens, int outputs, int inputs, float *rows) {
    size_t row_bytes = (size_t)(inputs / CE_Q4_BLOCK_WEIGHTS) * CE_Q4_BLOCK_BYTES;
    for (int t0 = 0; t0 < tokens; t0 += TOKEN_BLOCK) {
        int t1 = t0 + TOKEN_BLOCK < tokens ? t0 + TOKEN_BLOCK : tokens;
        for (int o = 0; o < outputs; o++) {
            dequantize_portable(weights + (size_t)o * row_bytes, inputs, rows);
            float b = bias ? bias[o] : 0.f;
            for (int t = t0; t < t1; t++) {
                const float *xt = x + (size_t)t * inputs;
                float sum = 0.f;
                for (int i = 0; i < inputs; i++) sum += xt[i] * rows[i];
                y[(size_t)t * outputs + o] = b + sum;
            }
        }
    }
}

#if CE_X86
CE_AVX2 static inline float sum8(__m256 v) {
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_movehdup_ps(s));
    return _mm_cvtss_f32(s);
}

CE_AVX2 static void dequantize_avx2(const uint8_t *row, int count, float *out) {
    const __m128i low_mask = _mm_set1_epi8(0x0f);
    for (int block = 0; block < count / CE_Q4_BLOCK_WEIGHTS; block++) {
        const uint8_t *b = row + (size_t)block * CE_Q4_BLOCK_BYTES;
        float scale = ce_half_to_float((uint16_t)(b[0] | (b[1] << 8)));
        __m256 d = _mm256_set1_ps(scale), offset = _mm256_set1_ps(-8.f * scale);
        __m128i packed = _mm_loadu_si128((const __m128i *)(b + 2));
        __m128i low = _mm_and_si128(packed, low_mask);
        __m128i high = _mm_and_si128(_mm_srli_epi16(packed, 4), low_mask);
        float *o = out + block * CE_Q4_BLOCK_WEIGHTS;
        __m128i parts[4] = {low, _mm_srli_si128(low, 8), high, _mm_srli_si128(high, 8)};
        for (int p = 0; p < 4; p++) {
            __m256 q = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(parts[p]));
            _mm256_storeu_ps(o + 8 * p, _mm256_fmadd_ps(q, d, offset));
        }
    }
}

/// Sums of `n` (1…4, a constant where it is inlined) tokens × 3 rows: the three rows' floats are
/// loaded once for all the tokens.
CE_AVX2 static inline __attribute__((always_inline)) void kernel_nx3(const float *x, int inputs, const float *rows,
                                                                      int n, float sums[4][3]) {
    __m256 acc[4][3];
    for (int t = 0; t < n; t++)
        for (int r = 0; r < 3; r++) acc[t][r] = _mm256_setzero_ps();
    const float *w0 = rows, *w1 = rows + inputs, *w2 = rows + 2 * inputs;
    for (int i = 0; i < inputs; i += 8) {
        __m256 a = _mm256_loadu_ps(w0 + i), b = _mm256_loadu_ps(w1 + i), c = _mm256_loadu_ps(w2 + i);
        for (int t = 0; t < n; t++) {
            __m256 xv = _mm256_loadu_ps(x + (size_t)t * inputs + i);
            acc[t][0] = _mm256_fmadd_ps(xv, a, acc[t][0]);
            acc[t][1] = _mm256_fmadd_ps(xv, b, acc[t][1]);
            acc[t][2] = _mm256_fmadd_ps(xv, c, acc[t][2]);
        }
    }
    for (int t = 0; t < n; t++)
        for (int r = 0; r < 3; r++) sums[t][r] = sum8(acc[t][r]);
}

CE_AVX2 static void kernel_4x3(const float *x, int inputs, const float *rows, float sums[4][3]) {
    kernel_nx3(x, inputs, rows, 4, sums);
}
CE_AVX2 static void kernel_3x3(const float *x, int inputs, const float *rows, float sums[4][3]) {
    kernel_nx3(x, inputs, rows, 3, sums);
}
CE_AVX2 static void kernel_2x3(const float *x, int inputs, const float *rows, float sums[4][3]) {
    kernel_nx3(x, inputs, rows, 2, sums);
}
CE_AVX2 static void kernel_1x3(const float *x, int inputs, const float *rows, float sums[4][3]) {
    kernel_nx3(x, inputs, rows, 1, sums);
}

CE_AVX2 static void matmul_avx2(const uint8_t *weights, const float *bias, const float *x, float *y,
                                int tokens, int outputs, int inputs, float *rows) {
    size_t row_bytes = (size_t)(inputs / CE_Q4_BLOCK_WEIGHTS) * CE_Q4_BLOCK_BYTES;
    for (int t0 = 0; t0 < tokens; t0 += TOKEN_BLOCK) {
        int t1 = t0 + TOKEN_BLOCK < tokens ? t0 + TOKEN_BLOCK : tokens;
        for (int o = 0; o < outputs; o += ROW_GROUP) {
            int group = outputs - o < ROW_GROUP ? outputs - o : ROW_GROUP;
            for (int r = 0; r < ROW_GROUP; r++) {
                if (r < group) dequantize_avx2(weights + (size_t)(o + r) * row_bytes, inputs, rows + (size_t)r * inputs);
                else memset(rows + (size_t)r * inputs, 0, sizeof(float) * (size_t)inputs);
            }
            float b[ROW_GROUP];
            for (int r = 0; r < ROW_GROUP; r++) b[r] = (bias && r < group) ? bias[o + r] : 0.f;
            for (int t = t0; t < t1; t += 4) {
                int n = t1 - t < 4 ? t1 - t : 4;
                float sums[4][3];
                const float *xt = x + (size_t)t * inputs;
                switch (n) {
                case 4: kernel_4x3(xt, inputs, rows, sums); break;
                case 3: kernel_3x3(xt, inputs, rows, sums); break;
                case 2: kernel_2x3(xt, inputs, rows, sums); break;
                default: kernel_1x3(xt, inputs, rows, sums); break;
                }
                for (int u = 0; u < n; u++)
                    for (int r = 0; r < group; r++) y[(size_t)(t + u) * outputs + o + r] = b[r] + sums[u][r];
            }
        }
    }
}
#endif

void ce_q4_dequantize(const uint8_t *row, int count, float *out) {
#if CE_X86
    if (ce_uses_avx2()) { dequantize_avx2(row, count, out); return; }
#endif
    dequantize_portable(row, count, out);
}

void ce_q4_matmul(const uint8_t *weights, const float *bias, const float *x, float *y,
                  int tokens, int outputs, int inputs) {
    if (tokens <= 0 || outputs <= 0 || inputs <= 0) return;
    float *rows = (float *)malloc(sizeof(float) * (size_t)ROW_GROUP * (size_t)inputs);
    if (!rows) abort();
#if CE_X86
    if (ce_uses_avx2() && inputs % 8 == 0) {
        matmul_avx2(weights, bias, x, y, tokens, outputs, inputs, rows);
        free(rows);
        return;
    }
#endif
    matmul_portable(weights, bias, x, y, tokens, outputs, inputs, rows);
    free(rows);
}
