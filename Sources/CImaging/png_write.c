// The cache's thumbnail files: PNG chunks written here, the picture
// Huffman-coded by huffman_deflate.c. libpng's writer spent most of a
// thumbnail's write in zlib (a fifth of a cold run's time), and these
// files need little of what it offers: 8-bit RGB or RGBA, the Sub filter,
// tEXt keys.
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "decode_internal.h"
#include "system_calls.h"

static uint8_t *put32(uint8_t *at, uint32_t value) {
  for (int i = 0; i < 4; i++) at[i] = (uint8_t)(value >> (24 - 8 * i));
  return at + 4;
}

// A chunk whose `length` bytes of data are already at `at` + 8: its
// length, type and CRC around them.
static uint8_t *close_chunk(uint8_t *at, const char type[4], size_t length) {
  put32(at, (uint32_t)length);
  memcpy(at + 4, type, 4);
  const uint32_t crc = (uint32_t)crc32(crc32(0, NULL, 0), at + 4, (uInt)(4 + length));
  return put32(at + 8 + length, crc);
}

// Rows with the Sub filter (each byte less the one a pixel to its left):
// photos do well with it at a fraction of the cost of trying every
// filter on every row. Opaque pictures are written without alpha.
static void filter_rows(const pk_image *image, int channels, uint8_t *out) {
  for (int32_t y = 0; y < image->height; y++) {
    const uint8_t *row = image->pixels + (size_t)y * (size_t)image->width * 4;
    *out++ = 1;
    // The first pixel as it is (nothing to its left), then differences;
    // the channel count spelled out for the compiler in each loop.
    memcpy(out, row, (size_t)channels);
    out += channels;
    if (channels == 3)
      for (int32_t x = 1; x < image->width; x++, out += 3)
        for (int c = 0; c < 3; c++) out[c] = (uint8_t)(row[x * 4 + c] - row[x * 4 - 4 + c]);
    else
      for (int32_t x = 1; x < image->width; x++, out += 4)
        for (int c = 0; c < 4; c++) out[c] = (uint8_t)(row[x * 4 + c] - row[x * 4 - 4 + c]);
  }
}

// PNG keywords (section 11.3.4.3): 1-79 printable Latin-1 bytes, no
// space at either end nor two in a row.
static int valid_keyword(const char *key, size_t length) {
  if (length == 0 || length > 79 || key[0] == ' ' || key[length - 1] == ' ') return 0;
  for (size_t i = 0; i < length; i++) {
    const uint8_t c = (uint8_t)key[i];
    if (c < 32 || (c > 126 && c < 161) || (c == ' ' && key[i + 1] == ' ')) return 0;
  }
  return 1;
}

static int fail(char *error, size_t capacity, const char *message) {
  snprintf(error, capacity, "%s", message);
  return -1;
}

int pk_png_encode_thumbnail(
  const pk_image *image, const char *const *keys, const char *const *values, int count, uint8_t **out,
  size_t *out_size, char *error, size_t error_capacity) {
  // Thumbnails are at most 1024 pixels a side. The bound keeps the image
  // data under 2 GB: one IDAT chunk (PNG's limit is 2^31 - 1 bytes), and
  // lengths that zlib's 32-bit checksums take whole.
  if (image->width <= 0 || image->height <= 0 || image->width > (1 << 14) || image->height > (1 << 14))
    return fail(error, error_capacity, "thumbnail size out of range");
  const int channels = pk_image_is_opaque(image) ? 3 : 4;
  const size_t raw_size = (size_t)image->height * (1 + (size_t)image->width * channels);
  size_t texts_size = 0;
  for (int i = 0; i < count; i++) {
    const size_t key_length = strlen(keys[i]);
    if (!valid_keyword(keys[i], key_length)) return fail(error, error_capacity, "bad PNG text key");
    texts_size += 12 + key_length + 1 + strlen(values[i]);
  }
  const size_t capacity = 8 + 25 + texts_size + 12 + pk_deflate_huffman_bound(raw_size) + 12;
  uint8_t *raw = malloc(raw_size), *file = malloc(capacity);
  if (raw == NULL || file == NULL) {
    free(raw);
    free(file);
    return fail(error, error_capacity, "out of memory");
  }
  filter_rows(image, channels, raw);

  uint8_t *at = file;
  memcpy(at, "\x89PNG\r\n\x1a\n", 8);
  at += 8;
  uint8_t *header = at + 8;
  put32(header, (uint32_t)image->width);
  put32(header + 4, (uint32_t)image->height);
  // 8 bits a sample; colour type 2 (RGB) or 6 (RGBA); deflate, adaptive
  // filtering (each row names its filter), not interlaced.
  const uint8_t rest[5] = {8, channels == 3 ? 2 : 6, 0, 0, 0};
  memcpy(header + 8, rest, 5);
  at = close_chunk(at, "IHDR", 13);
  for (int i = 0; i < count; i++) {
    const size_t key_length = strlen(keys[i]), value_length = strlen(values[i]);
    memcpy(at + 8, keys[i], key_length + 1);
    memcpy(at + 8 + key_length + 1, values[i], value_length);
    at = close_chunk(at, "tEXt", key_length + 1 + value_length);
  }
  at = close_chunk(at, "IDAT", pk_deflate_huffman(raw, raw_size, at + 8));
  at = close_chunk(at, "IEND", 0);
  free(raw);
  *out = file;
  *out_size = (size_t)(at - file);
  return 0;
}

int pk_png_write_file(
  const char *path, const pk_image *image, const char *const *keys, const char *const *values, int count,
  char *error, size_t error_capacity) {
  uint8_t *file;
  size_t size;
  if (pk_png_encode_thumbnail(image, keys, values, count, &file, &size, error, error_capacity) != 0) return -1;
  int status = 0;
  const int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0 || pk_io_write_all(fd, file, size) != 0) {
    snprintf(error, error_capacity, "%s", strerror(errno));
    status = -1;
  }
  if (fd >= 0 && close(fd) != 0 && status == 0) {
    snprintf(error, error_capacity, "%s", strerror(errno));
    status = -1;
  }
  free(file);
  return status;
}
