// PNG through libpng: the simplified API for decoding (no setjmp needed),
// the full API for writing thumbnails with their tEXt keys.
#include <errno.h>
#include <fcntl.h>
#include <png.h>
#include <zlib.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

typedef struct {
  jmp_buf jump;
  char *message;
  size_t capacity;
} png_errors;

static void on_png_error(png_structp png, png_const_charp message) {
  png_errors *errors = png_get_error_ptr(png);
  snprintf(errors->message, errors->capacity, "%s", message);
  longjmp(errors->jump, 1);
}

static void on_png_warning(png_structp png, png_const_charp message) {
  (void)png;
  (void)message;
}

int pk_png_write_file(
  const char *path, const pk_image *image, const char *const *keys, const char *const *values, int count,
  char *error, size_t error_capacity) {
  int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    snprintf(error, error_capacity, "%s", strerror(errno));
    return -1;
  }
  FILE *volatile file = fdopen(fd, "wb");
  if (file == NULL) {
    snprintf(error, error_capacity, "%s", strerror(errno));
    close(fd);
    return -1;
  }
  png_errors errors = {.message = error, .capacity = error_capacity};
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &errors, on_png_error, on_png_warning);
  png_infop info = png ? png_create_info_struct(png) : NULL;
  png_textp volatile texts = NULL;
  if (png == NULL || info == NULL) {
    png_destroy_write_struct(&png, &info);
    fclose(file);
    snprintf(error, error_capacity, "out of memory");
    return -1;
  }
  if (setjmp(errors.jump)) {
    png_destroy_write_struct(&png, &info);
    free(texts);
    fclose(file);
    return -1;
  }
  png_init_io(png, file);
  // Thumbnails are small and written while the user waits for the next
  // ones: speed matters more than the last bytes. libpng's adaptive filter
  // choice tries every filter on every row; the Sub filter alone does well
  // on photos at a fraction of the cost.
  png_set_compression_level(png, 1);
  png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_SUB);
  // Camera noise leaves LZ77 little to find: Huffman coding of the Sub
  // filter's residuals alone keeps most of the saving for far less work.
  png_set_compression_strategy(png, Z_HUFFMAN_ONLY);
  // Opaque images (nearly all photos) lose nothing without alpha.
  const int opaque = pk_image_is_opaque(image);
  png_set_IHDR(png, info, (png_uint_32)image->width, (png_uint_32)image->height, 8,
    opaque ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
    PNG_FILTER_TYPE_DEFAULT);
  if (count > 0) {
    texts = calloc((size_t)count, sizeof(png_text));
    if (texts == NULL) png_error(png, "out of memory");
    for (int i = 0; i < count; i++) {
      texts[i].compression = PNG_TEXT_COMPRESSION_NONE;
      texts[i].key = (png_charp)keys[i];
      texts[i].text = (png_charp)values[i];
    }
    png_set_text(png, info, texts, count);
  }
  png_write_info(png, info);
  // Rows stay RGBA in memory; libpng drops the filler byte when writing RGB.
  if (opaque) png_set_filler(png, 0, PNG_FILLER_AFTER);
  for (int32_t y = 0; y < image->height; y++) png_write_row(png, image->pixels + (size_t)y * image->width * 4);
  png_write_end(png, info);
  png_destroy_write_struct(&png, &info);
  free(texts);
  if (fclose(file) != 0) {
    snprintf(error, error_capacity, "%s", strerror(errno));
    return -1;
  }
  return 0;
}

int pk_encode_png(const pk_image *source, uint8_t **out, size_t *out_size) {
  png_image image;
  memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  image.width = (png_uint_32)source->width;
  image.height = (png_uint_32)source->height;
  image.format = PNG_FORMAT_RGBA;
  png_alloc_size_t size = 0;
  if (!png_image_write_get_memory_size(image, size, 0, source->pixels, 0, NULL)) return -1;
  uint8_t *buffer = malloc(size);
  if (buffer == NULL) return -1;
  if (!png_image_write_to_memory(&image, buffer, &size, 0, source->pixels, 0, NULL)) {
    free(buffer);
    return -1;
  }
  *out = buffer;
  *out_size = size;
  return 0;
}
