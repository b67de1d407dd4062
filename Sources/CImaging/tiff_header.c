// What a TIFF header's first IFD tells without libtiff: whether the file is
// a camera RAW, and the image's size. Bounded reads only: the bytes may be a
// file's first few kilobytes, or hostile.
#include <string.h>

#include "decode_internal.h"

static uint16_t read16(const uint8_t *p, int little) {
  return little ? (uint16_t)(p[0] | p[1] << 8) : (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t read32(const uint8_t *p, int little) {
  return little ? (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24
                : (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

// Calls `visit` for each entry of IFD0 (tag, type, and the entry's value
// field) until it returns non-zero; returns that value, or 0.
static int each_ifd0_entry(const uint8_t *data, size_t size,
  int (*visit)(uint16_t tag, uint16_t type, const uint8_t *value, int little, void *context), void *context) {
  if (size < 16) return 0;
  const int little = data[0] == 'I';
  const uint32_t ifd = read32(data + 4, little);
  if (ifd < 8 || (size_t)ifd + 2 > size) return 0;
  const uint16_t count = read16(data + ifd, little);
  for (uint32_t i = 0; i < count; i++) {
    const size_t entry = (size_t)ifd + 2 + (size_t)i * 12;
    if (entry + 12 > size) break;
    const int result = visit(read16(data + entry, little), read16(data + entry + 2, little), data + entry + 8,
      little, context);
    if (result != 0) return result;
  }
  return 0;
}

static int camera_raw_tag(uint16_t tag, uint16_t type, const uint8_t *value, int little, void *context) {
  (void)type;
  (void)value;
  (void)little;
  (void)context;
  // DNGVersion; sub-images (NEF, ARW, SRW keep the sensor data in a SubIFD
  // behind a small preview); or a camera maker (PEF). A plain TIFF that has
  // one of these only costs a failed LibRaw open: the caller falls back to
  // libtiff.
  return tag == 50706 || tag == 330 || tag == 271;
}

int pk_tiff_is_camera_raw(const uint8_t *data, size_t size) {
  // Canon's CR2 says so right after the header.
  if (size >= 10 && data[8] == 'C' && data[9] == 'R') return 1;
  return each_ifd0_entry(data, size, camera_raw_tag, NULL);
}

static int size_tag(uint16_t tag, uint16_t type, const uint8_t *value, int little, void *context) {
  int32_t *sides = context;
  if (tag != 256 && tag != 257) return 0;
  // SHORT or LONG, held in the entry itself.
  const uint32_t side = type == 3 ? read16(value, little) : type == 4 ? read32(value, little) : 0;
  sides[tag == 256 ? 0 : 1] = side <= INT32_MAX ? (int32_t)side : 0;
  return 0;
}

void pk_tiff_size(const uint8_t *data, size_t size, int32_t *width, int32_t *height) {
  int32_t sides[2] = {0, 0};
  each_ifd0_entry(data, size, size_tag, sides);
  *width = sides[0];
  *height = sides[1];
}
