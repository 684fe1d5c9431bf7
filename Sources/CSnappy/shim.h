#include <snappy-c.h>
