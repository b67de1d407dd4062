// The formats' entry points, for decode.c to dispatch to, and what the
// formats share beyond decode_support.h; not part of the public header.
#ifndef CIMAGING_DECODE_INTERNAL_H
#define CIMAGING_DECODE_INTERNAL_H

#include <stdarg.h>
#include <stdio.h>

#include "CImaging.h"
#include "decode_support.h"

int pk_decode_jpeg(const uint8_t *data, size_t size, pk_decode_options *options, pk_image *out);
int pk_decode_png(const uint8_t *data, size_t size, pk_decode_options *options, pk_image *out);
int pk_decode_webp(const uint8_t *data, size_t size, pk_decode_options *options, pk_image *out);
int pk_decode_gif(const uint8_t *data, size_t size, pk_decode_options *options, pk_image *out);
int pk_decode_heif(const uint8_t *data, size_t size, pk_decode_options *options, pk_image *out);
int pk_decode_tiff(const uint8_t *data, size_t size, pk_decode_options *options, pk_image *out);
int pk_decode_jxl(const uint8_t *data, size_t size, pk_decode_options *options, pk_image *out);
int pk_decode_raw(const uint8_t *data, size_t size, pk_decode_options *options, pk_image *out);
int pk_decode_bmp(const uint8_t *data, size_t size, pk_decode_options *options, pk_image *out);

// A camera RAW's size, orientation and shooting facts from LibRaw's
// identification (no pixels are read). Returns 0, or -1 when LibRaw cannot
// read the file.
int pk_raw_facts(const char *path, pk_facts *facts);
int pk_raw_facts_memory(const uint8_t *data, size_t size, pk_facts *facts);

// The same through the helper process (raw_isolation.c).
int pk_decode_raw_isolated(const uint8_t *data, size_t size, pk_decode_options *options, pk_image *out);
int pk_raw_facts_isolated(const char *path, pk_facts *facts);

// A video's frame (video.c) from the file open at `fd`, turned upright by
// `rotation` (0, 90, 180, 270: the track's matrix, as the header reader
// read it); and the same through the helper process, with a deadline.
int pk_decode_video_fd(int fd, int32_t rotation, pk_decode_options *options, pk_image *out);
int pk_decode_video_isolated(int fd, int32_t rotation, pk_decode_options *options, pk_image *out);

// Whether the first bytes are a video's: QuickTime, MP4, Matroska, WebM,
// AVI (video_header.c).
int pk_header_is_video(const uint8_t *p, size_t n);

// Whether a TIFF-headed file looks like a camera RAW (DNG, CR2, NEF, ARW,
// PEF, ...) from its first IFD; such files go to LibRaw before libtiff.
int pk_tiff_is_camera_raw(const uint8_t *data, size_t size);


// What the first bytes of a JPEG tell without decoding: the size in its
// frame header and the EXIF orientation and thumbnail. Any field may stay 0
// when those bytes do not reach it.
typedef struct {
  int32_t width, height;
  int32_t orientation;
  size_t thumbnail_offset;  // from the start of the data
  size_t thumbnail_length;
  int components;  // in the frame header: 1 greyscale, 3 colour, 4 CMYK
  int complete;  // 1 when the frame header (SOF) was reached
  size_t scan_offset;  // where the entropy-coded data starts; 0 when the bytes end before
} pk_jpeg_header;

// The orientation (1-8) in a TIFF-headed EXIF blob (PNG eXIf, WebP EXIF;
// a leading "Exif\0\0" is skipped); 1 when there is none.
int pk_exif_orientation(const uint8_t *data, size_t size);

// Converts RGBA pixels from an embedded ICC profile to sRGB in place; no-op
// for sRGB, non-RGB or unreadable profiles.
void pk_apply_icc(pk_image *image, const uint8_t *icc, size_t size);

// The ICC profile a JPEG's APP2 segments (or a PNG's iCCP chunk) carry,
// malloc-ed into *out; 0 when there is none.
int pk_jpeg_icc(const uint8_t *data, size_t size, uint8_t **out, size_t *out_size);
int pk_png_icc(const uint8_t *data, size_t size, uint8_t **out, size_t *out_size);

void pk_jpeg_scan_header(const uint8_t *data, size_t size, pk_jpeg_header *header);

// Decodes the EXIF thumbnail when it covers the needed box; `header` is
// pk_jpeg_scan_header's walk of `data`, which the caller has made anyway.
// Returns 0 with the image, 1 when there is no usable thumbnail, -1 on an
// error, and 2 when `head` (data is the file's first bytes) and the check
// against the photo needs more of them.
int pk_decode_jpeg_thumbnail(
  const uint8_t *data, size_t size, const pk_jpeg_header *header, int head, pk_decode_options *options,
  pk_image *out);

// Decodes JPEG bytes with libjpeg at the smallest DCT scale that covers the
// needed box; the EXIF orientation is left to the caller.
int pk_decode_jpeg_pixels(const uint8_t *data, size_t size, pk_decode_options *options, pk_image *out);

#endif
