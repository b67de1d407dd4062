// Camera RAW through LibRaw: only the preview the camera embedded (a JPEG,
// sometimes a bitmap), turned upright by the RAW's own orientation. A RAW is
// never developed for a thumbnail: that takes seconds, the preview
// milliseconds. The reentrant library (libraw_r) is used, since workers
// decode in parallel.
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "decode_internal.h"
#include "optional_codecs.h"

// LibRaw's flip (dcraw's 0, 3, 5, 6 and the mirrored 1, 2, 4, 7) as an EXIF
// orientation; LibRaw reads TIFF orientation tags through the inverse map.
static int exif_orientation(int flip) {
  static const int orientations[8] = {1, 2, 4, 3, 5, 8, 6, 7};
  return flip >= 0 && flip < 8 ? orientations[flip] : 1;
}

static void quiet_data_error(void *data, const char *file, const int offset) {
  (void)data;
  (void)file;
  (void)offset;
}

static void quiet_memory_error(void *data, const char *file, const char *where) {
  (void)data;
  (void)file;
  (void)where;
}

static libraw_data_t *quiet_libraw(void);

static int decode_preview(libraw_processed_image_t *preview, int orientation, pk_decode_options *options,
  pk_image *out) {
  pk_decode_options stored = pk_stored_box(options, orientation);
  if (preview->type == LIBRAW_IMAGE_JPEG) {
    // The camera's JPEG carries no orientation of its own that counts: the
    // RAW's does. DCT scaling keeps a 24 MP preview cheap.
    if (pk_decode_jpeg_pixels(preview->data, preview->data_size, &stored, out) != 0) {
      memcpy(options->error, stored.error, sizeof options->error);
      return -1;
    }
  } else if (preview->type == LIBRAW_IMAGE_BITMAP && preview->bits == 8 &&
             (preview->colors == 3 || preview->colors == 1)) {
    const int32_t width = preview->width, height = preview->height;
    if (pk_check_size(options, width, height) != 0) return -1;
    if ((uint64_t)width * (uint64_t)height * preview->colors > preview->data_size)
      return pk_fail(options, "corrupt RAW preview");
    uint8_t *pixels = pk_alloc_pixels(width, height);
    if (pixels == NULL) return pk_fail(options, "out of memory");
    const size_t count = (size_t)width * (size_t)height;
    for (size_t i = 0; i < count; i++) {
      const uint8_t *from = preview->data + i * preview->colors;
      pixels[i * 4] = from[0];
      pixels[i * 4 + 1] = from[preview->colors == 3 ? 1 : 0];
      pixels[i * 4 + 2] = from[preview->colors == 3 ? 2 : 0];
      pixels[i * 4 + 3] = 255;
    }
    out->width = width;
    out->height = height;
    out->pixels = pixels;
    if (pk_image_fit(out, stored.need_width > 0 ? stored.need_width : width,
          stored.need_height > 0 ? stored.need_height : height) != 0)
      return pk_fail(options, "out of memory");
  } else {
    return pk_fail(options, "camera RAW preview in a format this picker cannot read");
  }
  options->used_embedded_thumbnail = 1;
  return pk_finish_orientation(options, out, orientation);
}

int pk_decode_raw(const uint8_t *data, size_t size, pk_decode_options *options, pk_image *out) {
  if (!pk_open_raw()) {
    options->content_error = 0;
    return pk_fail(options, "camera RAW needs LibRaw, not installed (%s)", pk_raw_library.error);
  }
  libraw_data_t *raw = quiet_libraw();
  if (raw == NULL) return pk_fail(options, "out of memory");
  int status = libraw_open_buffer(raw, (void *)data, size);
  if (status != LIBRAW_SUCCESS) {
    libraw_close(raw);
    return pk_fail(options, status == LIBRAW_FILE_UNSUPPORTED ? "not a camera RAW this picker can read"
                                                               : "corrupt camera RAW: %s",
      libraw_strerror(status));
  }
  // The sensor's size, as the facts and the tile's label report it.
  options->source_width = raw->sizes.width;
  options->source_height = raw->sizes.height;
  const int orientation = exif_orientation(raw->sizes.flip);
  status = libraw_unpack_thumb(raw);
  if (status != LIBRAW_SUCCESS) {
    libraw_close(raw);
    if (status == LIBRAW_NO_THUMBNAIL) return pk_fail(options, "camera RAW without an embedded preview");
    return pk_fail(options, "corrupt camera RAW preview: %s", libraw_strerror(status));
  }
  int error = 0;
  libraw_processed_image_t *preview = libraw_dcraw_make_mem_thumb(raw, &error);
  if (preview == NULL) {
    libraw_close(raw);
    return pk_fail(options, "corrupt camera RAW preview: %s", libraw_strerror(error));
  }
  status = decode_preview(preview, orientation, options, out);
  libraw_dcraw_clear_mem(preview);
  libraw_close(raw);
  return status;
}

// LibRaw's reading of a RAW, in the header reader's fields. Its timestamp
// is the camera's clock read as this machine's local time (mktime), so
// localtime gives the clock back.
static void fill_facts(libraw_data_t *raw, pk_facts *facts) {
  pk_photo_header *h = &facts->header;
  h->width = raw->sizes.width;
  h->height = raw->sizes.height;
  h->orientation = exif_orientation(raw->sizes.flip);
  snprintf(h->make, sizeof h->make, "%s", raw->idata.make);
  snprintf(h->model, sizeof h->model, "%s", raw->idata.model);
  snprintf(h->lens, sizeof h->lens, "%s", raw->lens.Lens);
  h->iso = raw->other.iso_speed > 0 && raw->other.iso_speed < 1e7 ? (int32_t)raw->other.iso_speed : 0;
  h->exposure_seconds = raw->other.shutter > 0 ? raw->other.shutter : 0;
  h->f_number = raw->other.aperture > 0 ? raw->other.aperture : 0;
  h->focal_length_mm = raw->other.focal_len > 0 ? raw->other.focal_len : 0;
  if (raw->other.timestamp > 0) {
    struct tm when;
    if (localtime_r(&raw->other.timestamp, &when) != NULL)
      strftime(h->date_original, sizeof h->date_original, "%Y:%m:%d %H:%M:%S", &when);
  }
  h->has_exif = h->make[0] != 0 || h->model[0] != 0;
  h->looks_raw = 1;
}

static libraw_data_t *quiet_libraw(void) {
  if (!pk_open_raw()) return NULL;
  // Without these flags LibRaw's default handlers print to stderr, which is
  // the picker's screen.
  libraw_data_t *raw = libraw_init(LIBRAW_OPIONS_NO_MEMERR_CALLBACK | LIBRAW_OPIONS_NO_DATAERR_CALLBACK);
  if (raw == NULL) return NULL;
  libraw_set_dataerror_handler(raw, quiet_data_error, NULL);
  libraw_set_memerror_handler(raw, quiet_memory_error, NULL);
  return raw;
}

int pk_raw_facts(const char *path, pk_facts *facts) {
  libraw_data_t *raw = quiet_libraw();
  if (raw == NULL) return -1;
  // Identifying reads the maker notes, not the sensor data.
  const int status = libraw_open_file(raw, path);
  if (status == LIBRAW_SUCCESS) fill_facts(raw, facts);
  libraw_close(raw);
  return status == LIBRAW_SUCCESS ? 0 : -1;
}

int pk_raw_facts_memory(const uint8_t *data, size_t size, pk_facts *facts) {
  libraw_data_t *raw = quiet_libraw();
  if (raw == NULL) return -1;
  const int status = libraw_open_buffer(raw, (void *)data, size);
  if (status == LIBRAW_SUCCESS) fill_facts(raw, facts);
  libraw_close(raw);
  return status == LIBRAW_SUCCESS ? 0 : -1;
}
