// Where exempi's addresses live. Its soname has been libexempi.so.8 since
// exempi 2.5.0 (January 2019); 2.6 added functions and kept it.
#define PK_OPTIONAL_EXEMPI_FILLING_IN
#include "optional_exempi.h"

PK_OPTIONAL_LIBRARY(pk_exempi_library, "libexempi.so.8", PK_EXEMPI_FUNCTIONS)
