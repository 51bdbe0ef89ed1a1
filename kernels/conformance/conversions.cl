// Conformance kernels for the explicit conversions of conversion_list.h.
#include "conversion_kernels.h"
