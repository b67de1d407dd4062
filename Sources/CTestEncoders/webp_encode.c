// WebP encoding, for the tests' images only (not in the shipped picker).
#include <stdlib.h>
#include <string.h>
#include <webp/encode.h>

#include "CTestEncoders.h"

int pk_encode_webp(const pk_image *image, int quality, uint8_t **out, size_t *out_size) {
  uint8_t *encoded = NULL;
  size_t size = WebPEncodeRGBA(image->pixels, image->width, image->height, image->width * 4, (float)quality, &encoded);
  if (size == 0) return -1;
  *out = malloc(size);
  if (*out != NULL) memcpy(*out, encoded, size);
  WebPFree(encoded);
  if (*out == NULL) return -1;
  *out_size = size;
  return 0;
}
