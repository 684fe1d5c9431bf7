// The element-wise and attention steps of the encoder. Each body is written as plain loops the
// compiler vectorizes, inlined once into a portable function and once into an AVX2 one.
#include <math.h>
#include <stdlib.h>
#include "CShimEmbedding.h"
#include "Internal.h"

/// e^x for x ≤ 0 (and moderately above): x = n·ln 2 + r with |r| ≤ ln2/2, e^r by the
/// degree-6 polynomial of Cephes' expf, then 2^n put into the exponent. No libm call, so loops
/// over it vectorize.
CE_BODY float fast_exp(float x) {
    x = x < -87.f ? -87.f : (x > 88.f ? 88.f : x);
    float n = floorf(x * 1.44269504088896341f + 0.5f);
    float r = x - n * 0.693359375f + n * 2.12194440e-4f;
    float p = 1.9875691500e-4f;
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    float e = p * r * r + r + 1.f;
    int32_t bits = ((int32_t)n + 127) << 23;
    float scale;
    memcpy(&scale, &bits, 4);
    return e * scale;
}

/// GELU(x) = x/2 · (1 + erf(x/√2)), erf by Abramowitz and Stegun 7.1.26 (error < 1.5e-7).
CE_BODY float gelu(float x) {
    float z = x * 0.70710678118654752f;
    float a = fabsf(z);
    float t = 1.f / (1.f + 0.3275911f * a);
    float poly = t * (0.254829592f + t * (-0.284496736f + t * (1.421413741f + t * (-1.453152027f + t * 1.061405429f))));
    float erf_abs = 1.f - poly * fast_exp(-a * a);
    float erf = z < 0.f ? -erf_abs : erf_abs;
    return 0.5f * x * (1.f + erf);
}

CE_BODY void gelu_body(float *x, size_t count) {
    for (size_t i = 0; i < count; i++) x[i] = gelu(x[i]);
}

CE_BODY void layer_norm_body(float *x, const float *residual, const float *gamma, const float *beta,
                             int tokens, int width, float epsilon) {
    for (int t = 0; t < tokens; t++) {
        float *row = x + (size_t)t * width;
        if (residual) {
            const float *add = residual + (size_t)t * width;
            for (int i = 0; i < width; i++) row[i] += add[i];
        }
        float mean = 0.f;
        for (int i = 0; i < width; i++) mean += row[i];
        mean /= (float)width;
        float variance = 0.f;
        for (int i = 0; i < width; i++) variance += (row[i] - mean) * (row[i] - mean);
        variance /= (float)width;
        float inverse = 1.f / sqrtf(variance + epsilon);
        for (int i = 0; i < width; i++) row[i] = (row[i] - mean) * inverse * gamma[i] + beta[i];
    }
}

/// One head at a time: its keys transposed (`keys[e][s]`), so that a query's scores against all
/// tokens and its weighted sum of values are both loops over contiguous floats.
CE_BODY void attention_body(const float *q, const float *k, const float *v, float *context,
                            int tokens, int heads, int head_width, float *keys, float *scores) {
    int width = heads * head_width;
    float scale = 1.f / sqrtf((float)head_width);
    for (int h = 0; h < heads; h++) {
        for (int s = 0; s < tokens; s++)
            for (int e = 0; e < head_width; e++)
                keys[(size_t)e * tokens + s] = k[(size_t)s * width + h * head_width + e];
        for (int t = 0; t < tokens; t++) {
            const float *query = q + (size_t)t * width + h * head_width;
            // 32 scores at a time kept in registers across the head's dimensions.
            int blocks = tokens / 32 * 32;
            for (int s0 = 0; s0 < blocks; s0 += 32) {
                float acc[32] = {0};
                for (int e = 0; e < head_width; e++) {
                    float qe = query[e] * scale;
                    const float *column = keys + (size_t)e * tokens + s0;
                    for (int l = 0; l < 32; l++) acc[l] += qe * column[l];
                }
                for (int l = 0; l < 32; l++) scores[s0 + l] = acc[l];
            }
            for (int s = blocks; s < tokens; s++) {
                float sum = 0.f;
                for (int e = 0; e < head_width; e++) sum += query[e] * scale * keys[(size_t)e * tokens + s];
                scores[s] = sum;
            }
            // Reductions in 8 lanes, and the exponentials in a loop of their own: without
            // -ffast-math a float reduction inside the loop would keep it scalar.
            float lanes[8];
            for (int l = 0; l < 8; l++) lanes[l] = scores[0];
            int whole = tokens / 8 * 8;
            for (int s = 0; s < whole; s += 8)
                for (int l = 0; l < 8; l++) lanes[l] = scores[s + l] > lanes[l] ? scores[s + l] : lanes[l];
            float largest = lanes[0];
            for (int l = 1; l < 8; l++) largest = lanes[l] > largest ? lanes[l] : largest;
            for (int s = whole; s < tokens; s++) largest = scores[s] > largest ? scores[s] : largest;
            for (int s = 0; s < tokens; s++) scores[s] = fast_exp(scores[s] - largest);
            for (int l = 0; l < 8; l++) lanes[l] = 0.f;
            for (int s = 0; s < whole; s += 8)
                for (int l = 0; l < 8; l++) lanes[l] += scores[s + l];
            float total = 0.f;
            for (int l = 0; l < 8; l++) total += lanes[l];
            for (int s = whole; s < tokens; s++) total += scores[s];
            float inverse = 1.f / total;
            // The weighted sum in a local array (the compiler keeps it in registers when
            // head_width is the constant 32), stored once.
            float sum[64] = {0};
            for (int s = 0; s < tokens; s++) {
                float p = scores[s] * inverse;
                const float *value = v + (size_t)s * width + h * head_width;
                for (int e = 0; e < head_width; e++) sum[e] += p * value[e];
            }
            float *out = context + (size_t)t * width + h * head_width;
            for (int e = 0; e < head_width; e++) out[e] = sum[e];
        }
    }
}

static void gelu_portable(float *x, size_t count) { gelu_body(x, count); }
static void layer_norm_portable(float *x, const float *r, const float *g, const float *b, int t, int w, float e) {
    layer_norm_body(x, r, g, b, t, w, e);
}
static void attention_portable(const float *q, const float *k, const float *v, float *c, int t, int h, int w,
                               float *keys, float *scores) {
    if (w == 32) attention_body(q, k, v, c, t, h, 32, keys, scores);
    else attention_body(q, k, v, c, t, h, w, keys, scores);
}

#if CE_X86
CE_AVX2 static void gelu_avx2(float *x, size_t count) { gelu_body(x, count); }
CE_AVX2 static void layer_norm_avx2(float *x, const float *r, const float *g, const float *b, int t, int w, float e) {
    layer_norm_body(x, r, g, b, t, w, e);
}
CE_AVX2 static void attention_avx2(const float *q, const float *k, const float *v, float *c, int t, int h, int w,
                                   float *keys, float *scores) {
    if (w == 32) attention_body(q, k, v, c, t, h, 32, keys, scores);
    else attention_body(q, k, v, c, t, h, w, keys, scores);
}
#endif

void ce_gelu(float *x, size_t count) {
#if CE_X86
    if (ce_uses_avx2()) { gelu_avx2(x, count); return; }
#endif
    gelu_portable(x, count);
}

void ce_layer_norm(float *x, const float *residual, const float *gamma, const float *beta,
                   int tokens, int width, float epsilon) {
#if CE_X86
    if (ce_uses_avx2()) { layer_norm_avx2(x, residual, gamma, beta, tokens, width, epsilon); return; }
#endif
    layer_norm_portable(x, residual, gamma, beta, tokens, width, epsilon);
}

void ce_attention(const float *q, const float *k, const float *v, float *context,
                  int tokens, int heads, int head_width) {
    if (tokens <= 0 || head_width <= 0 || head_width > 64) return;
    float *keys = (float *)malloc(sizeof(float) * (size_t)tokens * (size_t)head_width);
    float *scores = (float *)malloc(sizeof(float) * (size_t)tokens);
    if (!keys || !scores) abort();
#if CE_X86
    if (ce_uses_avx2()) attention_avx2(q, k, v, context, tokens, heads, head_width, keys, scores);
    else
#endif
        attention_portable(q, k, v, context, tokens, heads, head_width, keys, scores);
    free(keys);
    free(scores);
}
