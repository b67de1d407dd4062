// Pixel buffers: orientation and shrinking. Plain C loops; images reaching
// here are already small (an EXIF thumbnail or a DCT-scaled decode).
#include <stdlib.h>
#include <string.h>

#include "CImaging.h"

void pk_image_free(pk_image *image) {
  if (image == NULL) return;
  free(image->pixels);
  image->pixels = NULL;
  image->width = 0;
  image->height = 0;
}

int pk_image_orient(pk_image *image, int orientation) {
  if (orientation < 2 || orientation > 8 || image->pixels == NULL) return 0;
  const int32_t w = image->width, h = image->height;
  // 5-8 swap the axes.
  const int swaps = orientation >= 5;
  const int32_t ow = swaps ? h : w, oh = swaps ? w : h;
  uint32_t *out = malloc((size_t)ow * (size_t)oh * 4);
  if (out == NULL) return -1;
  const uint32_t *in = (const uint32_t *)image->pixels;
  for (int32_t y = 0; y < oh; y++) {
    for (int32_t x = 0; x < ow; x++) {
      int32_t sx, sy;
      switch (orientation) {
        case 2: sx = w - 1 - x; sy = y; break;  // mirrored
        case 3: sx = w - 1 - x; sy = h - 1 - y; break;  // upside down
        case 4: sx = x; sy = h - 1 - y; break;  // mirrored vertically
        case 5: sx = y; sy = x; break;  // transposed
        case 6: sx = y; sy = h - 1 - x; break;  // needs 90 degrees clockwise
        case 7: sx = w - 1 - y; sy = h - 1 - x; break;  // transversed
        default: sx = w - 1 - y; sy = x; break;  // 8: needs 90 counter-clockwise
      }
      out[(size_t)y * ow + x] = in[(size_t)sy * w + sx];
    }
  }
  free(image->pixels);
  image->pixels = (uint8_t *)out;
  image->width = ow;
  image->height = oh;
  return 0;
}

int pk_image_is_opaque(const pk_image *image) {
  if (image->pixels == NULL) return 0;
  const size_t count = (size_t)image->width * (size_t)image->height;
  // No early exit: the AND over every alpha byte vectorises.
  uint8_t all = 255;
  for (size_t i = 0; i < count; i++) all &= image->pixels[i * 4 + 3];
  return all == 255;
}

// floor(numerator / n) by a multiplication: exact for these sizes (the
// error of the double product is far below the 1/n between two results).
static inline uint8_t divide(uint32_t numerator, double inverse) { return (uint8_t)(numerator * inverse + 1e-9); }

// Whether every alpha byte of rows `stride` bytes apart is 255.
static int rows_are_opaque(const uint8_t *in, int32_t w, int32_t h, size_t stride) {
  uint8_t all = 255;
  for (int32_t y = 0; y < h; y++) {
    const uint8_t *row = in + (size_t)y * stride;
    for (int32_t x = 0; x < w; x++) all &= row[(size_t)x * 4 + 3];
  }
  return all == 255;
}

int pk_image_fit(pk_image *image, int32_t max_width, int32_t max_height) {
  if (image->pixels == NULL) return 0;
  pk_image fitted = {0};
  const int status =
    pk_image_fit_rows(image->pixels, image->width, image->height, (size_t)image->width * 4, max_width, max_height, &fitted);
  if (status != 0) return status < 0 ? -1 : 0;
  free(image->pixels);
  *image = fitted;
  return 0;
}

int pk_image_fit_rows(const uint8_t *in, int32_t w, int32_t h, size_t stride, int32_t max_width, int32_t max_height,
  pk_image *fitted) {
  if (in == NULL || max_width <= 0 || max_height <= 0) return 1;
  if (w <= max_width && h <= max_height) return 1;
  // The smaller of the two ratios wins; compare w/max_w with h/max_h.
  int32_t ow, oh;
  if ((int64_t)w * max_height >= (int64_t)h * max_width) {
    ow = max_width;
    oh = (int32_t)(((int64_t)h * max_width + w / 2) / w);
  } else {
    oh = max_height;
    ow = (int32_t)(((int64_t)w * max_height + h / 2) / h);
  }
  if (ow < 1) ow = 1;
  if (oh < 1) oh = 1;
  uint8_t *out = malloc((size_t)ow * (size_t)oh * 4);
  // Each output column's span of input columns, worked out once: divisions
  // for every pixel were a tenth of a cold thumbnail's time.
  int32_t *spans = malloc((size_t)ow * 2 * sizeof *spans);
  if (out == NULL || spans == NULL) {
    free(out);
    free(spans);
    return -1;
  }
  for (int32_t ox = 0; ox < ow; ox++) {
    const int32_t x0 = (int32_t)((int64_t)ox * w / ow);
    const int32_t x1 = (int32_t)((int64_t)(ox + 1) * w / ow);
    spans[ox * 2] = x0;
    spans[ox * 2 + 1] = x1 > x0 ? x1 : x0 + 1;
  }
  // 32-bit sums hold boxes of up to 16 million pixels.
  const int64_t largest_box = ((int64_t)w / ow + 1) * ((int64_t)h / oh + 1);
  // Opaque boxes need no alpha weighting.
  const int opaque = largest_box < (1 << 24) && rows_are_opaque(in, w, h, stride);
  for (int32_t oy = 0; oy < oh; oy++) {
    const int32_t y0 = (int32_t)((int64_t)oy * h / oh);
    int32_t y1 = (int32_t)((int64_t)(oy + 1) * h / oh);
    if (y1 <= y0) y1 = y0 + 1;
    uint32_t last_count = 0;
    double inverse = 1;
    for (int32_t ox = 0; ox < ow; ox++) {
      const int32_t x0 = spans[ox * 2], x1 = spans[ox * 2 + 1];
      uint8_t *q = out + ((size_t)oy * ow + ox) * 4;
      if (opaque) {
        uint32_t r = 0, g = 0, b = 0;
        for (int32_t y = y0; y < y1; y++) {
          const uint8_t *p = in + (size_t)y * stride + (size_t)x0 * 4;
          for (int32_t x = x0; x < x1; x++, p += 4) {
            r += p[0];
            g += p[1];
            b += p[2];
          }
        }
        const uint32_t n = (uint32_t)(y1 - y0) * (uint32_t)(x1 - x0);
        if (n != last_count) {
          last_count = n;
          inverse = 1.0 / n;
        }
        q[0] = divide(r + n / 2, inverse);
        q[1] = divide(g + n / 2, inverse);
        q[2] = divide(b + n / 2, inverse);
        q[3] = 255;
        continue;
      }
      // Colour is weighted by alpha so transparent pixels do not darken edges.
      uint64_t r = 0, g = 0, b = 0, a = 0, n = 0;
      for (int32_t y = y0; y < y1; y++) {
        const uint8_t *p = in + (size_t)y * stride + (size_t)x0 * 4;
        for (int32_t x = x0; x < x1; x++, p += 4) {
          r += (uint64_t)p[0] * p[3];
          g += (uint64_t)p[1] * p[3];
          b += (uint64_t)p[2] * p[3];
          a += p[3];
          n++;
        }
      }
      if (a == 0) {
        q[0] = q[1] = q[2] = q[3] = 0;
      } else {
        q[0] = (uint8_t)((r + a / 2) / a);
        q[1] = (uint8_t)((g + a / 2) / a);
        q[2] = (uint8_t)((b + a / 2) / a);
        q[3] = (uint8_t)((a + n / 2) / n);
      }
    }
  }
  free(spans);
  fitted->pixels = out;
  fitted->width = ow;
  fitted->height = oh;
  return 0;
}
