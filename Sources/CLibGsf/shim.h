#include <gsf/gsf.h>
