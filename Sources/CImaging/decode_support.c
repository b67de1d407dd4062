// The helpers every format's decoder uses: errors, size checks, fitted
// sizes, pixel buffers, EXIF orientation. The formats depend on this file
// alone; decode.c depends on the formats (it dispatches to them).
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode_internal.h"
#include "decode_support.h"
#include "photo_header.h"

int pk_fail(pk_decode_options *options, const char *format, ...) {
  // Running out of memory says nothing about the file.
  if (strcmp(format, "out of memory") == 0) options->content_error = 0;
  va_list args;
  va_start(args, format);
  vsnprintf(options->error, sizeof options->error, format, args);
  va_end(args);
  // One clean line: library messages may end in a newline (libheif's do)
  // or hold several lines.
  char *text = options->error;
  for (char *c = text; *c; c++)
    if (*c == '\n' || *c == '\r' || *c == '\t') *c = ' ';
  size_t length = strlen(text);
  while (length > 0 && (text[length - 1] == ' ' || text[length - 1] == '.' || text[length - 1] == ':')) text[--length] = 0;
  return -1;
}

int pk_check_size(pk_decode_options *options, int64_t width, int64_t height) {
  if (width <= 0 || height <= 0) return pk_fail(options, "image has no pixels");
  if (width > 65535 || height > 65535 || (options->max_pixels > 0 && width * height > options->max_pixels))
    return pk_fail(options, "image too large (%lldx%lld pixels)", (long long)width, (long long)height);
  return 0;
}

void pk_fitted_size(const pk_decode_options *options, int32_t width, int32_t height, int32_t *fw, int32_t *fh) {
  int32_t bw = options->need_width > 0 ? options->need_width : width;
  int32_t bh = options->need_height > 0 ? options->need_height : height;
  if (width <= bw && height <= bh) {
    *fw = width;
    *fh = height;
  } else if ((int64_t)width * bh >= (int64_t)height * bw) {
    *fw = bw;
    *fh = (int32_t)(((int64_t)height * bw + width - 1) / width);
  } else {
    *fh = bh;
    *fw = (int32_t)(((int64_t)width * bh + height - 1) / height);
  }
}

void pk_thumbnail_fitted_size(const pk_decode_options *options, int32_t width, int32_t height, int32_t *fw, int32_t *fh) {
  pk_decode_options enough = *options;
  if (options->enough_width > 0 && options->enough_height > 0) {
    enough.need_width = options->enough_width;
    enough.need_height = options->enough_height;
  }
  pk_fitted_size(&enough, width, height, fw, fh);
}

uint8_t *pk_alloc_pixels(int32_t width, int32_t height) {
  return calloc((size_t)width * (size_t)height, 4);
}

pk_decode_options pk_stored_box(const pk_decode_options *options, int orientation) {
  pk_decode_options stored = *options;
  if (orientation >= 5) {
    stored.need_width = options->need_height;
    stored.need_height = options->need_width;
    stored.enough_width = options->enough_height;
    stored.enough_height = options->enough_width;
  }
  return stored;
}

int pk_finish_orientation(pk_decode_options *options, pk_image *out, int orientation) {
  if (pk_image_orient(out, orientation) != 0) return pk_fail(options, "out of memory");
  options->orientation = orientation;
  return 0;
}

int pk_exif_orientation(const uint8_t *data, size_t size) {
  pk_photo_header read;
  pk_read_exif_block(data, size, &read);
  return read.orientation != 0 ? read.orientation : 1;
}
