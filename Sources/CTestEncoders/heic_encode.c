// HEIC encoding (with an optional thumbnail), for the tests' images only
// (not in the shipped picker).
#include <libheif/heif.h>
#include <stdlib.h>
#include <string.h>

#include "CTestEncoders.h"

typedef struct {
  uint8_t *data;
  size_t size;
} heif_buffer;

static struct heif_error write_buffer(struct heif_context *context, const void *data, size_t size, void *userdata) {
  (void)context;
  heif_buffer *buffer = userdata;
  struct heif_error result = {heif_error_Ok, heif_suberror_Unspecified, "ok"};
  uint8_t *grown = realloc(buffer->data, buffer->size + size);
  if (grown == NULL) {
    result.code = heif_error_Encoding_error;
    result.message = "out of memory";
    return result;
  }
  memcpy(grown + buffer->size, data, size);
  buffer->data = grown;
  buffer->size += size;
  return result;
}

int pk_encode_heic(const pk_image *source, int thumbnail_size, uint8_t **out, size_t *out_size) {
  struct heif_context *context = heif_context_alloc();
  struct heif_encoder *encoder = NULL;
  struct heif_image *image = NULL;
  struct heif_image_handle *handle = NULL, *thumbnail = NULL;
  heif_buffer buffer = {0};
  int ok = context != NULL &&
           heif_context_get_encoder_for_format(context, heif_compression_HEVC, &encoder).code == heif_error_Ok &&
           heif_image_create(source->width, source->height, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, &image)
               .code == heif_error_Ok &&
           heif_image_add_plane(image, heif_channel_interleaved, source->width, source->height, 8).code == heif_error_Ok;
  if (ok) {
    int stride = 0;
    uint8_t *plane = heif_image_get_plane(image, heif_channel_interleaved, &stride);
    for (int y = 0; y < source->height; y++)
      memcpy(plane + (size_t)y * stride, source->pixels + (size_t)y * source->width * 4, (size_t)source->width * 4);
    heif_encoder_set_lossy_quality(encoder, 90);
    heif_encoder_set_logging_level(encoder, 0);
    ok = heif_context_encode_image(context, image, encoder, NULL, &handle).code == heif_error_Ok;
  }
  if (ok && thumbnail_size > 0)
    ok = heif_context_encode_thumbnail(context, image, handle, encoder, NULL, thumbnail_size, &thumbnail).code ==
         heif_error_Ok;
  if (ok && thumbnail_size < 0) {
    // The source turned a quarter, as the thumbnail's own picture.
    pk_image turned = {source->width, source->height, malloc((size_t)source->width * source->height * 4)};
    struct heif_image *sideways = NULL;
    ok = turned.pixels != NULL;
    if (ok) {
      memcpy(turned.pixels, source->pixels, (size_t)source->width * source->height * 4);
      ok = pk_image_orient(&turned, 6) == 0 &&
           heif_image_create(turned.width, turned.height, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, &sideways)
               .code == heif_error_Ok &&
           heif_image_add_plane(sideways, heif_channel_interleaved, turned.width, turned.height, 8).code ==
             heif_error_Ok;
    }
    if (ok) {
      int stride = 0;
      uint8_t *plane = heif_image_get_plane(sideways, heif_channel_interleaved, &stride);
      for (int y = 0; y < turned.height; y++)
        memcpy(plane + (size_t)y * stride, turned.pixels + (size_t)y * turned.width * 4, (size_t)turned.width * 4);
      ok = heif_context_encode_thumbnail(context, sideways, handle, encoder, NULL, -thumbnail_size, &thumbnail).code ==
           heif_error_Ok;
    }
    if (sideways) heif_image_release(sideways);
    pk_image_free(&turned);
  }
  struct heif_writer writer = {1, write_buffer};
  if (ok) ok = heif_context_write(context, &writer, &buffer).code == heif_error_Ok;
  if (thumbnail) heif_image_handle_release(thumbnail);
  if (handle) heif_image_handle_release(handle);
  if (image) heif_image_release(image);
  if (encoder) heif_encoder_release(encoder);
  if (context) heif_context_free(context);
  if (!ok) {
    free(buffer.data);
    return -1;
  }
  *out = buffer.data;
  *out_size = buffer.size;
  return 0;
}
