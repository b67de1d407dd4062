// WebP through libwebp, scaled while decoding; animations give their first
// frame through libwebpdemux.
#include <stdlib.h>
#include <string.h>
#include <webp/decode.h>
#include <webp/demux.h>
#include <webp/encode.h>

#include "decode_internal.h"

static int first_frame(const uint8_t *data, size_t size, pk_decode_options *options, pk_image *out) {
  WebPAnimDecoderOptions settings;
  if (!WebPAnimDecoderOptionsInit(&settings)) return pk_fail(options, "WebP: library mismatch");
  settings.color_mode = MODE_RGBA;
  settings.use_threads = 0;
  WebPData bytes = {data, size};
  WebPAnimDecoder *decoder = WebPAnimDecoderNew(&bytes, &settings);
  if (decoder == NULL) return pk_fail(options, "corrupt animated WebP");
  WebPAnimInfo info;
  uint8_t *frame = NULL;
  int timestamp = 0;
  if (!WebPAnimDecoderGetInfo(decoder, &info) || pk_check_size(options, info.canvas_width, info.canvas_height) != 0 ||
      !WebPAnimDecoderGetNext(decoder, &frame, &timestamp)) {
    WebPAnimDecoderDelete(decoder);
    return options->error[0] ? -1 : pk_fail(options, "corrupt animated WebP");
  }
  out->pixels = pk_alloc_pixels((int32_t)info.canvas_width, (int32_t)info.canvas_height);
  if (out->pixels != NULL) memcpy(out->pixels, frame, (size_t)info.canvas_width * info.canvas_height * 4);
  WebPAnimDecoderDelete(decoder);
  if (out->pixels == NULL) return pk_fail(options, "out of memory");
  out->width = (int32_t)info.canvas_width;
  out->height = (int32_t)info.canvas_height;
  return 0;
}

static uint32_t le32(const uint8_t *p) { return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0]; }

// A chunk of an extended WebP (EXIF after the image, ICCP before it).
static const uint8_t *find_chunk(const uint8_t *data, size_t size, const char *type, uint32_t *length) {
  for (size_t at = 12; at + 8 <= size;) {
    const uint32_t chunk_length = le32(data + at + 4);
    if (chunk_length > size - at - 8) break;
    if (memcmp(data + at, type, 4) == 0) {
      *length = chunk_length;
      return data + at + 8;
    }
    at += 8 + (size_t)chunk_length + (chunk_length & 1);
  }
  return NULL;
}

static int exif_orientation(const uint8_t *data, size_t size) {
  uint32_t length = 0;
  const uint8_t *exif = find_chunk(data, size, "EXIF", &length);
  return exif != NULL ? pk_exif_orientation(exif, length) : 1;
}

static void apply_profile(const uint8_t *data, size_t size, pk_image *out) {
  uint32_t length = 0;
  const uint8_t *icc = find_chunk(data, size, "ICCP", &length);
  if (icc != NULL) pk_apply_icc(out, icc, length);
}

int pk_decode_webp(const uint8_t *data, size_t size, pk_decode_options *options, pk_image *out) {
  WebPDecoderConfig config;
  if (!WebPInitDecoderConfig(&config)) return pk_fail(options, "WebP: library mismatch");
  if (WebPGetFeatures(data, size, &config.input) != VP8_STATUS_OK) return pk_fail(options, "corrupt WebP");
  const int32_t width = config.input.width, height = config.input.height;
  if (pk_check_size(options, width, height) != 0) return -1;
  options->source_width = width;
  options->source_height = height;
  const int orientation = exif_orientation(data, size);
  if (config.input.has_animation) {
    if (first_frame(data, size, options, out) != 0) return -1;
    apply_profile(data, size, out);
    return pk_finish_orientation(options, out, orientation);
  }
  // Scaled while decoding into the box as the image is stored.
  pk_decode_options stored = pk_stored_box(options, orientation);
  int32_t fw, fh;
  pk_fitted_size(&stored, width, height, &fw, &fh);
  if (fw < width || fh < height) {
    config.options.use_scaling = 1;
    config.options.scaled_width = fw;
    config.options.scaled_height = fh;
  }
  const int32_t ow = config.options.use_scaling ? fw : width, oh = config.options.use_scaling ? fh : height;
  uint8_t *pixels = pk_alloc_pixels(ow, oh);
  if (pixels == NULL) return pk_fail(options, "out of memory");
  config.output.colorspace = MODE_RGBA;
  config.output.is_external_memory = 1;
  config.output.u.RGBA.rgba = pixels;
  config.output.u.RGBA.stride = ow * 4;
  config.output.u.RGBA.size = (size_t)ow * oh * 4;
  VP8StatusCode status = WebPDecode(data, size, &config);
  WebPFreeDecBuffer(&config.output);
  if (status != VP8_STATUS_OK) {
    free(pixels);
    return pk_fail(options, status == VP8_STATUS_NOT_ENOUGH_DATA ? "truncated WebP" : "corrupt WebP");
  }
  out->width = ow;
  out->height = oh;
  out->pixels = pixels;
  apply_profile(data, size, out);
  return pk_finish_orientation(options, out, orientation);
}
