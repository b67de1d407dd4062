// JPEG through libjpeg-turbo. libjpeg reports fatal errors by calling
// error_exit, which must not return: ours longjmps back into the function
// that called setjmp, here in C, and that function returns an error string.
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <jpeglib.h>
#include <jerror.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "decode_internal.h"
#include "photo_header.h"

typedef struct {
  struct jpeg_error_mgr manager;
  jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
  int reached_end_early;
} jpeg_errors;

static void on_error_exit(j_common_ptr info) {
  jpeg_errors *errors = (jpeg_errors *)info->err;
  info->err->format_message(info, errors->message);
  longjmp(errors->jump, 1);
}

// Warnings and traces must never reach stderr (the terminal).
static void on_output_message(j_common_ptr info) { (void)info; }

static void on_emit_message(j_common_ptr info, int level) {
  if (level >= 0) return;
  jpeg_errors *errors = (jpeg_errors *)info->err;
  if (info->err->msg_code == JWRN_JPEG_EOF) errors->reached_end_early = 1;
  info->err->num_warnings++;
}

// Errors longjmp back to the caller's setjmp; warnings are counted, never
// printed.
static void use_errors(struct jpeg_decompress_struct *info, jpeg_errors *errors) {
  info->err = jpeg_std_error(&errors->manager);
  errors->manager.error_exit = on_error_exit;
  errors->manager.output_message = on_output_message;
  errors->manager.emit_message = on_emit_message;
  errors->reached_end_early = 0;
}

// Turns a CMYK row into RGBA in place. Adobe writes CMYK inverted.
static void cmyk_row_to_rgba(uint8_t *row, JDIMENSION width, int inverted) {
  for (JDIMENSION x = 0; x < width; x++) {
    uint8_t *p = row + (size_t)x * 4;
    unsigned c = p[0], m = p[1], y = p[2], k = p[3];
    if (!inverted) {
      c = 255 - c;
      m = 255 - m;
      y = 255 - y;
      k = 255 - k;
    }
    p[0] = (uint8_t)(c * k / 255);
    p[1] = (uint8_t)(m * k / 255);
    p[2] = (uint8_t)(y * k / 255);
    p[3] = 255;
  }
}

// A progressive JPEG may hold thousands of scans, each a full pass over the
// image: a small crafted file could keep a worker busy for minutes.
static const int max_scans = 500;

static void on_progress(j_common_ptr common) {
  if (!common->is_decompressor || ((j_decompress_ptr)common)->input_scan_number <= max_scans) return;
  jpeg_errors *errors = (jpeg_errors *)common->err;
  snprintf(errors->message, sizeof errors->message, "more than %d progressive scans", max_scans);
  longjmp(errors->jump, 1);
}

// `strict`: any warning (corrupt data libjpeg decoded past) is a failure.
static int decode_pixels(const uint8_t *data, size_t size, pk_decode_options *options, pk_image *out, int strict) {
  struct jpeg_decompress_struct info;
  struct jpeg_progress_mgr progress = {.progress_monitor = on_progress};
  jpeg_errors errors;
  uint8_t *volatile pixels = NULL;
  use_errors(&info, &errors);
  if (setjmp(errors.jump)) {
    jpeg_destroy_decompress(&info);
    free(pixels);
    return pk_fail(options, "corrupt JPEG: %s", errors.message);
  }
  jpeg_create_decompress(&info);
  info.progress = &progress;
  jpeg_mem_src(&info, (unsigned char *)data, (unsigned long)size);
  jpeg_read_header(&info, TRUE);
  // Memory is bounded by what is decoded, not by the header: a 200 MP
  // photo decoded at 1/8 is 3 MP. The limit applies to the scaled output.
  pk_decode_options unlimited = *options;
  unlimited.max_pixels = 0;
  if (pk_check_size(&unlimited, info.image_width, info.image_height) != 0) {
    memcpy(options->error, unlimited.error, sizeof options->error);
    jpeg_destroy_decompress(&info);
    return -1;
  }
  // A progressive JPEG keeps every coefficient of the full image: past this
  // libjpeg fails cleanly (no backing store) instead of taking the memory.
  info.mem->max_memory_to_use = 384L * 1024 * 1024;
  int32_t fw, fh;
  pk_fitted_size(options, (int32_t)info.image_width, (int32_t)info.image_height, &fw, &fh);
  // The largest reduction that still covers the box.
  unsigned denominator = 1;
  for (unsigned d = 8; d > 1; d /= 2) {
    if ((info.image_width + d - 1) / d >= (unsigned)fw && (info.image_height + d - 1) / d >= (unsigned)fh) {
      denominator = d;
      break;
    }
  }
  info.scale_num = 1;
  info.scale_denom = denominator;
  const int64_t scaled_width = (info.image_width + denominator - 1) / denominator;
  const int64_t scaled_height = (info.image_height + denominator - 1) / denominator;
  // What is decoded must be near what is shown: a 200 MP photo at 1/8 is
  // 3 MP, but a small file claiming 60000x60000 would still be 56 MP at 1/8.
  int64_t limit = 4 * (int64_t)fw * fh + 4000000;
  if (options->max_pixels > 0 && limit > options->max_pixels) limit = options->max_pixels;
  if (scaled_width * scaled_height > limit) {
    jpeg_destroy_decompress(&info);
    return pk_fail(
      options, "image too large (%ux%u pixels)", (unsigned)info.image_width, (unsigned)info.image_height);
  }
  // Thumbnails are shrunk further after this; the fast paths lose nothing.
  info.dct_method = JDCT_IFAST;
  info.do_fancy_upsampling = FALSE;
  const int cmyk = info.jpeg_color_space == JCS_CMYK || info.jpeg_color_space == JCS_YCCK;
  info.out_color_space = cmyk ? JCS_CMYK : JCS_EXT_RGBA;
  jpeg_start_decompress(&info);
  const JDIMENSION width = info.output_width, height = info.output_height;
  pixels = pk_alloc_pixels((int32_t)width, (int32_t)height);
  if (pixels == NULL) {
    jpeg_destroy_decompress(&info);
    return pk_fail(options, "out of memory");
  }
  while (info.output_scanline < height) {
    uint8_t *row = pixels + (size_t)info.output_scanline * width * 4;
    JSAMPROW rows[1] = {row};
    if (jpeg_read_scanlines(&info, rows, 1) != 1) break;
    if (cmyk) cmyk_row_to_rgba(row, width, info.saw_Adobe_marker);
  }
  if (errors.reached_end_early) {
    jpeg_destroy_decompress(&info);
    free(pixels);
    return pk_fail(options, "truncated JPEG");
  }
  if (strict && errors.manager.num_warnings > 0) {
    jpeg_destroy_decompress(&info);
    free(pixels);
    return pk_fail(options, "corrupt JPEG data");
  }
  jpeg_finish_decompress(&info);
  jpeg_destroy_decompress(&info);
  out->width = (int32_t)width;
  out->height = (int32_t)height;
  out->pixels = pixels;
  options->scale_denominator = (int32_t)denominator;
  return 0;
}

// Converts from the photo's embedded profile (read from its first bytes),
// for its EXIF thumbnail as for itself.
static void apply_profile(const uint8_t *data, size_t size, pk_image *out) {
  uint8_t *icc = NULL;
  size_t icc_size = 0;
  if (!pk_jpeg_icc(data, size, &icc, &icc_size)) return;
  pk_apply_icc(out, icc, icc_size);
  free(icc);
}

int pk_decode_jpeg_pixels(const uint8_t *data, size_t size, pk_decode_options *options, pk_image *out) {
  return decode_pixels(data, size, options, out, 0);
}

// A JPEG's frame and EXIF thumbnail as the decoders want them, read by the
// one header reader (photo_header.c).
void pk_jpeg_scan_header(const uint8_t *data, size_t size, pk_jpeg_header *header) {
  pk_photo_header read;
  pk_read_photo_header_bytes(data, size, &read);
  memset(header, 0, sizeof *header);
  header->orientation = read.orientation != 0 ? read.orientation : 1;
  if (read.format != 1) return;
  header->complete = read.frame_complete;
  // The frame's size only: the EXIF's may differ, and is not what is decoded.
  if (read.frame_complete) {
    header->width = read.width;
    header->height = read.height;
  }
  header->components = read.components;
  header->scan_offset = (size_t)read.scan_offset;
  header->thumbnail_offset = (size_t)read.thumbnail_offset;
  header->thumbnail_length = (size_t)read.thumbnail_length;
}

// Whether an embedded thumbnail agrees with its photo on what is cheap to
// check. A stale one (the photo cropped, turned by 90 degrees or made
// greyscale by a tool that copied the EXIF block) does not: aspect ratio,
// colour or greyscale. Some cameras also letterbox the thumbnail of a wide
// photo, whose bars would show.
static int thumbnail_agrees(const pk_jpeg_header *header, const pk_jpeg_header *thumb_header) {
  const int64_t a = (int64_t)thumb_header->width * header->height, b = (int64_t)thumb_header->height * header->width;
  if ((a > b ? a - b : b - a) * 100 > (a > b ? a : b) * 3) return 0;
  return (header->components == 1) == (thumb_header->components == 1);
}

// The picture's top sixty-fourth as a grid of mean grey levels, each grid
// less its own mean (an edit of exposure alone does not make a thumbnail
// stale).
// A sixty-fourth: the photo's entropy data up to there is all that is
// decoded, and it is most of a cold thumbnail's time (about 0.4 ms for a
// 12 MP camera JPEG, twice that for a thirty-second). It is two rows of a
// 160x120 thumbnail, one for each row of the grid; the corpus and the
// bench photos turned by jpegtran give the same answers as with a
// sixteenth, and so do thinner ones down to a single row of MCUs.
enum { strip_columns = 8, strip_rows = 2, strip_band = 64 };

// The band's height in rows of a picture this tall: rounded, and at least
// one row of the grid each.
static int32_t band_rows(int64_t height) {
  const int64_t rows = (height + strip_band / 2) / strip_band;
  return (int32_t)(rows < strip_rows ? (height < strip_rows ? height : strip_rows) : rows);
}

// The share of its height each side's band covers: the larger of the two
// sides' own, so that a small photo's two rows (a 640x480 photo is 60 rows
// at 1/8 scale) are compared with the same share of the thumbnail, not
// with a thin slice of it.
static double band_share(int64_t photo_height, int64_t thumbnail_height) {
  const double photo = (double)band_rows(photo_height) / (double)photo_height;
  const double thumbnail = (double)band_rows(thumbnail_height) / (double)thumbnail_height;
  return photo > thumbnail ? photo : thumbnail;
}

// That share of a picture this tall, in whole rows.
static int32_t share_rows(int64_t height, double share) {
  const int64_t rows = (int64_t)(height * share + 0.5);
  const int64_t least = height < strip_rows ? height : strip_rows;
  return (int32_t)(rows < least ? least : rows > height ? height : rows);
}

typedef struct {
  double cells[strip_rows][strip_columns];
} grey_strip;

// Sums of grey and of weight for each cell of the grid, filled a row of
// the band at a time.
typedef struct {
  double sums[strip_rows][strip_columns];
  double weights[strip_rows][strip_columns];
} strip_sums;

// Adds row `y` of a band `rows` tall, given as the sums and counts of its
// pixels in each column of the grid. A row the boundary between the
// grid's rows crosses counts in both, by how much of it lies in each: with
// bands of 3 and 8 rows, both sides' grid rows are then the same halves.
static void add_band_row(
  strip_sums *strip, int32_t y, int32_t rows, const double column_sums[strip_columns],
  const int column_counts[strip_columns]) {
  const double top = (double)y * strip_rows / rows, bottom = (double)(y + 1) * strip_rows / rows;
  for (int r = (int)top; r < strip_rows && r < bottom; r++) {
    const double from = top > r ? top : r, to = bottom < r + 1 ? bottom : r + 1;
    const double weight = to - from;
    if (weight <= 0) continue;
    for (int c = 0; c < strip_columns; c++) {
      strip->sums[r][c] += weight * column_sums[c];
      strip->weights[r][c] += weight * column_counts[c];
    }
  }
}

static void strip_center(grey_strip *strip, const strip_sums *sums) {
  double mean = 0;
  for (int r = 0; r < strip_rows; r++)
    for (int c = 0; c < strip_columns; c++) {
      strip->cells[r][c] = sums->weights[r][c] > 0 ? sums->sums[r][c] / sums->weights[r][c] : 0;
      mean += strip->cells[r][c];
    }
  mean /= strip_rows * strip_columns;
  for (int r = 0; r < strip_rows; r++)
    for (int c = 0; c < strip_columns; c++) strip->cells[r][c] -= mean;
}

// The top band of an RGBA image, `share` of its height, or its bottom
// band turned by 180 degrees (`turned`).
static void rgba_strip(const pk_image *image, double share, int turned, grey_strip *strip) {
  strip_sums sums = {0};
  const int32_t rows = share_rows(image->height, share);
  for (int32_t y = 0; y < rows; y++) {
    const int32_t source_y = turned ? image->height - 1 - y : y;
    const uint8_t *row = image->pixels + (size_t)source_y * image->width * 4;
    double column_sums[strip_columns] = {0};
    int column_counts[strip_columns] = {0};
    for (int32_t x = 0; x < image->width; x++) {
      const uint8_t *p = row + (size_t)(turned ? image->width - 1 - x : x) * 4;
      const int c = (int)((int64_t)x * strip_columns / image->width);
      column_sums[c] += 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2];
      column_counts[c]++;
    }
    add_band_row(&sums, y, rows, column_sums, column_counts);
  }
  strip_center(strip, &sums);
}

// The photo's own top band, decoded grey at 1/8 scale (libjpeg skips
// the colour planes' inverse DCT for grey output) and only as far as that
// band: about 0.4 ms for a 12 MP photo. Its share of the height is what
// band_share gives with a thumbnail `thumbnail_height` tall, and is
// returned in *share. Returns 0; -2 when the bytes end before the band
// does (only the file's first bytes were read: libjpeg would make up the
// rest as flat grey, and a band of it would pass any thumbnail); -1 when
// it cannot be read (CMYK, corrupt): the thumbnail is then not
// second-guessed.
static int photo_strip(
  const uint8_t *data, size_t size, int32_t thumbnail_height, grey_strip *strip, double *share) {
  struct jpeg_decompress_struct info;
  jpeg_errors errors;
  uint8_t *volatile row = NULL;
  use_errors(&info, &errors);
  if (setjmp(errors.jump)) {
    jpeg_destroy_decompress(&info);
    free(row);
    // Bytes that end before the scan even starts (large segments after the
    // frame header) are too few, not unreadable.
    return errors.reached_end_early ? -2 : -1;
  }
  jpeg_create_decompress(&info);
  jpeg_mem_src(&info, (unsigned char *)data, (unsigned long)size);
  jpeg_read_header(&info, TRUE);
  // A progressive photo's top band needs every scan of the whole file
  // (250 ms for an 8 MB one): such a thumbnail is not second-guessed.
  if ((info.jpeg_color_space != JCS_YCbCr && info.jpeg_color_space != JCS_GRAYSCALE) ||
      jpeg_has_multiple_scans(&info)) {
    jpeg_destroy_decompress(&info);
    return -1;
  }
  info.scale_num = 1;
  info.scale_denom = 8;
  info.dct_method = JDCT_IFAST;
  info.out_color_space = JCS_GRAYSCALE;
  jpeg_start_decompress(&info);
  const JDIMENSION width = info.output_width;
  *share = band_share(info.output_height, thumbnail_height);
  const int32_t rows = share_rows(info.output_height, *share);
  row = malloc(width);
  if (row == NULL) {
    jpeg_destroy_decompress(&info);
    return -1;
  }
  strip_sums sums = {0};
  while ((int32_t)info.output_scanline < rows) {
    const int32_t y = (int32_t)info.output_scanline;
    JSAMPROW rows_out[1] = {row};
    if (jpeg_read_scanlines(&info, rows_out, 1) != 1) break;
    if (errors.reached_end_early) {
      jpeg_destroy_decompress(&info);
      free(row);
      return -2;
    }
    double column_sums[strip_columns] = {0};
    int column_counts[strip_columns] = {0};
    for (JDIMENSION x = 0; x < width; x++) {
      const int c = (int)((int64_t)x * strip_columns / width);
      column_sums[c] += row[x];
      column_counts[c]++;
    }
    add_band_row(&sums, y, rows, column_sums, column_counts);
  }
  jpeg_abort_decompress(&info);
  jpeg_destroy_decompress(&info);
  free(row);
  strip_center(strip, &sums);
  return 0;
}

static double strip_distance(const grey_strip *a, const grey_strip *b) {
  double total = 0;
  for (int r = 0; r < strip_rows; r++)
    for (int c = 0; c < strip_columns; c++) total += fabs(a->cells[r][c] - b->cells[r][c]);
  return total / (strip_rows * strip_columns);
}

// Whether a decoded thumbnail (as stored, not yet turned) shows its photo
// the same way up. One turned by 180 degrees against it (an editor turned
// the photo and left the old thumbnail) has the same size and colours:
// only the pictures tell, so the photo's top band is compared with the
// thumbnail's top and with its bottom turned; clearly closer turned means
// stale. -2 when `data` (the file's first bytes) ends before the band.
static int thumbnail_same_way_up(const uint8_t *data, size_t size, const pk_image *thumbnail) {
  grey_strip photo, top, turned;
  double share;
  const int read = photo_strip(data, size, thumbnail->height, &photo, &share);
  if (read != 0) return read == -2 ? -2 : 1;
  rgba_strip(thumbnail, share, 0, &top);
  rgba_strip(thumbnail, share, 1, &turned);
  const double same = strip_distance(&photo, &top), flipped = strip_distance(&photo, &turned);
  return !(same > 8 && flipped < same / 2);
}

int pk_jpeg_head_has_usable_thumbnail(const uint8_t *data, size_t size) {
  pk_jpeg_header header;
  pk_jpeg_scan_header(data, size, &header);
  if (!header.complete || header.thumbnail_length == 0 || header.width <= 0 || header.height <= 0) return 0;
  pk_jpeg_header thumb_header;
  pk_jpeg_scan_header(data + header.thumbnail_offset, header.thumbnail_length, &thumb_header);
  return thumb_header.complete && thumb_header.width > 0 && thumbnail_agrees(&header, &thumb_header);
}

int pk_decode_jpeg_thumbnail(
  const uint8_t *data, size_t size, const pk_jpeg_header *photo, int head, pk_decode_options *options,
  pk_image *out) {
  const pk_jpeg_header header = *photo;
  if (!header.complete || header.thumbnail_length == 0) return 1;
  // The pixel limit is for what gets decoded (checked there), not the header.
  pk_decode_options unlimited = *options;
  unlimited.max_pixels = 0;
  if (pk_check_size(&unlimited, header.width, header.height) != 0) {
    memcpy(options->error, unlimited.error, sizeof options->error);
    return -1;
  }
  options->source_width = header.width;
  options->source_height = header.height;
  pk_decode_options stored = pk_stored_box(options, header.orientation);
  const uint8_t *thumb = data + header.thumbnail_offset;
  pk_jpeg_header thumb_header;
  pk_jpeg_scan_header(thumb, header.thumbnail_length, &thumb_header);
  if (!thumb_header.complete) return 1;
  int32_t fw, fh;
  pk_thumbnail_fitted_size(&stored, header.width, header.height, &fw, &fh);
  const int64_t tw = thumb_header.width, th = thumb_header.height;
  // Bytes that are only the file's head have nothing better to offer.
  if (!options->embedded_only && (tw < fw || th < fh)) return 1;
  if (!thumbnail_agrees(&header, &thumb_header)) return 1;
  // A thumbnail that decodes with warnings (corrupt data) would be drawn as
  // garbage: the photo itself decides instead.
  if (decode_pixels(thumb, header.thumbnail_length, &stored, out, 1) != 0) {
    pk_image_free(out);
    options->error[0] = 0;
    return 1;
  }
  // Only the whole file can be compared (a remote photo's head alone has
  // no picture). A local file's first bytes that end before the band ask
  // for more; a whole file that does is truncated, and its thumbnail is
  // the better picture of the two.
  if (!options->embedded_only) {
    const int same_way_up = thumbnail_same_way_up(data, size, out);
    if (same_way_up == 0 || (same_way_up == -2 && head)) {
      pk_image_free(out);
      return same_way_up == -2 ? 2 : 1;
    }
  }
  options->used_embedded_thumbnail = 1;
  options->scale_denominator = stored.scale_denominator;
  apply_profile(data, size, out);
  return pk_finish_orientation(options, out, header.orientation);
}

int pk_decode_jpeg(const uint8_t *data, size_t size, pk_decode_options *options, pk_image *out) {
  pk_jpeg_header header;
  pk_jpeg_scan_header(data, size, &header);
  int thumbnail = pk_decode_jpeg_thumbnail(data, size, &header, 0, options, out);
  if (thumbnail <= 0) return thumbnail;
  if (options->embedded_only) return pk_fail(options, "no usable embedded thumbnail in the file's first bytes");
  pk_decode_options stored = pk_stored_box(options, header.orientation);
  if (pk_decode_jpeg_pixels(data, size, &stored, out) != 0) {
    memcpy(options->error, stored.error, sizeof options->error);
    return -1;
  }
  options->source_width = header.width ? header.width : out->width;
  options->source_height = header.height ? header.height : out->height;
  options->scale_denominator = stored.scale_denominator;
  apply_profile(data, size, out);
  return pk_finish_orientation(options, out, header.orientation);
}
