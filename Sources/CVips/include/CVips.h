#ifndef CVIPS_H
#define CVIPS_H
#include <stddef.h>
int cvips_probe(void);
#endif
