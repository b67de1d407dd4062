// A photo's facts for the preview panel: size and format from the file's
// header, and what its EXIF says (camera, exposure, date, place), read with
// libexif from wherever the format keeps it: JPEG APP1, PNG eXIf, the WebP
// EXIF chunk, HEIF's Exif item. Nothing is decoded.
#include <errno.h>
#include <fcntl.h>
#include <libexif/exif-data.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <webp/decode.h>

#include "decode_internal.h"
#include "system_calls.h"
#include "optional_codecs.h"

// Enough for the EXIF block of any JPEG (at most 64 KiB) and the headers.
static const size_t head_bytes = 256 * 1024;

static uint32_t be32(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }
static uint32_t le32(const uint8_t *p) { return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0]; }
static uint32_t le24(const uint8_t *p) { return (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0]; }

static void copy_text(ExifData *exif, ExifIfd ifd, ExifTag tag, char *out, size_t capacity) {
  ExifEntry *entry = exif_content_get_entry(exif->ifd[ifd], tag);
  if (entry == NULL) return;
  char value[256];
  exif_entry_get_value(entry, value, sizeof value);
  // Trailing blanks are common padding in camera strings.
  size_t length = strlen(value);
  while (length > 0 && (value[length - 1] == ' ' || value[length - 1] == '\0')) value[--length] = '\0';
  snprintf(out, capacity, "%s", value);
}

static double rational(ExifData *exif, ExifEntry *entry, unsigned index) {
  if (entry == NULL || index >= entry->components) return 0;
  ExifByteOrder order = exif_data_get_byte_order(exif);
  if (entry->format == EXIF_FORMAT_RATIONAL) {
    ExifRational r = exif_get_rational(entry->data + 8 * index, order);
    return r.denominator == 0 ? 0 : (double)r.numerator / r.denominator;
  }
  if (entry->format == EXIF_FORMAT_SRATIONAL) {
    ExifSRational r = exif_get_srational(entry->data + 8 * index, order);
    return r.denominator == 0 ? 0 : (double)r.numerator / r.denominator;
  }
  return 0;
}

static int integer(ExifData *exif, ExifEntry *entry) {
  if (entry == NULL || entry->components == 0) return 0;
  ExifByteOrder order = exif_data_get_byte_order(exif);
  if (entry->format == EXIF_FORMAT_SHORT) return exif_get_short(entry->data, order);
  if (entry->format == EXIF_FORMAT_LONG) return (int)exif_get_long(entry->data, order);
  return 0;
}

static double degrees(ExifData *exif, ExifTag value_tag, ExifTag ref_tag, char negative, int *ok) {
  ExifContent *gps = exif->ifd[EXIF_IFD_GPS];
  ExifEntry *value = exif_content_get_entry(gps, value_tag);
  ExifEntry *ref = exif_content_get_entry(gps, ref_tag);
  if (value == NULL || value->components < 3) {
    *ok = 0;
    return 0;
  }
  double d = rational(exif, value, 0) + rational(exif, value, 1) / 60 + rational(exif, value, 2) / 3600;
  if (ref != NULL && ref->size > 0 && ref->data[0] == (unsigned char)negative) d = -d;
  return d;
}

// Reads the EXIF fields the panel shows from bytes libexif understands (a
// JPEG's start, or "Exif\0\0" and a TIFF header).
static void read_exif(const uint8_t *data, size_t size, pk_facts *facts) {
  ExifData *exif = exif_data_new_from_data(data, (unsigned)size);
  if (exif == NULL) return;
  facts->has_exif = 1;
  copy_text(exif, EXIF_IFD_EXIF, EXIF_TAG_DATE_TIME_ORIGINAL, facts->date_taken, sizeof facts->date_taken);
  if (facts->date_taken[0] == '\0')
    copy_text(exif, EXIF_IFD_0, EXIF_TAG_DATE_TIME, facts->date_taken, sizeof facts->date_taken);
  copy_text(exif, EXIF_IFD_0, EXIF_TAG_MAKE, facts->make, sizeof facts->make);
  copy_text(exif, EXIF_IFD_0, EXIF_TAG_MODEL, facts->model, sizeof facts->model);
  copy_text(exif, EXIF_IFD_EXIF, (ExifTag)0xA434, facts->lens, sizeof facts->lens);  // LensModel
  facts->f_number = rational(exif, exif_content_get_entry(exif->ifd[EXIF_IFD_EXIF], EXIF_TAG_FNUMBER), 0);
  facts->exposure_seconds =
    rational(exif, exif_content_get_entry(exif->ifd[EXIF_IFD_EXIF], EXIF_TAG_EXPOSURE_TIME), 0);
  facts->iso = integer(exif, exif_content_get_entry(exif->ifd[EXIF_IFD_EXIF], EXIF_TAG_ISO_SPEED_RATINGS));
  facts->focal_length_mm =
    rational(exif, exif_content_get_entry(exif->ifd[EXIF_IFD_EXIF], EXIF_TAG_FOCAL_LENGTH), 0);
  int orientation = integer(exif, exif_content_get_entry(exif->ifd[EXIF_IFD_0], EXIF_TAG_ORIENTATION));
  if (orientation >= 1 && orientation <= 8) facts->orientation = orientation;
  int ok = 1;
  double latitude = degrees(exif, EXIF_TAG_GPS_LATITUDE, EXIF_TAG_GPS_LATITUDE_REF, 'S', &ok);
  double longitude = degrees(exif, EXIF_TAG_GPS_LONGITUDE, EXIF_TAG_GPS_LONGITUDE_REF, 'W', &ok);
  if (ok) {
    facts->has_gps = 1;
    facts->latitude = latitude;
    facts->longitude = longitude;
  }
  exif_data_unref(exif);
}

// A TIFF-headed EXIF blob (PNG eXIf, WebP EXIF, HEIF) as libexif wants it.
static void read_tiff_exif(const uint8_t *tiff, size_t size, pk_facts *facts) {
  if (size < 8 || size > 16 * 1024 * 1024) return;
  uint8_t *prefixed = malloc(size + 6);
  if (prefixed == NULL) return;
  memcpy(prefixed, "Exif\0\0", 6);
  memcpy(prefixed + 6, tiff, size);
  read_exif(prefixed, size + 6, facts);
  free(prefixed);
}

static void png_facts(const uint8_t *d, size_t n, pk_facts *facts) {
  if (n >= 24) {
    facts->width = (int32_t)be32(d + 16);
    facts->height = (int32_t)be32(d + 20);
  }
  for (size_t at = 8; at + 12 <= n;) {
    uint32_t length = be32(d + at);
    if (length > n - at - 12) break;
    if (memcmp(d + at + 4, "eXIf", 4) == 0) {
      read_tiff_exif(d + at + 8, length, facts);
      break;
    }
    if (memcmp(d + at + 4, "IEND", 4) == 0) break;
    at += 12 + (size_t)length;
  }
}

static void webp_facts(const uint8_t *d, size_t n, pk_facts *facts) {
  int w = 0, h = 0;
  if (WebPGetInfo(d, n, &w, &h)) {
    facts->width = w;
    facts->height = h;
  }
  for (size_t at = 12; at + 8 <= n;) {
    uint32_t length = le32(d + at + 4);
    if (length > n - at - 8) break;
    if (memcmp(d + at, "VP8X", 4) == 0 && length >= 10) {
      facts->width = (int32_t)le24(d + at + 8 + 4) + 1;
      facts->height = (int32_t)le24(d + at + 8 + 7) + 1;
    }
    if (memcmp(d + at, "EXIF", 4) == 0) {
      const uint8_t *blob = d + at + 8;
      size_t size = length;
      // Some writers keep the JPEG-style "Exif\0\0" prefix.
      if (size >= 6 && memcmp(blob, "Exif\0\0", 6) == 0) {
        blob += 6;
        size -= 6;
      }
      read_tiff_exif(blob, size, facts);
      break;
    }
    at += 8 + (size_t)length + (length & 1);
  }
}

// A TIFF is its own EXIF container: IFD0 holds the size and orientation,
// and its EXIF IFD the shooting facts (within the bytes read).
static void tiff_facts(const uint8_t *d, size_t n, pk_facts *facts) {
  read_tiff_exif(d, n, facts);
  pk_tiff_size(d, n, &facts->width, &facts->height);
}

static void heif_facts(const char *path, pk_facts *facts) {
  if (!pk_open_heif()) return;
  struct heif_context *context = heif_context_alloc();
  if (context == NULL) return;
  struct heif_image_handle *handle = NULL;
  if (heif_context_read_from_file(context, path, NULL).code == heif_error_Ok &&
      heif_context_get_primary_image_handle(context, &handle).code == heif_error_Ok) {
    facts->width = heif_image_handle_get_width(handle);
    facts->height = heif_image_handle_get_height(handle);
    heif_item_id id;
    if (heif_image_handle_get_list_of_metadata_block_IDs(handle, "Exif", &id, 1) == 1) {
      size_t size = heif_image_handle_get_metadata_size(handle, id);
      uint8_t *blob = size >= 4 && size < 16 * 1024 * 1024 ? malloc(size) : NULL;
      if (blob != NULL && heif_image_handle_get_metadata(handle, id, blob).code == heif_error_Ok) {
        // Four bytes give the offset of the TIFF header after them.
        uint32_t skip = be32(blob);
        if ((size_t)skip + 4 < size) read_tiff_exif(blob + 4 + skip, size - 4 - skip, facts);
      }
      free(blob);
    }
    heif_image_handle_release(handle);
  }
  heif_context_free(context);
}

int pk_read_facts(const char *path, pk_facts *facts) {
  memset(facts, 0, sizeof *facts);
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    snprintf(facts->error, sizeof facts->error, "%s", strerror(errno));
    return -1;
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    snprintf(facts->error, sizeof facts->error, "not a regular file");
    close(fd);
    return -1;
  }
  facts->file_size = (int64_t)st.st_size;
  size_t want = (size_t)st.st_size < head_bytes ? (size_t)st.st_size : head_bytes;
  uint8_t *head = malloc(want > 0 ? want : 1);
  ssize_t read_bytes = head != NULL ? pk_io_read_full(fd, head, want) : 0;
  size_t have = read_bytes > 0 ? (size_t)read_bytes : 0;
  close(fd);
  if (head == NULL) {
    snprintf(facts->error, sizeof facts->error, "out of memory");
    return -1;
  }
  facts->format = pk_sniff_format(head, have);
  switch (facts->format) {
    case PK_FORMAT_JPEG: {
      pk_jpeg_header header;
      pk_jpeg_scan_header(head, have, &header);
      facts->width = header.width;
      facts->height = header.height;
      read_exif(head, have, facts);
      break;
    }
    case PK_FORMAT_PNG: png_facts(head, have, facts); break;
    case PK_FORMAT_WEBP: webp_facts(head, have, facts); break;
    case PK_FORMAT_GIF:
      if (have >= 10) {
        facts->width = head[6] | head[7] << 8;
        facts->height = head[8] | head[9] << 8;
      }
      break;
    case PK_FORMAT_HEIF: heif_facts(path, facts); break;
    case PK_FORMAT_RAW:
      // A TIFF with a maker tag looks like a RAW until LibRaw says no.
      if ((pk_get_raw_reader() == PK_RAW_OFF ||
            (pk_get_raw_reader() == PK_RAW_ISOLATED ? pk_raw_facts_isolated(path, facts) : pk_raw_facts(path, facts)) !=
              0) &&
          have >= 4 && (head[0] == 'I' || head[0] == 'M')) {
        facts->format = PK_FORMAT_TIFF;
        tiff_facts(head, have, facts);
      }
      break;
    case PK_FORMAT_TIFF: tiff_facts(head, have, facts); break;
    default: break;
  }
  // WebP keeps its EXIF chunk after the image data, and PNG may put eXIf
  // after it too: past the head, read the whole file (within a bound).
  const int64_t whole_limit = 64LL * 1024 * 1024;
  if (!facts->has_exif && (facts->format == PK_FORMAT_WEBP || facts->format == PK_FORMAT_PNG) &&
      (size_t)st.st_size > have && st.st_size <= whole_limit) {
    uint8_t *all = realloc(head, (size_t)st.st_size);
    if (all != NULL) {
      head = all;
      int again = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
      struct stat now;
      // The same regular file as before, or nothing.
      if (again >= 0 && fstat(again, &now) == 0 && S_ISREG(now.st_mode) && now.st_ino == st.st_ino &&
          now.st_size == st.st_size) {
        ssize_t got = pk_io_pread_full(again, head, (size_t)st.st_size, 0);
        size_t total = got > 0 ? (size_t)got : 0;
        if (total == (size_t)st.st_size) {
          if (facts->format == PK_FORMAT_WEBP) webp_facts(head, total, facts);
          else png_facts(head, total, facts);
        }
      }
      if (again >= 0) close(again);
    }
  }
  free(head);
  return 0;
}
