// BMP (Windows bitmaps: the uncompressed 1/4/8-bit palette, 16, 24 and
// 32-bit forms, with any header version) through stb_image, as Debian ships
// it in libstb. Only data sniffed as BMP reaches it, so stb's other formats
// stay unused. stb reads no RLE-compressed bitmaps (rare: Paint never
// writes them, ImageMagick does for palettes); those get a message that
// says so rather than "corrupt".
#include <stb/stb_image.h>
#include <stdlib.h>
#include <string.h>

#include "decode_internal.h"

int pk_decode_bmp(const uint8_t *data, size_t size, pk_decode_options *options, pk_image *out) {
  if (size > INT32_MAX) return pk_fail(options, "file too large");
  // The compression field of a 40-byte or longer info header: 1 RLE8, 2 RLE4.
  if (size >= 34 && data[14] >= 40) {
    const uint32_t compression = data[30] | data[31] << 8 | data[32] << 16 | (uint32_t)data[33] << 24;
    if (compression == 1 || compression == 2)
      return pk_fail(options, "BMP with RLE%d compression is not supported", compression == 1 ? 8 : 4);
  }
  int width = 0, height = 0, channels = 0;
  // The header alone first: a bitmap claiming 50000 x 50000 is refused
  // before stb allocates for it.
  if (!stbi_info_from_memory(data, (int)size, &width, &height, &channels)) return pk_fail(options, "corrupt BMP");
  if (pk_check_size(options, width, height) != 0) return -1;
  options->source_width = width;
  options->source_height = height;
  uint8_t *decoded = stbi_load_from_memory(data, (int)size, &width, &height, &channels, 4);
  if (decoded == NULL) return pk_fail(options, "corrupt BMP");
  // The picker's images are freed with free(); stb's allocator is its own.
  uint8_t *pixels = pk_alloc_pixels(width, height);
  if (pixels == NULL) {
    stbi_image_free(decoded);
    return pk_fail(options, "out of memory");
  }
  memcpy(pixels, decoded, (size_t)width * (size_t)height * 4);
  stbi_image_free(decoded);
  out->width = width;
  out->height = height;
  out->pixels = pixels;
  if (pk_image_fit(out, options->need_width > 0 ? options->need_width : width,
        options->need_height > 0 ? options->need_height : height) != 0)
    return pk_fail(options, "out of memory");
  return pk_finish_orientation(options, out, 1);
}
