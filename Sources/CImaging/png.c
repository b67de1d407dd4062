// PNG decoding through libpng's simplified API (no setjmp needed). Every
// PNG the picker writes is png_write.c's.
#include <png.h>
#include <stdlib.h>
#include <string.h>

#include "decode_internal.h"

static uint32_t be32(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }

// The orientation in an eXIf chunk, before or after the image data.
static int exif_orientation(const uint8_t *data, size_t size) {
  for (size_t at = 8; at + 12 <= size;) {
    const uint32_t length = be32(data + at);
    if (length > size - at - 12) break;
    if (memcmp(data + at + 4, "eXIf", 4) == 0) return pk_exif_orientation(data + at + 8, length);
    if (memcmp(data + at + 4, "IEND", 4) == 0) break;
    at += 12 + (size_t)length;
  }
  return 1;
}

int pk_decode_png(const uint8_t *data, size_t size, pk_decode_options *options, pk_image *out) {
  // The size from IHDR first, so a bomb is refused before libpng allocates.
  if (size < 24 || memcmp(data + 12, "IHDR", 4) != 0) return pk_fail(options, "corrupt PNG: no header");
  if (pk_check_size(options, be32(data + 16), be32(data + 20)) != 0) return -1;
  png_image image;
  memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&image, data, size))
    return pk_fail(options, "corrupt PNG: %s", image.message);
  image.format = PNG_FORMAT_RGBA;
  // 16-bit samples without gAMA or sRGB would be taken as linear light and
  // come out washed out; cameras and editors write them sRGB-encoded.
  image.flags |= PNG_IMAGE_FLAG_16BIT_sRGB;
  options->source_width = (int32_t)image.width;
  options->source_height = (int32_t)image.height;
  uint8_t *pixels = pk_alloc_pixels((int32_t)image.width, (int32_t)image.height);
  if (pixels == NULL) {
    png_image_free(&image);
    return pk_fail(options, "out of memory");
  }
  if (!png_image_finish_read(&image, NULL, pixels, 0, NULL)) {
    free(pixels);
    return pk_fail(options, "corrupt PNG: %s", image.message);
  }
  out->width = (int32_t)image.width;
  out->height = (int32_t)image.height;
  out->pixels = pixels;
  uint8_t *icc = NULL;
  size_t icc_size = 0;
  if (pk_png_icc(data, size, &icc, &icc_size)) {
    pk_apply_icc(out, icc, icc_size);
    free(icc);
  }
  return pk_finish_orientation(options, out, exif_orientation(data, size));
}

int pk_png_text(const uint8_t *data, size_t size, const char *key, char *value, size_t capacity) {
  if (capacity == 0 || size < 8 || memcmp(data, "\x89PNG\r\n\x1a\n", 8) != 0) return -1;
  const size_t key_length = strlen(key);
  size_t pos = 8;
  while (pos + 12 <= size) {
    const uint32_t length = be32(data + pos);
    const uint8_t *type = data + pos + 4;
    if (length > size - pos - 12) return -1;
    const uint8_t *body = data + pos + 8;
    if (memcmp(type, "tEXt", 4) == 0 && length > key_length && memcmp(body, key, key_length) == 0 &&
        body[key_length] == 0) {
      size_t n = length - key_length - 1;
      size_t copy = n < capacity - 1 ? n : capacity - 1;
      memcpy(value, body + key_length + 1, copy);
      value[copy] = 0;
      return (int)n;
    }
    // Text may also follow the image data; only IEND ends the search.
    if (memcmp(type, "IEND", 4) == 0) return -1;
    pos += 12 + (size_t)length;
  }
  return -1;
}
