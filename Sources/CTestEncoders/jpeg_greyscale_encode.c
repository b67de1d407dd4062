// Greyscale JPEGs for the tests: the picker's own JPEG encoder, told to
// write one component.
#include <stddef.h>
#include <stdio.h>
#include <jpeglib.h>

#include "CTestEncoders.h"

// libjpeg converts the RGB rows to one grey component itself.
static void write_grey(void *compress) { jpeg_set_colorspace((j_compress_ptr)compress, JCS_GRAYSCALE); }

int pk_encode_jpeg_greyscale(const pk_image *image, int quality, uint8_t **out, size_t *out_size) {
  return pk_encode_jpeg_configured(image, quality, write_grey, out, out_size);
}
