// TIFF through libtiff: the first page, any bit depth or photometric libtiff
// turns into RGBA (8/16-bit, CMYK, palette, greyscale), turned upright by
// its Orientation tag. Read from memory; libtiff's messages never reach the
// terminal (per-open handlers keep the first error for the tile's text).
#include <stdlib.h>
#include <string.h>
#include <tiffio.h>

#include "decode_internal.h"

typedef struct {
  const uint8_t *data;
  toff_t size;
  toff_t at;
  pk_decode_options *options;
} memory_file;

static tmsize_t read_memory(thandle_t handle, void *buffer, tmsize_t count) {
  memory_file *file = handle;
  if (count < 0 || file->at >= file->size) return 0;
  toff_t n = (toff_t)count < file->size - file->at ? (toff_t)count : file->size - file->at;
  memcpy(buffer, file->data + file->at, (size_t)n);
  file->at += n;
  return (tmsize_t)n;
}

static tmsize_t write_nothing(thandle_t handle, void *buffer, tmsize_t count) {
  (void)handle;
  (void)buffer;
  (void)count;
  return -1;
}

static toff_t seek_memory(thandle_t handle, toff_t offset, int whence) {
  memory_file *file = handle;
  toff_t base = whence == SEEK_CUR ? file->at : whence == SEEK_END ? file->size : 0;
  file->at = base + offset;
  return file->at;
}

static int close_nothing(thandle_t handle) {
  (void)handle;
  return 0;
}

static toff_t memory_size(thandle_t handle) { return ((memory_file *)handle)->size; }

static int no_map(thandle_t handle, void **base, toff_t *size) {
  (void)handle;
  (void)base;
  (void)size;
  return 0;
}

static void no_unmap(thandle_t handle, void *base, toff_t size) {
  (void)handle;
  (void)base;
  (void)size;
}

static int on_error(TIFF *tiff, void *user, const char *module, const char *format, va_list args) {
  (void)tiff;
  (void)module;
  pk_decode_options *options = user;
  if (options->error[0] == 0) vsnprintf(options->error, sizeof options->error, format, args);
  return 1;  // handled: nothing on stderr
}

static int on_warning(TIFF *tiff, void *user, const char *module, const char *format, va_list args) {
  (void)tiff;
  (void)user;
  (void)module;
  (void)format;
  (void)args;
  return 1;
}

int pk_decode_tiff(const uint8_t *data, size_t size, pk_decode_options *options, pk_image *out) {
  memory_file file = {data, (toff_t)size, 0, options};
  TIFFOpenOptions *open_options = TIFFOpenOptionsAlloc();
  if (open_options == NULL) return pk_fail(options, "out of memory");
  TIFFOpenOptionsSetErrorHandlerExtR(open_options, on_error, options);
  TIFFOpenOptionsSetWarningHandlerExtR(open_options, on_warning, NULL);
  // One allocation past this is a bomb, not a photo.
  TIFFOpenOptionsSetMaxSingleMemAlloc(open_options, 512 * 1024 * 1024);
  options->error[0] = 0;
  TIFF *tiff = TIFFClientOpenExt("photo", "rm", &file, read_memory, write_nothing, seek_memory, close_nothing,
    memory_size, no_map, no_unmap, open_options);
  TIFFOpenOptionsFree(open_options);
  if (tiff == NULL) {
    char reason[sizeof options->error];
    memcpy(reason, options->error, sizeof reason);
    return pk_fail(options, "corrupt TIFF: %s", reason[0] ? reason : "unreadable");
  }
  uint32_t width = 0, height = 0;
  uint16_t orientation = ORIENTATION_TOPLEFT;
  TIFFGetField(tiff, TIFFTAG_IMAGEWIDTH, &width);
  TIFFGetField(tiff, TIFFTAG_IMAGELENGTH, &height);
  TIFFGetFieldDefaulted(tiff, TIFFTAG_ORIENTATION, &orientation);
  if (pk_check_size(options, width, height) != 0) {
    TIFFClose(tiff);
    return -1;
  }
  options->source_width = (int32_t)width;
  options->source_height = (int32_t)height;
  uint8_t *pixels = pk_alloc_pixels((int32_t)width, (int32_t)height);
  if (pixels == NULL) {
    TIFFClose(tiff);
    return pk_fail(options, "out of memory");
  }
  // libtiff flips for orientations 1-4 only; all eight are applied below
  // from pixels read as stored.
  TIFFSetField(tiff, TIFFTAG_ORIENTATION, ORIENTATION_TOPLEFT);
  char reason[1024] = {0};
  if (!TIFFRGBAImageOK(tiff, reason)) {
    free(pixels);
    TIFFClose(tiff);
    return pk_fail(options, "TIFF not supported: %s", reason);
  }
  // RGBA words with red in the low byte: R, G, B, A in memory on
  // little-endian machines, which is the layout pk_image uses.
  int ok = TIFFReadRGBAImageOriented(tiff, width, height, (uint32_t *)pixels, ORIENTATION_TOPLEFT, 0);
  TIFFClose(tiff);
  if (!ok) {
    free(pixels);
    char saved[sizeof options->error];
    memcpy(saved, options->error, sizeof saved);
    return pk_fail(options, "corrupt TIFF: %s", saved[0] ? saved : "cannot read the image");
  }
  out->width = (int32_t)width;
  out->height = (int32_t)height;
  out->pixels = pixels;
  const int turn = orientation >= 1 && orientation <= 8 ? orientation : 1;
  return pk_finish_orientation(options, out, turn);
}
