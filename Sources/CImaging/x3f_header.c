// A Sigma X3F's header: the file ends with the offset of its directory
// ("SECd": sections by offset, length and type), whose property list
// ("PROP", "SECp": names and values in UTF-16) holds the time taken
// (TIME: the camera's clock, in seconds since 1970 as if it were UTC),
// the make and the model. Later models keep an EXIF in the full-size JPEG
// of an "IMA2" section instead; that is read when the properties say no
// time. Little-endian throughout. Part of the one header reader.
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>

#include "header_source.h"

enum { max_sections = 64, max_properties = 1024, max_property_chars = 1 << 15 };

// The property list's characters, ASCII only (the names and the values
// read here are), into `out`; "" when the position is out of the list.
static void property_text(source *s, uint64_t chars, uint32_t count, uint32_t at, char *out, size_t capacity) {
  size_t n = 0;
  uint8_t c[2];
  for (; at < count && n + 1 < capacity && fetch(s, chars + (uint64_t)at * 2, c, 2); at++, n++) {
    const uint32_t unit = le16(c);
    if (unit == 0) break;
    out[n] = unit >= 0x20 && unit < 0x7F ? (char)unit : '?';
  }
  out[n] = '\0';
}

// TIME as an EXIF date ("YYYY:MM:DD HH:MM:SS"): the camera's own clock.
static void take_time(const char *value, pk_photo_header *h) {
  long long seconds = 0;
  int digits = 0;
  for (const char *c = value; *c >= '0' && *c <= '9' && digits < 12; c++, digits++) seconds = seconds * 10 + (*c - '0');
  if (digits == 0 || value[digits] != '\0' || seconds == 0) return;
  const time_t clock = (time_t)seconds;
  struct tm parts;
  if (gmtime_r(&clock, &parts) == NULL) return;
  snprintf(h->date_original, sizeof h->date_original, "%04d:%02d:%02d %02d:%02d:%02d", parts.tm_year + 1900,
    parts.tm_mon + 1, parts.tm_mday, parts.tm_hour, parts.tm_min, parts.tm_sec);
}

static void read_properties(source *s, uint64_t at, uint64_t length, pk_photo_header *h) {
  uint8_t p[24];
  if (length < 24 || !fetch(s, at, p, 24) || memcmp(p, "SECp", 4) != 0) return;
  const uint32_t entries = le32(p + 8), format = le32(p + 12), count = le32(p + 20);
  // Format 0 is UTF-16; the list must fit in its section.
  if (format != 0 || entries > max_properties || count > max_property_chars) return;
  const uint64_t chars = at + 24 + (uint64_t)entries * 8;
  if (chars + (uint64_t)count * 2 > at + length) return;
  cover(s, at, 24 + (uint64_t)entries * 8 + (uint64_t)count * 2);
  for (uint32_t i = 0; i < entries; i++) {
    uint8_t e[8];
    char name[16], value[64];
    if (!fetch(s, at + 24 + (uint64_t)i * 8, e, 8)) return;
    property_text(s, chars, count, le32(e), name, sizeof name);
    if (strcmp(name, "TIME") == 0) {
      property_text(s, chars, count, le32(e + 4), value, sizeof value);
      take_time(value, h);
    } else if (strcmp(name, "CAMMANUF") == 0) {
      property_text(s, chars, count, le32(e + 4), h->make, sizeof h->make);
    } else if (strcmp(name, "CAMMODEL") == 0) {
      property_text(s, chars, count, le32(e + 4), h->model, sizeof h->model);
    }
  }
}

// The file's size: from the descriptor, else what is in memory.
static uint64_t file_size(const source *s) {
  struct stat st;
  if (s->fd >= 0) return fstat(s->fd, &st) == 0 && st.st_size > 0 ? (uint64_t)st.st_size : 0;
  return s->window_at + s->window_size;
}

void pk_header_read_x3f(source *s, pk_photo_header *h) {
  uint8_t b[12];
  const uint64_t size = file_size(s);
  if (size < 16 || !fetch(s, size - 4, b, 4)) return;
  const uint64_t directory = le32(b);
  if (directory + 12 > size || !fetch(s, directory, b, 12) || memcmp(b, "SECd", 4) != 0) return;
  const uint32_t sections = le32(b + 8);
  if (sections > max_sections || directory + 12 + (uint64_t)sections * 12 > size) return;
  uint64_t jpeg = 0;
  for (uint32_t i = 0; i < sections; i++) {
    if (!fetch(s, directory + 12 + (uint64_t)i * 12, b, 12)) return;
    const uint64_t at = le32(b), length = le32(b + 4);
    if (at + length > size) continue;
    if (memcmp(b + 8, "PROP", 4) == 0) read_properties(s, at, length, h);
    // A JPEG image section (version 2.0, type 2, format 18) after its
    // 28-byte header: the full-size preview, with EXIF on later models.
    uint8_t image[16];
    if (memcmp(b + 8, "IMA2", 4) == 0 && length > 28 && fetch(s, at, image, 16) &&
        memcmp(image, "SECi\0\0\x02\0\x02\0\0\0\x12\0\0\0", 16) == 0)
      jpeg = at + 28;
  }
  if (h->date_original[0] == 0 && jpeg != 0) {
    char make[sizeof h->make], model[sizeof h->model];
    memcpy(make, h->make, sizeof make);
    memcpy(model, h->model, sizeof model);
    pk_header_read_jpeg_at(s, jpeg, h);
    if (make[0] != 0) memcpy(h->make, make, sizeof make);
    if (model[0] != 0) memcpy(h->model, model, sizeof model);
  }
  // The sizes read are the preview's, not the photo's.
  h->width = h->height = 0;
  h->scan_offset = h->thumbnail_offset = h->thumbnail_length = 0;
  h->looks_raw = 1;
}
