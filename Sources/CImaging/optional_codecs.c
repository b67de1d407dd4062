// Where the codecs' addresses live, and which file each comes from.
#define PK_OPTIONAL_CODECS_FILLING_IN
#include "optional_codecs.h"

#include <jxl/version.h>
#include <libraw/libraw_version.h>

#define PK_STRING_(x) #x
#define PK_STRING(x) PK_STRING_(x)

#define PK_OPTIONAL_DEFINE(name) __typeof__(name) *pk_optional_##name;
#define PK_OPTIONAL_NAME(name) #name,
#define PK_OPTIONAL_SLOT(name) (void **)&pk_optional_##name,
PK_HEIF_FUNCTIONS(PK_OPTIONAL_DEFINE)
PK_JXL_FUNCTIONS(PK_OPTIONAL_DEFINE)
PK_RAW_FUNCTIONS(PK_OPTIONAL_DEFINE)

static const char *const heif_names[] = {PK_HEIF_FUNCTIONS(PK_OPTIONAL_NAME)};
static void **const heif_slots[] = {PK_HEIF_FUNCTIONS(PK_OPTIONAL_SLOT)};
static const char *const jxl_names[] = {PK_JXL_FUNCTIONS(PK_OPTIONAL_NAME)};
static void **const jxl_slots[] = {PK_JXL_FUNCTIONS(PK_OPTIONAL_SLOT)};
static const char *const raw_names[] = {PK_RAW_FUNCTIONS(PK_OPTIONAL_NAME)};
static void **const raw_slots[] = {PK_RAW_FUNCTIONS(PK_OPTIONAL_SLOT)};

// The sonames of the versions built against, from their headers where they
// say it: libjxl 0.x is libjxl.so.0.MINOR, LibRaw's is its libtool
// current less its age (0 so far).
#if JPEGXL_MAJOR_VERSION == 0
#define PK_JXL_SONAME "libjxl.so.0." PK_STRING(JPEGXL_MINOR_VERSION)
#else
#define PK_JXL_SONAME "libjxl.so." PK_STRING(JPEGXL_MAJOR_VERSION)
#endif
_Static_assert(LIBRAW_SHLIB_AGE == 0, "LibRaw's soname is current - age");

pk_optional_library pk_heif_library = {
  "libheif.so.1", heif_names, heif_slots, sizeof heif_names / sizeof *heif_names, 0, {0}};
pk_optional_library pk_jxl_library = {PK_JXL_SONAME, jxl_names, jxl_slots, sizeof jxl_names / sizeof *jxl_names, 0, {0}};
pk_optional_library pk_raw_library = {
  "libraw_r.so." PK_STRING(LIBRAW_SHLIB_CURRENT), raw_names, raw_slots, sizeof raw_names / sizeof *raw_names, 0, {0}};
