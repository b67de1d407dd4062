// Reads a JPEG's frame size and its EXIF orientation and thumbnail straight
// from the bytes, without libjpeg: cheap enough to do for every file.
#include <string.h>

#include "decode_internal.h"

static uint16_t be16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }

typedef struct {
  const uint8_t *base;  // the TIFF header
  size_t size;
  int big_endian;
} tiff;

static uint16_t t16(const tiff *t, size_t at) {
  const uint8_t *p = t->base + at;
  return t->big_endian ? (uint16_t)(p[0] << 8 | p[1]) : (uint16_t)(p[1] << 8 | p[0]);
}

static uint32_t t32(const tiff *t, size_t at) {
  const uint8_t *p = t->base + at;
  return t->big_endian ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]
                       : (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

// Reads one IFD's entries of interest; returns the next IFD's offset (0: none).
static uint32_t read_ifd(const tiff *t, uint32_t offset, int first, pk_jpeg_header *header, size_t tiff_start) {
  if (offset < 8 || (size_t)offset + 2 > t->size) return 0;
  uint16_t count = t16(t, offset);
  if ((size_t)offset + 2 + (size_t)count * 12 + 4 > t->size) return 0;
  uint32_t thumb_offset = 0, thumb_length = 0;
  for (uint16_t i = 0; i < count; i++) {
    size_t entry = (size_t)offset + 2 + (size_t)i * 12;
    uint16_t tag = t16(t, entry), type = t16(t, entry + 2);
    if (first && tag == 0x0112 && type == 3) {
      uint16_t value = t16(t, entry + 8);
      if (value >= 1 && value <= 8) header->orientation = value;
    } else if (!first && tag == 0x0201) {
      thumb_offset = type == 3 ? t16(t, entry + 8) : t32(t, entry + 8);
    } else if (!first && tag == 0x0202) {
      thumb_length = type == 3 ? t16(t, entry + 8) : t32(t, entry + 8);
    }
  }
  if (!first && thumb_offset > 0 && thumb_length > 0 && (size_t)thumb_offset + thumb_length <= t->size) {
    header->thumbnail_offset = tiff_start + thumb_offset;
    header->thumbnail_length = thumb_length;
  }
  return t32(t, (size_t)offset + 2 + (size_t)count * 12);
}

int pk_exif_orientation(const uint8_t *data, size_t size) {
  if (size >= 6 && memcmp(data, "Exif\0\0", 6) == 0) {
    data += 6;
    size -= 6;
  }
  if (size < 8) return 1;
  tiff t = {data, size, 0};
  if (memcmp(t.base, "MM\0*", 4) == 0)
    t.big_endian = 1;
  else if (memcmp(t.base, "II*\0", 4) != 0)
    return 1;
  pk_jpeg_header header;
  memset(&header, 0, sizeof header);
  header.orientation = 1;
  read_ifd(&t, t32(&t, 4), 1, &header, 0);
  return header.orientation;
}

static void read_exif(const uint8_t *segment, size_t length, size_t segment_start, pk_jpeg_header *header) {
  if (length < 14 || memcmp(segment, "Exif\0\0", 6) != 0) return;
  tiff t = {segment + 6, length - 6, 0};
  if (memcmp(t.base, "MM\0*", 4) == 0)
    t.big_endian = 1;
  else if (memcmp(t.base, "II*\0", 4) != 0)
    return;
  uint32_t ifd1 = read_ifd(&t, t32(&t, 4), 1, header, segment_start + 6);
  if (ifd1 != 0) read_ifd(&t, ifd1, 0, header, segment_start + 6);
}

void pk_jpeg_scan_header(const uint8_t *data, size_t size, pk_jpeg_header *header) {
  memset(header, 0, sizeof *header);
  header->orientation = 1;
  if (size < 4 || data[0] != 0xFF || data[1] != 0xD8) return;
  size_t pos = 2;
  while (pos + 4 <= size) {
    if (data[pos] != 0xFF) return;  // not a marker where one must be
    uint8_t marker = data[pos + 1];
    if (marker == 0xFF) {  // fill byte
      pos++;
      continue;
    }
    if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD8)) {  // no length
      pos += 2;
      continue;
    }
    size_t length = be16(data + pos + 2);
    if (length < 2) return;
    const uint8_t *segment = data + pos + 4;
    size_t available = size - (pos + 4);
    size_t body = length - 2 < available ? length - 2 : available;
    if (marker == 0xE1 && header->thumbnail_length == 0 && !header->complete) {
      if (length - 2 <= available) read_exif(segment, body, pos + 4, header);
    } else if (marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC) {
      if (body < 6) return;
      header->height = be16(segment + 1);
      header->width = be16(segment + 3);
      header->components = segment[5];
      header->complete = 1;
      // On to the scan's start (tables and editors' segments may come
      // between): the EXIF thumbnail's check reads that far and more.
    } else if (marker == 0xDA) {
      if (header->complete && pos + 2 + length <= size) header->scan_offset = pos + 2 + length;
      return;
    } else if (marker == 0xD9) {
      return;
    }
    pos += 2 + length;
  }
}
