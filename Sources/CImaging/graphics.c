// Encodings of pixel thumbnails for terminals that draw images: sixel
// through libchafa, the raw pixels kitty takes, and the padding that makes
// a sixel image fill whole cells without being stretched.
#include <chafa.h>
#include <stdlib.h>
#include <string.h>

#include "CImaging.h"

int pk_image_pad(const pk_image *image, int32_t width, int32_t height, pk_image *out) {
  out->width = out->height = 0;
  out->pixels = NULL;
  if (image->pixels == NULL || width < image->width || height < image->height || width <= 0 || height <= 0)
    return -1;
  // Zeroed: fully transparent around the picture.
  uint8_t *pixels = calloc((size_t)width * (size_t)height, 4);
  if (pixels == NULL) return -1;
  const int32_t left = (width - image->width) / 2, top = (height - image->height) / 2;
  for (int32_t y = 0; y < image->height; y++) {
    memcpy(pixels + (((size_t)(top + y) * (size_t)width) + (size_t)left) * 4,
      image->pixels + (size_t)y * (size_t)image->width * 4, (size_t)image->width * 4);
  }
  out->width = width;
  out->height = height;
  out->pixels = pixels;
  return 0;
}

int pk_encode_sixel(const pk_image *image, int32_t columns, int32_t rows, int32_t cell_width, int32_t cell_height,
  int32_t color_registers, uint8_t **out, size_t *out_size) {
  *out = NULL;
  *out_size = 0;
  if (image->pixels == NULL || columns <= 0 || rows <= 0 || cell_width <= 0 || cell_height <= 0) return -1;
  ChafaCanvasConfig *config = chafa_canvas_config_new();
  if (config == NULL) return -1;
  chafa_canvas_config_set_pixel_mode(config, CHAFA_PIXEL_MODE_SIXELS);
  chafa_canvas_config_set_cell_geometry(config, cell_width, cell_height);
  chafa_canvas_config_set_geometry(config, columns, rows);
  // A terminal with few colour registers gets a palette that fits them.
  chafa_canvas_config_set_canvas_mode(
    config, color_registers >= 256 ? CHAFA_CANVAS_MODE_INDEXED_240 : CHAFA_CANVAS_MODE_INDEXED_16);
  ChafaCanvas *canvas = chafa_canvas_new(config);
  chafa_canvas_config_unref(config);
  if (canvas == NULL) return -1;
  chafa_canvas_draw_all_pixels(
    canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED, image->pixels, image->width, image->height, image->width * 4);
  GString *printed = chafa_canvas_print(canvas, NULL);
  chafa_canvas_unref(canvas);
  if (printed == NULL) return -1;
  uint8_t *bytes = malloc(printed->len > 0 ? printed->len : 1);
  if (bytes == NULL) {
    g_string_free(printed, TRUE);
    return -1;
  }
  memcpy(bytes, printed->str, printed->len);
  *out = bytes;
  *out_size = printed->len;
  g_string_free(printed, TRUE);
  return 0;
}

int pk_kitty_pixels(const pk_image *image, uint8_t **out, size_t *out_size, int *bits) {
  *out = NULL;
  *out_size = 0;
  if (image->pixels == NULL || image->width <= 0 || image->height <= 0) return -1;
  const size_t count = (size_t)image->width * (size_t)image->height;
  const int opaque = pk_image_is_opaque(image);
  // Opaque pictures go as RGB: a quarter fewer bytes to send.
  *bits = opaque ? 24 : 32;
  const size_t channels = opaque ? 3 : 4;
  uint8_t *raw = malloc(count * channels);
  if (raw == NULL) return -1;
  if (opaque) {
    for (size_t i = 0; i < count; i++) memcpy(raw + i * 3, image->pixels + i * 4, 3);
  } else {
    memcpy(raw, image->pixels, count * 4);
  }
  *out = raw;
  *out_size = count * channels;
  return 0;
}
