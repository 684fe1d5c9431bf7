// The tokenizer's vocabulary lookup and its Viterbi segmentation, over the model file's bytes.
#include <math.h>
#include <stdlib.h>
#include "CShimEmbedding.h"
#include "Internal.h"

uint64_t ce_fnv1a(uint64_t hash, const uint8_t *bytes, size_t count) {
    for (size_t i = 0; i < count; i++) {
        hash ^= bytes[i];
        hash *= 1099511628211ULL;
    }
    return hash;
}

int ce_vocabulary_index(const uint8_t *offsets, const uint8_t *blob, size_t blob_size,
                        int count, uint32_t *slots, uint32_t mask) {
    for (int i = 0; i < count; i++) {
        uint32_t start = ce_read_u32(offsets + 4 * (size_t)i);
        uint32_t end = ce_read_u32(offsets + 4 * (size_t)i + 4);
        if (end < start || end > blob_size) return -1;
        if (end == start) continue;
        uint32_t slot = (uint32_t)ce_fnv1a(CE_FNV_OFFSET, blob + start, end - start) & mask;
        while (slots[slot]) slot = (slot + 1) & mask;
        slots[slot] = (uint32_t)i + 1;
    }
    return 0;
}

static int find_hashed(const uint32_t *slots, uint32_t mask, const uint8_t *offsets,
                       const uint8_t *blob, uint64_t hash, const uint8_t *bytes, int length) {
    uint32_t slot = (uint32_t)hash & mask;
    for (;;) {
        uint32_t entry = slots[slot];
        if (!entry) return -1;
        uint32_t piece = entry - 1;
        uint32_t start = ce_read_u32(offsets + 4 * (size_t)piece);
        uint32_t end = ce_read_u32(offsets + 4 * (size_t)piece + 4);
        if (end - start == (uint32_t)length && memcmp(blob + start, bytes, (size_t)length) == 0)
            return (int)piece;
        slot = (slot + 1) & mask;
    }
}

int ce_vocabulary_find(const uint32_t *slots, uint32_t mask, const uint8_t *offsets,
                       const uint8_t *blob, const uint8_t *bytes, int length) {
    return find_hashed(slots, mask, offsets, blob, ce_fnv1a(CE_FNV_OFFSET, bytes, (size_t)length),
                       bytes, length);
}

int ce_segment(const uint8_t *text, const int32_t *starts, int characters,
               const uint32_t *slots, uint32_t mask, const uint8_t *offsets, const uint8_t *blob,
               const uint8_t *scores, int max_piece_bytes, int first_ordinary, int end_ordinary,
               float unknown_score, int unknown, int32_t *out, int32_t *out_starts) {
    if (characters <= 0) return 0;
    size_t n = (size_t)characters + 1;
    float *best = (float *)malloc(sizeof(float) * n);
    int32_t *piece = (int32_t *)malloc(sizeof(int32_t) * n);
    int32_t *from = (int32_t *)malloc(sizeof(int32_t) * n);
    if (!best || !piece || !from) {
        free(best); free(piece); free(from);
        return -1;
    }
    for (size_t i = 0; i < n; i++) best[i] = -INFINITY;
    best[0] = 0.f;
    for (int i = 0; i < characters; i++) {
        // The hash grows with the candidate piece, one character at a time.
        uint64_t hash = CE_FNV_OFFSET;
        int begin = starts[i];
        for (int e = i + 1; e <= characters; e++) {
            int length = starts[e] - begin;
            if (length > max_piece_bytes) break;
            hash = ce_fnv1a(hash, text + starts[e - 1], (size_t)(starts[e] - starts[e - 1]));
            int id = find_hashed(slots, mask, offsets, blob, hash, text + begin, length);
            if (id < first_ordinary || id >= end_ordinary) continue;
            float score = best[i] + ce_read_f32(scores + 4 * (size_t)id);
            if (score > best[e]) { best[e] = score; piece[e] = id; from[e] = i; }
        }
        float score = best[i] + unknown_score;
        if (score > best[i + 1]) { best[i + 1] = score; piece[i + 1] = unknown; from[i + 1] = i; }
    }
    int count = 0;
    for (int i = characters; i > 0; i = from[i]) count++;
    int written = count;
    for (int i = characters; i > 0; i = from[i]) {
        written--;
        out[written] = piece[i];
        if (out_starts) out_starts[written] = from[i];
    }
    free(best); free(piece); free(from);
    return count;
}
