#include <vips/vips.h>
#include "CVips.h"
int cvips_probe(void) { return VIPS_INIT("x"); }
