// The readers every container shares: a TIFF structure with its EXIF, GPS
// and Apple MakerNote IFDs (TIFF files, camera RAWs, the EXIF blocks of
// JPEG, PNG, WebP, HEIF and CR3), and a JPEG's segments (a JPEG file, the
// preview inside a RAF or an X3F). They sit below photo_header.c and
// x3f_header.c, which both call them, and call neither.
#include <string.h>

#include "embedded_dates.h"
#include "header_source.h"
#include "photo_header.h"
#include "xmp_culling.h"

// MARK: TIFF and EXIF

typedef struct {
  source *s;
  uint64_t base, limit;  // the TIFF header's file offset, and how many bytes of TIFF follow
  int big_endian;
  uint32_t exif_ifd, gps_ifd, ifd0_width, ifd0_height, exif_width, exif_height;
  int has_latitude, has_longitude;
  // IFD0 is a reduced-resolution image (NewSubfileType bit 0), as in most
  // camera RAWs (NEF, DNG, ARW): its size is the preview's, not the photo's.
  int ifd0_reduced;
  char latitude_ref, longitude_ref;
  double latitude, longitude;
  uint32_t maker_note, maker_note_size;  // the MakerNote's TIFF offset and length (0: none)
  uint32_t next_ifd;                     // IFD0's link to IFD1 (0: none)
  uint32_t thumbnail_offset, thumbnail_length;  // IFD1's JPEG thumbnail (0: none)
  int raw_hint;  // IFD0 has DNGVersion, SubIFDs or a maker
  uint32_t xmp_offset, xmp_length;  // IFD0's XMLPacket (0: none)
} tiff;

static uint32_t t16(const tiff *t, const uint8_t *p) { return t->big_endian ? be16(p) : le16(p); }
static uint32_t t32(const tiff *t, const uint8_t *p) { return t->big_endian ? be32(p) : le32(p); }

static int tiff_fetch(tiff *t, uint64_t offset, void *to, size_t length) {
  if (offset > t->limit || length > t->limit - offset) return 0;
  return fetch(t->s, t->base + offset, to, length);
}

// Up to `capacity` bytes of an entry's value; values of four bytes or less
// are inside the entry itself.
static size_t entry_value(tiff *t, const uint8_t *entry, uint8_t *to, size_t capacity) {
  static const uint8_t type_size[14] = {0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8, 4};
  uint32_t type = t16(t, entry + 2);
  if (type >= sizeof type_size) return 0;
  uint64_t size = (uint64_t)t32(t, entry + 4) * type_size[type];
  size_t n = size < capacity ? (size_t)size : capacity;
  if (size <= 4) {
    memcpy(to, entry + 8, n);
    return n;
  }
  return tiff_fetch(t, t32(t, entry + 8), to, n) ? n : 0;
}

static uint32_t entry_number(tiff *t, const uint8_t *entry) {
  uint8_t v[4];
  uint32_t type = t16(t, entry + 2);
  if (type == 3 || type == 8) return entry_value(t, entry, v, 2) == 2 ? t16(t, v) : 0;
  if (type == 4 || type == 9 || type == 13) return entry_value(t, entry, v, 4) == 4 ? t32(t, v) : 0;
  return 0;
}

static void entry_text(tiff *t, const uint8_t *entry, char *out, size_t capacity) {
  uint8_t v[128];
  set_text(out, capacity, v, entry_value(t, entry, v, capacity < sizeof v ? capacity : sizeof v));
}

// Degrees, minutes and seconds (as many of them as stored) in degrees. A
// zero denominator in the degrees is no position (what cameras without a
// fix write); in the minutes or seconds it counts as zero.
static int entry_degrees(tiff *t, const uint8_t *entry, double *out) {
  uint8_t v[24];
  uint32_t type = t16(t, entry + 2);
  if (type != 5 && type != 10) return 0;
  size_t n = entry_value(t, entry, v, sizeof v);
  if (n < 8) return 0;
  double degrees = 0, scale = 1;
  for (size_t i = 0; i + 8 <= n; i += 8, scale *= 60) {
    uint32_t num = t32(t, v + i), den = t32(t, v + i + 4);
    if (den == 0 && i == 0) return 0;
    if (den != 0) degrees += (type == 10 ? signed32(num) / signed32(den) : (double)num / den) / scale;
  }
  *out = degrees;
  return 1;
}

// A RATIONAL or SRATIONAL value; a zero denominator reads as 0.
static double entry_rational(tiff *t, const uint8_t *entry) {
  uint8_t v[8];
  uint32_t type = t16(t, entry + 2);
  if ((type != 5 && type != 10) || entry_value(t, entry, v, 8) != 8) return 0;
  uint32_t num = t32(t, v), den = t32(t, v + 4);
  if (den == 0) return 0;
  return type == 10 ? signed32(num) / signed32(den) : (double)num / den;
}


static void read_ifd(tiff *t, uint32_t offset, int kind, pk_photo_header *h) {
  uint8_t e[12];
  if (offset < 8 || offset >= t->limit) return;
  cover(t->s, t->base + offset, 2);
  if (!tiff_fetch(t, offset, e, 2)) return;
  uint32_t count = t16(t, e);
  if ((uint64_t)offset + 2 + count * 12u <= t->limit) cover(t->s, t->base + offset, 2 + count * 12u);
  for (uint32_t i = 0; i < count; i++) {
    if (!tiff_fetch(t, (uint64_t)offset + 2 + i * 12u, e, 12)) return;
    uint32_t tag = t16(t, e);
    if (kind == ifd0) {
      if (tag == 0x010F) entry_text(t, e, h->make, sizeof h->make);
      else if (tag == 0x0110) entry_text(t, e, h->model, sizeof h->model);
      else if (tag == 0x0100) t->ifd0_width = entry_number(t, e);
      else if (tag == 0x0101) t->ifd0_height = entry_number(t, e);
      else if (tag == 0x00FE) t->ifd0_reduced = (entry_number(t, e) & 1) != 0;
      else if (tag == 0x0112) {
        uint32_t o = entry_number(t, e);
        h->orientation = o >= 1 && o <= 8 ? (int32_t)o : 0;
      } else if (tag == 0x8769) t->exif_ifd = entry_number(t, e);
      else if (tag == 0x8825) t->gps_ifd = entry_number(t, e);
      else if (tag == 0x0132) entry_text(t, e, h->date_time, sizeof h->date_time);
      else if (tag == 0x9003) entry_text(t, e, h->date_original_ifd0, sizeof h->date_original_ifd0);
      else if (tag == 0x02BC && (t16(t, e + 2) == 1 || t16(t, e + 2) == 7) && t32(t, e + 4) > 4) {
        t->xmp_length = t32(t, e + 4);
        t->xmp_offset = t32(t, e + 8);
      }
      if (tag == 0xC612 || tag == 0x014A || tag == 0x010F) t->raw_hint = 1;
    } else if (kind == ifd1) {
      if (tag == 0x0201) t->thumbnail_offset = entry_number(t, e);
      else if (tag == 0x0202) t->thumbnail_length = entry_number(t, e);
    } else if (kind == exif_ifd) {
      if (tag == 0x9003) entry_text(t, e, h->date_original, sizeof h->date_original);
      else if (tag == 0x9291) entry_text(t, e, h->subsec_original, sizeof h->subsec_original);
      else if (tag == 0x9011) entry_text(t, e, h->offset_original, sizeof h->offset_original);
      else if (tag == 0xA434) entry_text(t, e, h->lens, sizeof h->lens);
      else if (tag == 0x829A) h->exposure_seconds = entry_rational(t, e);
      else if (tag == 0x829D) h->f_number = entry_rational(t, e);
      else if (tag == 0x920A) h->focal_length_mm = entry_rational(t, e);
      else if (tag == 0x8827) h->iso = (int32_t)(entry_number(t, e) & 0x7FFFFFFF);
      else if (tag == 0xA002) t->exif_width = entry_number(t, e);
      else if (tag == 0xA003) t->exif_height = entry_number(t, e);
      else if (tag == 0x927C && t16(t, e + 2) == 7) {
        t->maker_note = t32(t, e + 8);
        t->maker_note_size = t32(t, e + 4);
      }
    } else if (kind == apple_ifd) {
      if (tag == 0x000B) entry_text(t, e, h->burst_id, sizeof h->burst_id);
      if (tag == 0x0011) entry_text(t, e, h->content_id, sizeof h->content_id);
    } else if (tag == 1 || tag == 3) {
      char ref[2];
      entry_text(t, e, ref, sizeof ref);
      *(tag == 1 ? &t->latitude_ref : &t->longitude_ref) = ref[0];
    } else if (tag == 2) t->has_latitude = entry_degrees(t, e, &t->latitude);
    else if (tag == 4) t->has_longitude = entry_degrees(t, e, &t->longitude);
  }
  if (kind == ifd0 && tiff_fetch(t, (uint64_t)offset + 2 + count * 12u, e, 4)) t->next_ifd = t32(t, e);
}

// Apple's MakerNote: "Apple iOS", a version, a byte order, then one IFD
// whose offsets count from the MakerNote's start (as exiftool reads it).
static void read_apple_maker_note(const tiff *t, pk_photo_header *h) {
  uint8_t head[14];
  if (t->maker_note_size < 16 || (uint64_t)t->maker_note + t->maker_note_size > t->limit) return;
  tiff note = {.s = t->s, .base = t->base + t->maker_note, .limit = t->maker_note_size};
  if (!tiff_fetch(&note, 0, head, sizeof head) || memcmp(head, "Apple iOS\0", 10) != 0) return;
  if (head[12] == 'M' && head[13] == 'M') note.big_endian = 1;
  else if (head[12] != 'I' || head[13] != 'I') return;
  read_ifd(&note, 14, apple_ifd, h);
}

// IFD0's XMP packet (what Lightroom, darktable and exiftool write into a
// TIFF or DNG), read after the IFDs so that moving the window onto it costs
// them nothing. A packet larger than the window is read in its first 64
// KiB: the scan needs every value it takes to end inside the bytes, so a
// cut packet gives less, never a wrong value.
static void read_tiff_xmp(tiff *t, pk_photo_header *h) {
  uint64_t length = t->xmp_length < window_capacity ? t->xmp_length : window_capacity;
  if (t->xmp_offset > t->limit || length > t->limit - t->xmp_offset) return;
  uint64_t at = t->base + t->xmp_offset;
  cover(t->s, at, length);
  pk_xmp_culling culling;
  if (in_window(t->s, at, length) &&
      pk_xmp_culling_read(t->s->window + (at - t->s->window_at), (size_t)length, &culling))
    h->culling = culling;
}

// The TIFF structure at file offset `base`: a TIFF file's own, or an EXIF
// block (an "Exif\0\0" before it is skipped: some writers keep it where
// only the TIFF header belongs). Only IFD0 and the Exif and GPS IFDs it
// points to are read, so no chain of IFDs can loop.
void pk_header_read_tiff_as(source *s, uint64_t base, uint64_t limit, int first, pk_photo_header *h) {
  tiff t = {.s = s, .base = base, .limit = limit};
  uint8_t head[8];
  if (!tiff_fetch(&t, 0, head, 8)) return;
  if (memcmp(head, "Exif\0\0", 6) == 0) {
    t.base += 6;
    t.limit -= 6;
    if (!tiff_fetch(&t, 0, head, 8)) return;
  }
  if (head[0] == 'M' && head[1] == 'M') t.big_endian = 1;
  else if (head[0] != 'I' || head[1] != 'I') return;
  h->has_exif = 1;
  read_ifd(&t, t32(&t, head + 4), first, h);
  // IFD1 holds a JPEG's EXIF thumbnail; it is used only when all of it is
  // in the bytes at hand.
  if (first == ifd0 && t.next_ifd != 0) {
    read_ifd(&t, t.next_ifd, ifd1, h);
    uint64_t at = t.base + t.thumbnail_offset;
    if (t.thumbnail_offset > 0 && t.thumbnail_length > 0 && (uint64_t)t.thumbnail_offset + t.thumbnail_length <= t.limit &&
        in_window(s, at, t.thumbnail_length)) {
      h->thumbnail_offset = at;
      h->thumbnail_length = t.thumbnail_length;
    }
  }
  h->looks_raw = t.raw_hint;
  if (t.exif_ifd != 0) read_ifd(&t, t.exif_ifd, exif_ifd, h);
  if (t.gps_ifd != 0) read_ifd(&t, t.gps_ifd, gps_ifd, h);
  if (t.maker_note != 0) read_apple_maker_note(&t, h);
  if (t.xmp_length != 0) read_tiff_xmp(&t, h);
  if (h->width == 0 && h->height == 0) {
    int ifd0_size = t.ifd0_width != 0 && t.ifd0_height != 0 && !t.ifd0_reduced;
    h->width = dimension(ifd0_size ? t.ifd0_width : t.exif_width);
    h->height = dimension(ifd0_size ? t.ifd0_height : t.exif_height);
  }
  if (t.has_latitude && t.has_longitude) {
    h->has_gps = 1;
    h->latitude = t.latitude_ref == 'S' ? -t.latitude : t.latitude;
    h->longitude = t.longitude_ref == 'W' ? -t.longitude : t.longitude;
  }
}

void pk_header_read_tiff(source *s, uint64_t base, uint64_t limit, pk_photo_header *h) {
  pk_header_read_tiff_as(s, base, limit, ifd0, h);
}

// Photoshop's image resources (APP13): "8BIM", a 16-bit id, a padded
// Pascal name, a 32-bit size and the padded data; 0x0404 holds IPTC-IIM.
static void read_photoshop_blocks(const uint8_t *p, size_t n, pk_photo_header *h) {
  size_t at = 0;
  for (int hop = 0; hop < max_hops && at + 7 <= n; hop++) {
    if (memcmp(p + at, "8BIM", 4) != 0) return;
    uint32_t id = be16(p + at + 4);
    size_t name = (size_t)p[at + 6] + 1;
    name += name & 1;
    size_t start = at + 6 + name;
    if (start + 4 > n) return;
    uint32_t size = be32(p + start);
    start += 4;
    if (size > n - start) return;
    if (id == 0x0404) {
      pk_iptc_date(p + start, size, h->iptc_date, sizeof h->iptc_date, h->iptc_time, sizeof h->iptc_time);
      return;
    }
    at = start + size + (size & 1);
  }
}

// A JPEG at file offset `base` (0, or the preview inside a RAF): its EXIF,
// XMP and IPTC segments and its frame header.
void pk_header_read_jpeg_at(source *s, uint64_t base, pk_photo_header *h) {
  static const char xmp_id[] = "http://ns.adobe.com/xap/1.0/";  // and its NUL
  static const char photoshop_id[] = "Photoshop 3.0";          // and its NUL
  uint64_t at = base + 2;
  int exif_seen = 0, xmp_seen = 0;
  for (int hop = 0; hop < max_hops; hop++) {
    uint8_t m[32];
    if (!fetch(s, at, m, 4) || m[0] != 0xFF) return;
    uint8_t marker = m[1];
    if (marker == 0xD9) return;  // the image's end
    if (marker == 0xFF || marker == 0x01 || (marker >= 0xD0 && marker <= 0xD8)) {  // a fill byte, or no length
      at += marker == 0xFF ? 1 : 2;
      continue;
    }
    uint32_t length = be16(m + 2);
    if (length < 2) return;
    if (marker == 0xDA) {  // the scan: the decoder starts its data here
      if (h->frame_complete && fetch(s, at + 1 + length, m, 1)) h->scan_offset = at + 2 + length;
      return;
    }
    if (marker == 0xE1 && !exif_seen && length >= 16 && fetch(s, at + 4, m, 6) && memcmp(m, "Exif\0\0", 6) == 0) {
      exif_seen = 1;
      cover(s, at + 10, length - 8);
      pk_header_read_tiff(s, at + 10, length - 8, h);
    } else if (marker == 0xE1 && length > 2 + sizeof xmp_id && !h->xmp_date[0] &&
               fetch(s, at + 4, m, sizeof xmp_id) && memcmp(m, xmp_id, sizeof xmp_id) == 0) {
      // The packet is read where it lies, once in the window. The first one
      // gives the rating and label; later ones are read only while no date
      // was found, as the first always is.
      uint64_t packet = at + 4 + sizeof xmp_id, size = length - 2 - sizeof xmp_id;
      cover(s, packet, size);
      if (in_window(s, packet, size)) {
        const uint8_t *bytes = s->window + (packet - s->window_at);
        pk_xmp_date(bytes, (size_t)size, h->xmp_date, sizeof h->xmp_date);
        pk_xmp_culling culling;
        if (!xmp_seen && pk_xmp_culling_read(bytes, (size_t)size, &culling)) h->culling = culling;
      }
      xmp_seen = 1;
    } else if (marker == 0xED && length > 2 + sizeof photoshop_id && fetch(s, at + 4, m, sizeof photoshop_id) &&
               memcmp(m, photoshop_id, sizeof photoshop_id) == 0) {
      uint64_t blocks = at + 4 + sizeof photoshop_id, size = length - 2 - sizeof photoshop_id;
      cover(s, blocks, size);
      if (in_window(s, blocks, size)) read_photoshop_blocks(s->window + (blocks - s->window_at), (size_t)size, h);
    } else if (marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC) {
      if (length < 8 || !fetch(s, at + 4, m, 6)) return;
      h->height = (int32_t)be16(m + 1);
      h->width = (int32_t)be16(m + 3);
      h->components = m[5];
      h->frame_complete = 1;
    }
    at += 2 + length;
  }
}
