#ifndef CEMBEDDING_INTERNAL_H
#define CEMBEDDING_INTERNAL_H

#include <stdint.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#define CE_X86 1
#define CE_AVX2 __attribute__((target("avx2,fma")))
#else
#define CE_X86 0
#define CE_AVX2
#endif

/// The body of a kernel, compiled once portably and once for AVX2 by the two callers that
/// inline it.
#define CE_BODY static inline __attribute__((always_inline))

/// A little-endian IEEE half-precision number as a float: the exponent and mantissa moved into
/// a float's places and rescaled by 2^112 (which also turns subnormals into normals).
static inline float ce_half_to_float(uint16_t half) {
    uint32_t sign = (uint32_t)(half & 0x8000u) << 16;
    uint32_t rest = half & 0x7fffu;
    float value;
    if (rest >= 0x7c00u) {
        uint32_t bits = sign | 0x7f800000u | ((rest & 0x3ffu) << 13);
        memcpy(&value, &bits, 4);
        return value;
    }
    uint32_t bits = rest << 13;
    memcpy(&value, &bits, 4);
    value *= 0x1p112f;
    return sign ? -value : value;
}

static inline uint32_t ce_read_u32(const uint8_t *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static inline float ce_read_f32(const uint8_t *p) {
    float v;
    memcpy(&v, p, 4);
    return v;
}

#endif
