// The helpers every format's decoder uses (decode_support.c); not part of
// the public header.
#ifndef CIMAGING_DECODE_SUPPORT_H
#define CIMAGING_DECODE_SUPPORT_H

#include <stdarg.h>
#include <stdio.h>

#include "CImaging.h"

// Formats an error into options->error and returns -1, so decoders can
// `return pk_fail(options, "...")`.
int pk_fail(pk_decode_options *options, const char *format, ...) __attribute__((format(printf, 2, 3)));

// Refuses sizes that are empty or claim more pixels than allowed.
int pk_check_size(pk_decode_options *options, int64_t width, int64_t height);

// The size a width x height image takes when fitted inside the needed box
// (never larger than the image itself).
void pk_fitted_size(const pk_decode_options *options, int32_t width, int32_t height, int32_t *fw, int32_t *fh);

// The size an embedded thumbnail must reach: the image fitted into the
// enough box when one is given, else into the need box.
void pk_thumbnail_fitted_size(const pk_decode_options *options, int32_t width, int32_t height, int32_t *fw, int32_t *fh);

// Allocates width x height RGBA pixels (zeroed), or NULL.
uint8_t *pk_alloc_pixels(int32_t width, int32_t height);

// The box to decode into for an image stored turned by `orientation`:
// 90-degree orientations swap the needed and enough boxes.
pk_decode_options pk_stored_box(const pk_decode_options *options, int orientation);

// Turns decoded pixels upright and records the orientation applied.
int pk_finish_orientation(pk_decode_options *options, pk_image *out, int orientation);

#endif
