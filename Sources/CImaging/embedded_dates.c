// Dates written into a photo by the programs that handle it after the
// camera: XMP (Lightroom, darktable, Photo Mechanic, exports) and IPTC
// (newsroom tools). Both readers only look at the bytes they are given and
// copy at most `capacity` bytes out, so a hostile packet costs a bounded
// scan.
#define _GNU_SOURCE  // memmem
#include "embedded_dates.h"

#include <string.h>

#include "xmp_property.h"

static void copy_text(char *out, size_t capacity, const uint8_t *from, size_t length) {
  if (capacity == 0) return;
  size_t n = 0;
  for (size_t i = 0; i < length && n + 1 < capacity; i++) {
    uint8_t c = from[i];
    if (c < 0x20 || c > 0x7E) break;
    out[n++] = (char)c;
  }
  out[n] = 0;
}

static int is_space(uint8_t c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// Each use of the name is found with memmem, which skips the packet's
// padding and text far faster than a byte-by-byte loop: a photo's packet
// is read by several of these scans during indexing.
int pk_xmp_property(const uint8_t *data, size_t size, const char *name, char *out, size_t capacity) {
  size_t length = strlen(name);
  if (length == 0) return 0;
  for (size_t from = 1; from + length < size;) {
    const uint8_t *hit = memmem(data + from, size - from, name, length);
    if (hit == NULL) return 0;
    size_t at = (size_t)(hit - data);
    from = at + 1;
    // The name must leave a byte after it for what follows.
    if (at + length >= size) return 0;
    // A name starts after '<' or a space: not the end of a longer name, nor
    // a closing tag.
    uint8_t before = data[at - 1];
    if (before != '<' && !is_space(before)) continue;
    size_t i = at + length;
    while (i < size && is_space(data[i])) i++;
    if (i >= size) return 0;
    if (data[i] == '=' && before != '<') {
      i++;
      while (i < size && is_space(data[i])) i++;
      if (i >= size || (data[i] != '"' && data[i] != '\'')) continue;
      uint8_t quote = data[i++];
      size_t end = i;
      while (end < size && data[end] != quote) end++;
      if (end >= size) return 0;
      while (i < end && is_space(data[i])) i++;
      if (i == end) continue;
      copy_text(out, capacity, data + i, end - i);
      return out[0] != 0;
    }
    if (data[i] == '>' && before == '<') {
      i++;
      while (i < size && is_space(data[i])) i++;
      size_t end = i;
      while (end < size && data[end] != '<') end++;
      if (end >= size || end == i) continue;
      copy_text(out, capacity, data + i, end - i);
      return out[0] != 0;
    }
  }
  return 0;
}

int pk_xmp_date(const uint8_t *data, size_t size, char *out, size_t capacity) {
  if (capacity > 0) out[0] = 0;
  if (data == NULL || capacity == 0) return 0;
  static const char *const names[] = {"exif:DateTimeOriginal", "photoshop:DateCreated", "xmp:CreateDate"};
  for (size_t n = 0; n < sizeof names / sizeof names[0]; n++) {
    if (pk_xmp_property(data, size, names[n], out, capacity)) return 1;
  }
  out[0] = 0;
  return 0;
}

int pk_iptc_date(const uint8_t *data, size_t size, char *date, size_t date_capacity, char *time,
                 size_t time_capacity) {
  if (date_capacity > 0) date[0] = 0;
  if (time_capacity > 0) time[0] = 0;
  if (data == NULL) return 0;
  // Each dataset: 0x1C, record, dataset, a 16-bit length (extended lengths,
  // with the high bit set, are for large data and end the walk).
  size_t at = 0;
  while (at + 5 <= size && data[at] == 0x1C) {
    uint8_t record = data[at + 1], dataset = data[at + 2];
    size_t length = (size_t)data[at + 3] << 8 | data[at + 4];
    if (length & 0x8000) break;
    at += 5;
    if (length > size - at) break;
    if (record == 2 && dataset == 55) copy_text(date, date_capacity, data + at, length);
    if (record == 2 && dataset == 60) copy_text(time, time_capacity, data + at, length);
    at += length;
  }
  return date_capacity > 0 && date[0] != 0;
}
