// HEIC/HEIF and AVIF through libheif, using the embedded thumbnail when it
// covers the box. libheif applies the file's rotation and mirroring itself.
#include <stdlib.h>
#include <string.h>

#include "decode_internal.h"
#include "optional_codecs.h"

// The decoded photo brought down to the box the caller needs, read in
// place: 0 and `out` set, 1 when there is no box or the photo fits it
// (copy it instead), -1 on failure.
static int fit_rgba(const struct heif_image *image, pk_decode_options *options, pk_image *out) {
  if (options->need_width <= 0 && options->need_height <= 0) return 1;
  const int width = heif_image_get_width(image, heif_channel_interleaved);
  const int height = heif_image_get_height(image, heif_channel_interleaved);
  int stride = 0;
  const uint8_t *plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride);
  if (plane == NULL || width <= 0 || height <= 0 || stride < width * 4) return pk_fail(options, "corrupt HEIF: no pixels");
  if (pk_check_size(options, width, height) != 0) return -1;
  const int fitted = pk_image_fit_rows(plane, width, height, (size_t)stride,
    options->need_width > 0 ? options->need_width : width, options->need_height > 0 ? options->need_height : height, out);
  return fitted < 0 ? pk_fail(options, "out of memory") : fitted;
}

static int copy_rgba(const struct heif_image *image, pk_decode_options *options, pk_image *out) {
  const int width = heif_image_get_width(image, heif_channel_interleaved);
  const int height = heif_image_get_height(image, heif_channel_interleaved);
  int stride = 0;
  const uint8_t *plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride);
  if (plane == NULL || width <= 0 || height <= 0) return pk_fail(options, "corrupt HEIF: no pixels");
  // The decoded picture may be larger than its handle said (a damaged or
  // hostile file): the limit holds for what was decoded, before a copy.
  if (pk_check_size(options, width, height) != 0) return -1;
  out->pixels = pk_alloc_pixels(width, height);
  if (out->pixels == NULL) return pk_fail(options, "out of memory");
  for (int y = 0; y < height; y++) memcpy(out->pixels + (size_t)y * width * 4, plane + (size_t)y * stride, (size_t)width * 4);
  out->width = width;
  out->height = height;
  return 0;
}

// The first thumbnail at least as large as the fitted box, or NULL. Sizes
// are after each item's own rotation: a thumbnail written without the
// primary's rotation has the other aspect ratio and would show sideways, so
// one that does not agree with the primary within 3% is not used.
static struct heif_image_handle *usable_thumbnail(struct heif_image_handle *primary, int32_t fw, int32_t fh) {
  const int64_t pw = heif_image_handle_get_width(primary), ph = heif_image_handle_get_height(primary);
  const int count = heif_image_handle_get_number_of_thumbnails(primary);
  if (count <= 0) return NULL;
  heif_item_id ids[8];
  const int n = heif_image_handle_get_list_of_thumbnail_IDs(primary, ids, count < 8 ? count : 8);
  for (int i = 0; i < n; i++) {
    struct heif_image_handle *thumbnail = NULL;
    if (heif_image_handle_get_thumbnail(primary, ids[i], &thumbnail).code != heif_error_Ok) continue;
    const int64_t tw = heif_image_handle_get_width(thumbnail), th = heif_image_handle_get_height(thumbnail);
    const int64_t a = tw * ph, b = th * pw;
    const int agrees = (a > b ? a - b : b - a) * 100 <= (a > b ? a : b) * 3;
    // A thumbnail is never larger than its photo; one that says so is not
    // decoded (the photo's size is what the pixel limit was checked on).
    if (agrees && tw >= fw && th >= fh && tw <= pw && th <= ph) return thumbnail;
    heif_image_handle_release(thumbnail);
  }
  return NULL;
}

int pk_decode_heif(const uint8_t *data, size_t size, pk_decode_options *options, pk_image *out) {
  if (!pk_open_heif()) {
    // Not the file's fault: installing libheif makes it readable.
    options->content_error = 0;
    return pk_fail(options, "HEIC/AVIF needs libheif, not installed (%s)", pk_heif_library.error);
  }
  struct heif_context *context = heif_context_alloc();
  if (context == NULL) return pk_fail(options, "out of memory");
  struct heif_image_handle *primary = NULL, *thumbnail = NULL;
  struct heif_image *image = NULL;
  int status = -1;
  struct heif_error error = heif_context_read_from_memory_without_copy(context, data, size, NULL);
  if (error.code != heif_error_Ok) {
    pk_fail(options, "corrupt HEIF: %s", error.message);
    goto done;
  }
  error = heif_context_get_primary_image_handle(context, &primary);
  if (error.code != heif_error_Ok) {
    pk_fail(options, "corrupt HEIF: %s", error.message);
    goto done;
  }
  const int width = heif_image_handle_get_width(primary), height = heif_image_handle_get_height(primary);
  if (pk_check_size(options, width, height) != 0) goto done;
  options->source_width = width;
  options->source_height = height;
  int32_t fw, fh;
  pk_thumbnail_fitted_size(options, width, height, &fw, &fh);
  thumbnail = usable_thumbnail(primary, fw, fh);
  error = heif_decode_image(thumbnail ? thumbnail : primary, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, NULL);
  if (error.code == heif_error_Unsupported_feature || error.code == heif_error_Unsupported_filetype) {
    // A decoder plugin missing here; installing it later must help.
    options->content_error = 0;
    pk_fail(options, "no HEIC/AVIF decoder installed (%s)", error.message);
    goto done;
  }
  if (error.code != heif_error_Ok) {
    pk_fail(options, "corrupt HEIF: %s", error.message);
    goto done;
  }
  // The whole photo was decoded (no thumbnail covers the box): it is
  // brought down to the box straight from libheif's buffer, so that
  // neither a copy of 12 million pixels (48 MB) nor the colour transform
  // below runs at full size (a stack's signature needs 256 px).
  status = thumbnail == NULL ? fit_rgba(image, options, out) : 1;
  if (status > 0) status = copy_rgba(image, options, out);
  options->used_embedded_thumbnail = thumbnail != NULL && status == 0;
  heif_image_release(image);
  image = NULL;
  // An ICC profile in the primary's colr box (Display P3 on phones); the
  // thumbnail shares it.
  const enum heif_color_profile_type profile_type = heif_image_handle_get_color_profile_type(primary);
  if (status == 0 && (profile_type == heif_color_profile_type_prof || profile_type == heif_color_profile_type_rICC)) {
    const size_t profile_size = heif_image_handle_get_raw_color_profile_size(primary);
    uint8_t *profile = profile_size > 0 && profile_size < 4 * 1024 * 1024 ? malloc(profile_size) : NULL;
    if (profile != NULL && heif_image_handle_get_raw_color_profile(primary, profile).code == heif_error_Ok)
      pk_apply_icc(out, profile, profile_size);
    free(profile);
  }
done:
  if (image) heif_image_release(image);
  if (thumbnail) heif_image_handle_release(thumbnail);
  if (primary) heif_image_handle_release(primary);
  heif_context_free(context);
  return status;
}
