// JPEG encoding: iTerm2 pictures, and the tests' images. Same error
// discipline as decoding.
#include <stddef.h>
#include <stdio.h>
#include <jpeglib.h>
#include <setjmp.h>
#include <stdlib.h>

#include "CImaging.h"

typedef struct {
  struct jpeg_error_mgr manager;
  jmp_buf jump;
} encode_errors;

static void on_encode_error(j_common_ptr info) { longjmp(((encode_errors *)info->err)->jump, 1); }
static void on_encode_message(j_common_ptr info) { (void)info; }

int pk_encode_jpeg_configured(const pk_image *image, int quality, pk_jpeg_configure configure, uint8_t **out,
                              size_t *out_size) {
  struct jpeg_compress_struct info;
  encode_errors errors;
  unsigned char *volatile buffer = NULL;
  unsigned long size = 0;
  info.err = jpeg_std_error(&errors.manager);
  errors.manager.error_exit = on_encode_error;
  errors.manager.output_message = on_encode_message;
  if (setjmp(errors.jump)) {
    jpeg_destroy_compress(&info);
    free(buffer);
    return -1;
  }
  jpeg_create_compress(&info);
  jpeg_mem_dest(&info, (unsigned char **)&buffer, &size);
  info.image_width = (JDIMENSION)image->width;
  info.image_height = (JDIMENSION)image->height;
  info.input_components = 4;
  info.in_color_space = JCS_EXT_RGBA;
  jpeg_set_defaults(&info);
  jpeg_set_quality(&info, quality, TRUE);
  if (configure) configure((void *)&info);
  jpeg_start_compress(&info, TRUE);
  while (info.next_scanline < info.image_height) {
    JSAMPROW row = image->pixels + (size_t)info.next_scanline * image->width * 4;
    jpeg_write_scanlines(&info, &row, 1);
  }
  jpeg_finish_compress(&info);
  jpeg_destroy_compress(&info);
  *out = buffer;
  *out_size = size;
  return 0;
}

int pk_encode_jpeg(const pk_image *image, int quality, uint8_t **out, size_t *out_size) {
  return pk_encode_jpeg_configured(image, quality, NULL, out, out_size);
}

void pk_buffer_free(void *buffer) { free(buffer); }
