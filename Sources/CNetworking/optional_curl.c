// Where libcurl's addresses live. Its soname has been libcurl.so.4 since
// 2006.
#define PK_OPTIONAL_CURL_FILLING_IN
#include "optional_curl.h"

#define PK_OPTIONAL_DEFINE(name) __typeof__(name) *pk_optional_##name;
#define PK_OPTIONAL_NAME(name) #name,
#define PK_OPTIONAL_SLOT(name) (void **)&pk_optional_##name,
PK_CURL_FUNCTIONS(PK_OPTIONAL_DEFINE)

static const char *const curl_names[] = {PK_CURL_FUNCTIONS(PK_OPTIONAL_NAME)};
static void **const curl_slots[] = {PK_CURL_FUNCTIONS(PK_OPTIONAL_SLOT)};

pk_optional_library pk_curl_library = {
  "libcurl.so.4", curl_names, curl_slots, sizeof curl_names / sizeof *curl_names, 0, {0}};
