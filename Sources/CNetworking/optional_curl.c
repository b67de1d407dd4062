// Where libcurl's addresses live. Its soname has been libcurl.so.4 since
// 2006.
#define PK_OPTIONAL_CURL_FILLING_IN
#include "optional_curl.h"

PK_OPTIONAL_LIBRARY(pk_curl_library, "libcurl.so.4", PK_CURL_FUNCTIONS)
