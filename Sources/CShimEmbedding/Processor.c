// Which kernels this processor can run: AVX2 and FMA, and an OS that saves the YMM registers.
#include "CShimEmbedding.h"
#include "Internal.h"

#if CE_X86
#include <cpuid.h>

static int detect_avx2(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    int fma = (c >> 12) & 1, osxsave = (c >> 27) & 1, avx = (c >> 28) & 1;
    if (!fma || !osxsave || !avx) return 0;
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    if ((lo & 0x6) != 0x6) return 0;  // XMM and YMM state enabled by the OS
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    return (b >> 5) & 1;
}
#endif

int ce_uses_avx2(void) {
    static int cached = -1;
    int value = __atomic_load_n(&cached, __ATOMIC_RELAXED);
    if (value < 0) {
#if CE_X86
        value = detect_avx2();
#else
        value = 0;
#endif
        __atomic_store_n(&cached, value, __ATOMIC_RELAXED);
    }
    return value;
}
