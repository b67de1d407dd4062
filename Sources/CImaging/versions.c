/* The versions of the image libraries this binary runs with, for
 * `picker-tui --version --verbose` (pasted into bug reports). Run-time
 * versions where a library has a function for it (the one actually
 * loaded), else the headers it was built with. */
#include <chafa.h>
#include <gif_lib.h>
#include <jxl/decode.h>
#include <lcms2.h>
#include <libheif/heif.h>
#include <libraw/libraw.h>
#include <png.h>
#include <stdio.h>
#include <tiffio.h>
#include <webp/decode.h>
#include <zlib.h>
#include <jpeglib.h>

#include "CImaging.h"

#define STRINGIFY_(x) #x
#define STRINGIFY(x) STRINGIFY_(x)

size_t pk_imaging_versions(char *out, size_t size) {
  if (out == NULL || size == 0) return 0;
  int webp = WebPGetDecoderVersion();
  uint32_t jxl = JxlDecoderVersion();
  int lcms = cmsGetEncodedCMMversion();
  /* TIFFGetVersion is a paragraph; its first line names the version. */
  const char *tiff = TIFFGetVersion();
  int tiff_length = 0;
  while (tiff[tiff_length] != '\0' && tiff[tiff_length] != '\n') tiff_length++;
  int written = snprintf(
      out, size,
      "libjpeg-turbo %s (headers)\n"
      "libpng %s\n"
      "libwebp %d.%d.%d\n"
      "giflib %d.%d.%d (headers)\n"
      "libheif %s\n"
      "libjxl %u.%u.%u\n"
      "%.*s\n"
      "LibRaw %s\n"
      "Little CMS %d.%d\n"
      "zlib %s\n"
      "libchafa %d.%d.%d (headers)\n",
      STRINGIFY(LIBJPEG_TURBO_VERSION), png_get_libpng_ver(NULL), (webp >> 16) & 0xff, (webp >> 8) & 0xff,
      webp & 0xff, GIFLIB_MAJOR, GIFLIB_MINOR, GIFLIB_RELEASE, heif_get_version(), jxl / 1000000,
      (jxl / 1000) % 1000, jxl % 1000, tiff_length, tiff, libraw_version(), lcms / 1000, (lcms % 1000) / 10,
      zlibVersion(), CHAFA_MAJOR_VERSION, CHAFA_MINOR_VERSION, CHAFA_MICRO_VERSION);
  if (written < 0) return 0;
  return (size_t)written < size ? (size_t)written : size - 1;
}
