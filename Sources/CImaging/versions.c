/* The versions of the image libraries this binary runs with, for
 * `picker-tui --version --verbose` (pasted into bug reports). Run-time
 * versions where a library has a function for it (the one actually
 * loaded), else the headers it was built with. The codecs opened only when
 * needed are opened here to be asked; one not installed says so. */
#include <chafa.h>
#include <gif_lib.h>
#include <lcms2.h>
#include <png.h>
#include <stdio.h>
#include <tiffio.h>
#include <webp/decode.h>
#include <zlib.h>
#include <jpeglib.h>

#include "CImaging.h"
#include "optional_codecs.h"

#define STRINGIFY_(x) #x
#define STRINGIFY(x) STRINGIFY_(x)

size_t pk_imaging_versions(char *out, size_t size) {
  if (out == NULL || size == 0) return 0;
  int webp = WebPGetDecoderVersion();
  int lcms = cmsGetEncodedCMMversion();
  /* TIFFGetVersion is a paragraph; its first line names the version. */
  const char *tiff = TIFFGetVersion();
  int tiff_length = 0;
  while (tiff[tiff_length] != '\0' && tiff[tiff_length] != '\n') tiff_length++;
  char heif[64], jxl[64], raw[64];
  if (pk_open_heif())
    snprintf(heif, sizeof heif, "%s", heif_get_version());
  else
    snprintf(heif, sizeof heif, "not installed");
  if (pk_open_jxl()) {
    uint32_t version = JxlDecoderVersion();
    snprintf(jxl, sizeof jxl, "%u.%u.%u", version / 1000000, (version / 1000) % 1000, version % 1000);
  } else {
    snprintf(jxl, sizeof jxl, "not installed");
  }
  snprintf(raw, sizeof raw, "%s", pk_open_raw() ? libraw_version() : "not installed");
  char video[64];
  if (pk_open_video()) {
    unsigned version = avcodec_version();
    snprintf(video, sizeof video, "%u.%u.%u", version >> 16, (version >> 8) & 0xff, version & 0xff);
  } else {
    snprintf(video, sizeof video, "not installed");
  }
  int written = snprintf(
      out, size,
      "libjpeg-turbo %s (headers)\n"
      "libpng %s\n"
      "libwebp %d.%d.%d\n"
      "giflib %d.%d.%d (headers)\n"
      "libheif %s\n"
      "libjxl %s\n"
      "%.*s\n"
      "LibRaw %s\n"
      "libavcodec %s (FFmpeg: videos)\n"
      "Little CMS %d.%d\n"
      "zlib %s\n"
      "libchafa %d.%d.%d (headers)\n",
      STRINGIFY(LIBJPEG_TURBO_VERSION), png_get_libpng_ver(NULL), (webp >> 16) & 0xff, (webp >> 8) & 0xff,
      webp & 0xff, GIFLIB_MAJOR, GIFLIB_MINOR, GIFLIB_RELEASE, heif, jxl, tiff_length, tiff, raw, video, lcms / 1000,
      (lcms % 1000) / 10, zlibVersion(), CHAFA_MAJOR_VERSION, CHAFA_MINOR_VERSION, CHAFA_MICRO_VERSION);
  if (written < 0) return 0;
  return (size_t)written < size ? (size_t)written : size - 1;
}
