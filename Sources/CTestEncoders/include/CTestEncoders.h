// Encoders only the tests and benchmarks use, to make images in formats
// the picker reads but never writes; kept out of the shipped picker.
#ifndef CTESTENCODERS_H
#define CTESTENCODERS_H

#include "CImaging.h"

#ifdef __cplusplus
extern "C" {
#endif

// Each returns 0 and a malloc'd buffer (release with pk_buffer_free), or -1.
// A JPEG of one grey component (what a greyscale conversion of a photo
// writes).
int pk_encode_jpeg_greyscale(const pk_image *image, int quality, uint8_t **out, size_t *out_size);
int pk_encode_webp(const pk_image *image, int quality, uint8_t **out, size_t *out_size);
// A GIF of `count` frames of the same size, colours reduced to a 6x6x6 cube.
int pk_encode_gif(const pk_image *frames, int count, uint8_t **out, size_t *out_size);
// HEIC; with thumbnail_size > 0 an embedded thumbnail of that bounding size.
// A negative thumbnail_size makes the thumbnail from the image turned a
// quarter: a thumbnail written without the primary's rotation, as some
// tools do.
int pk_encode_heic(const pk_image *image, int thumbnail_size, uint8_t **out, size_t *out_size);

#ifdef __cplusplus
}
#endif

#endif
