// Where the codecs' addresses live, and which file each comes from.
#define PK_OPTIONAL_CODECS_FILLING_IN
#include "optional_codecs.h"

#include <jxl/version.h>
#include <libavcodec/version.h>
#include <libavformat/version.h>
#include <libavutil/version.h>
#include <libraw/libraw_version.h>
#include <libswscale/version.h>

#define PK_STRING_(x) #x
#define PK_STRING(x) PK_STRING_(x)

// The sonames of the versions built against, from their headers where they
// say it: libjxl 0.x is libjxl.so.0.MINOR, LibRaw's is its libtool
// current less its age (0 so far).
#if JPEGXL_MAJOR_VERSION == 0
#define PK_JXL_SONAME "libjxl.so.0." PK_STRING(JPEGXL_MINOR_VERSION)
#else
#define PK_JXL_SONAME "libjxl.so." PK_STRING(JPEGXL_MAJOR_VERSION)
#endif
_Static_assert(LIBRAW_SHLIB_AGE == 0, "LibRaw's soname is current - age");

PK_OPTIONAL_LIBRARY(pk_heif_library, "libheif.so.1", PK_HEIF_FUNCTIONS)
PK_OPTIONAL_LIBRARY(pk_jxl_library, PK_JXL_SONAME, PK_JXL_FUNCTIONS)
PK_OPTIONAL_LIBRARY(pk_avutil_library, "libavutil.so." PK_STRING(LIBAVUTIL_VERSION_MAJOR), PK_AVUTIL_FUNCTIONS)
PK_OPTIONAL_LIBRARY(pk_avcodec_library, "libavcodec.so." PK_STRING(LIBAVCODEC_VERSION_MAJOR), PK_AVCODEC_FUNCTIONS)
PK_OPTIONAL_LIBRARY(
  pk_avformat_library, "libavformat.so." PK_STRING(LIBAVFORMAT_VERSION_MAJOR), PK_AVFORMAT_FUNCTIONS)
PK_OPTIONAL_LIBRARY(pk_swscale_library, "libswscale.so." PK_STRING(LIBSWSCALE_VERSION_MAJOR), PK_SWSCALE_FUNCTIONS)
PK_OPTIONAL_LIBRARY(pk_raw_library, "libraw_r.so." PK_STRING(LIBRAW_SHLIB_CURRENT), PK_RAW_FUNCTIONS)
