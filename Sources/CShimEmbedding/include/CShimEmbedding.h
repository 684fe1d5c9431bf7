#ifndef CEMBEDDING_H
#define CEMBEDDING_H

#include <stddef.h>
#include <stdint.h>

/// The numeric kernels of Searchlight's text-embedding model (Sources/Embedding): 4-bit weight
/// products, layer normalization, GELU, attention, and the int8 dot products that compare stored
/// vectors with a query. Each has a portable version and, on x86-64 processors with AVX2 and FMA
/// (checked once at run time), a faster one.
///
/// A 4-bit row is a sequence of 18-byte blocks of 32 weights: a little-endian IEEE half-precision
/// scale `d`, then 16 bytes whose low nibbles are weights 0…15 and high nibbles weights 16…31;
/// a weight is `(nibble - 8) * d`.

/// Bytes of one 4-bit block of 32 weights.
#define CE_Q4_BLOCK_BYTES 18
/// Weights in one 4-bit block.
#define CE_Q4_BLOCK_WEIGHTS 32

/// Whether the AVX2 and FMA kernels are used (1) or the portable ones (0).
int ce_uses_avx2(void);

/// Writes the `count` weights (a multiple of 32) of the 4-bit row at `row` to `out`.
void ce_q4_dequantize(const uint8_t *row, int count, float *out);

/// `y[t][o] = bias[o] + Σ_i x[t][i] · W[o][i]` for `tokens` rows of `x` (each `inputs` floats)
/// and a 4-bit matrix `W` of `outputs` rows of `inputs` weights (a multiple of 32). `bias` may
/// be NULL. `y` holds `tokens × outputs` floats and must not overlap `x`.
void ce_q4_matmul(const uint8_t *weights, const float *bias, const float *x, float *y,
                  int tokens, int outputs, int inputs);

/// `x[t] = LayerNorm(x[t] + residual[t]) · gamma + beta` for each of `tokens` rows of `width`
/// floats; `residual` may be NULL.
void ce_layer_norm(float *x, const float *residual, const float *gamma, const float *beta,
                   int tokens, int width, float epsilon);

/// GELU (the erf form) of `count` floats, in place.
void ce_gelu(float *x, size_t count);

/// Multi-head self-attention over one sequence: `q`, `k`, `v` and `context` are `tokens` rows of
/// `heads × head_width` floats (`head_width` at most 64; nothing is written otherwise); every
/// token attends to all `tokens` tokens.
void ce_attention(const float *q, const float *k, const float *v, float *context,
                  int tokens, int heads, int head_width);

/// The sum of `count` products of two int8 vectors, whose values are in -127...127 (the AVX2
/// kernel's sums would saturate for -128).
int32_t ce_dot_i8(const int8_t *a, const int8_t *b, int count);

/// `out[i] = ce_dot_i8(query, vectors + i × stride, dimensions)` for `count` vectors.
void ce_dot_i8_many(const int8_t *query, const int8_t *vectors, size_t stride, int dimensions,
                    size_t count, int32_t *out);

/// A 64-bit FNV-1a hash of `count` bytes, continuing from `hash` (start with
/// CE_FNV_OFFSET).
uint64_t ce_fnv1a(uint64_t hash, const uint8_t *bytes, size_t count);
#define CE_FNV_OFFSET 14695981039346656037ULL

/// An open-addressing table over the pieces of a vocabulary whose bytes lie in `blob` at
/// `offsets[i] ..< offsets[i + 1]` (little-endian u32). Slots hold piece index + 1 (0 = empty);
/// `slots` must hold `mask + 1` entries, a power of two at least twice `count`, zeroed.
/// Returns 0, or -1 when an offset lies outside `blob_size` or decreases.
int ce_vocabulary_index(const uint8_t *offsets, const uint8_t *blob, size_t blob_size,
                        int count, uint32_t *slots, uint32_t mask);

/// The piece index of `bytes[0..<length]` in a table built by ce_vocabulary_index, or -1.
int ce_vocabulary_find(const uint32_t *slots, uint32_t mask, const uint8_t *offsets,
                       const uint8_t *blob, const uint8_t *bytes, int length);

/// The best segmentation of `text` (normalized UTF-8, `length` bytes) into pieces: a Viterbi
/// pass over the unigram scores (`scores`, little-endian f32 per piece) in which every
/// character may also be read as the piece `unknown` at `unknown_score`. `starts` holds the
/// `characters + 1` character start offsets (the last is `length`). Only pieces in
/// `first_ordinary ..< end_ordinary` match text (the others are control pieces such as `<s>`).
/// Writes up to `characters` piece ids to `out`, in text order, and the character index where
/// each starts to `out_starts` (unless NULL); returns their number, or -1 when out of memory.
int ce_segment(const uint8_t *text, const int32_t *starts, int characters,
               const uint32_t *slots, uint32_t mask, const uint8_t *offsets, const uint8_t *blob,
               const uint8_t *scores, int max_piece_bytes, int first_ordinary, int end_ordinary,
               float unknown_score, int unknown, int32_t *out, int32_t *out_starts);

#endif
