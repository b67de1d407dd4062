// Capture metadata for the library index, which reads it for every file:
// one open, one pread of the head into a stack buffer, and small preads only
// where the format puts what we need further on. Every byte comes through
// fetch(), which checks it is there, so hostile files cost bounded work.
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "embedded_dates.h"
#include "header_source.h"
#include "photo_header.h"
#include "system_calls.h"

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

enum { ifd0, exif_ifd, gps_ifd, apple_ifd, ifd1 };

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

// The TIFF structure at file offset `base`: a TIFF file's own, or an EXIF
// block (an "Exif\0\0" before it is skipped: some writers keep it where
// only the TIFF header belongs). Only IFD0 and the Exif and GPS IFDs it
// points to are read, so no chain of IFDs can loop.
static void read_tiff_as(source *s, uint64_t base, uint64_t limit, int first, pk_photo_header *h) {
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

static void read_tiff(source *s, uint64_t base, uint64_t limit, pk_photo_header *h) {
  read_tiff_as(s, base, limit, ifd0, h);
}

// Minolta's MRW: "\0MRM", the length of its header blocks, then blocks
// (a 4-byte name, a length); "\0TTW" holds a TIFF with the camera's EXIF.
static void read_mrw(source *s, pk_photo_header *h) {
  uint8_t b[8];
  if (!fetch(s, 4, b, 4)) return;
  uint64_t end = 8 + (uint64_t)be32(b), at = 8;
  for (int hop = 0; hop < 64 && at + 8 <= end && fetch(s, at, b, 8); hop++) {
    uint32_t length = be32(b + 4);
    if (memcmp(b, "\0TTW", 4) == 0) {
      cover(s, at + 8, length);
      read_tiff(s, at + 8, length, h);
      break;
    }
    at += 8 + (uint64_t)length;
  }
  h->width = h->height = 0;
  h->scan_offset = h->thumbnail_offset = h->thumbnail_length = 0;
  h->looks_raw = 1;
}

// Canon's CRW (CIFF): heaps of 10-byte records, the table at a heap's end;
// a record whose type is a heap holds another. The date is TimeStamp
// (0x180E): seconds since 1970 on the camera's clock.
// `records` bounds the records visited in all heaps together: nested heaps
// in a crafted file cannot multiply the work.
static void read_ciff_heap(source *s, uint64_t start, uint64_t length, int depth, int *records,
                           pk_photo_header *h) {
  uint8_t r[10];
  if (depth > 4 || length < 6 || !fetch(s, start + length - 4, r, 4)) return;
  uint64_t table = start + le32(r);
  if (!fetch(s, table, r, 2)) return;
  uint32_t count = le16(r);
  if (count > 1024) return;
  for (uint32_t i = 0; i < count; i++) {
    if (--*records < 0 || !fetch(s, table + 2 + i * 10u, r, 10)) return;
    uint32_t tag = le16(r), size = le32(r + 2), offset = le32(r + 6);
    if ((tag & 0xC000) != 0 || (uint64_t)offset + size > length) continue;  // data in the record, or outside
    uint32_t kind = tag & 0x3800;
    if (kind == 0x2800 || kind == 0x3000) {
      read_ciff_heap(s, start + offset, size, depth + 1, records, h);
    } else if ((tag & 0x3FFF) == 0x180E && size >= 4 && fetch(s, start + offset, r, 4)) {
      uint64_t seconds = le32(r);
      // The civil date of a day count (Howard Hinnant's algorithm).
      int64_t days = (int64_t)(seconds / 86400), rest = (int64_t)(seconds % 86400);
      int64_t z = days + 719468, era = z / 146097, doe = z - era * 146097;
      int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
      int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;
      int64_t day = doy - (153 * mp + 2) / 5 + 1, month = mp < 10 ? mp + 3 : mp - 9, year = yoe + era * 400 + (month <= 2);
      char text[20];
      int64_t parts[6] = {year, month, day, rest / 3600, rest / 60 % 60, rest % 60};
      static const char separators[] = "::  ::";
      size_t n = 0;
      for (int k = 0; k < 6; k++) {
        int width = k == 0 ? 4 : 2;
        for (int d = width - 1; d >= 0; d--) {
          int64_t v = parts[k];
          for (int e = 0; e < d; e++) v /= 10;
          text[n++] = (char)('0' + v % 10);
        }
        if (k < 5) text[n++] = separators[k];
      }
      text[n] = 0;
      if (!h->date_original[0]) memcpy(h->date_original, text, sizeof text);
    }
  }
}

static void read_crw(source *s, pk_photo_header *h) {
  uint8_t b[4];
  if (!fetch(s, 2, b, 4)) return;
  uint64_t header = le32(b);
  // The root heap runs from the header's end to the file's end, which only
  // a stat would tell: the window's end stands in when the file is larger.
  struct stat info;
  uint64_t size = s->fd >= 0 && fstat(s->fd, &info) == 0 ? (uint64_t)info.st_size : s->window_size;
  int records = max_hops;
  if (size > header) read_ciff_heap(s, header, size - header, 0, &records, h);
  h->looks_raw = 1;
}

// MARK: Containers

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
  int exif_seen = 0;
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
      read_tiff(s, at + 10, length - 8, h);
    } else if (marker == 0xE1 && length > 2 + sizeof xmp_id && !h->xmp_date[0] &&
               fetch(s, at + 4, m, sizeof xmp_id) && memcmp(m, xmp_id, sizeof xmp_id) == 0) {
      // The packet is read where it lies, once in the window.
      uint64_t packet = at + 4 + sizeof xmp_id, size = length - 2 - sizeof xmp_id;
      cover(s, packet, size);
      if (in_window(s, packet, size))
        pk_xmp_date(s->window + (packet - s->window_at), (size_t)size, h->xmp_date, sizeof h->xmp_date);
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

static void read_jpeg(source *s, pk_photo_header *h) { pk_header_read_jpeg_at(s, 0, h); }

// A Fujifilm RAF: a header, then at the offset it names (big-endian, at
// byte 84) a JPEG preview whose EXIF holds the camera's facts. What the
// preview says of its own pixels (its size, where its data and thumbnail
// start) is not the RAF's and is dropped.
static void read_raf(source *s, pk_photo_header *h) {
  uint8_t d[8];
  if (!fetch(s, 84, d, 8)) return;
  uint32_t offset = be32(d), length = be32(d + 4);
  if (offset < 92 || length < 4) return;
  pk_header_read_jpeg_at(s, offset, h);
  h->width = h->height = 0;
  h->components = h->frame_complete = 0;
  h->scan_offset = h->thumbnail_offset = h->thumbnail_length = 0;
  h->looks_raw = 1;
}

// eXIf belongs before IDAT but may follow it, so the walk goes on to IEND,
// reading only the chunk headers.
static void read_png(source *s, pk_photo_header *h) {
  uint8_t c[16];
  if (fetch(s, 8, c, 16) && memcmp(c + 4, "IHDR", 4) == 0) {
    h->width = dimension(be32(c + 8));
    h->height = dimension(be32(c + 12));
  }
  uint64_t at = 8;
  for (int hop = 0; hop < max_hops && fetch(s, at, c, 8); hop++) {
    uint32_t length = be32(c);
    if (length > INT32_MAX || memcmp(c + 4, "IEND", 4) == 0) return;
    if (memcmp(c + 4, "eXIf", 4) == 0) {
      cover(s, at + 8, length);
      read_tiff(s, at + 8, length, h);
      return;
    }
    at += 12 + (uint64_t)length;
  }
}

// The EXIF chunk usually follows the image data; the RIFF size is not
// trusted (writers get it wrong), the end of the file is.
static void read_webp(source *s, pk_photo_header *h) {
  uint8_t c[10];
  int canvas = 0;
  uint64_t at = 12;
  for (int hop = 0; hop < max_hops && fetch(s, at, c, 8); hop++) {
    uint32_t length = le32(c + 4);
    uint64_t body = at + 8;
    if (memcmp(c, "VP8X", 4) == 0 && length >= 10 && fetch(s, body, c, 10)) {
      canvas = 1;
      h->width = (int32_t)(le32(c + 4) & 0xFFFFFF) + 1;
      h->height = (int32_t)(le32(c + 6) >> 8) + 1;
    } else if (memcmp(c, "VP8 ", 4) == 0 && !canvas && length >= 10 && fetch(s, body, c, 10) && c[3] == 0x9D &&
               c[4] == 0x01 && c[5] == 0x2A) {
      h->width = (int32_t)(le16(c + 6) & 0x3FFF);
      h->height = (int32_t)(le16(c + 8) & 0x3FFF);
    } else if (memcmp(c, "VP8L", 4) == 0 && !canvas && length >= 5 && fetch(s, body, c, 5) && c[0] == 0x2F) {
      uint32_t bits = le32(c + 1);
      h->width = (int32_t)(bits & 0x3FFF) + 1;
      h->height = (int32_t)(bits >> 14 & 0x3FFF) + 1;
    } else if (memcmp(c, "EXIF", 4) == 0) {
      cover(s, body, length);
      read_tiff(s, body, length, h);
      return;
    }
    at = body + length + (length & 1);
  }
}

// MARK: HEIF

static uint32_t find_exif_item(source *s, const box *iinf) {
  uint8_t p[12];
  if (!fetch(s, iinf->body, p, 1)) return 0;
  box infe;
  uint64_t at = iinf->body + (p[0] == 0 ? 6 : 8);
  for (int hop = 0; hop < max_hops && next_box(s, at, iinf->end, &infe); hop++, at = infe.end) {
    // Only versions 2 and 3 have an item type.
    if (memcmp(infe.type, "infe", 4) != 0 || infe.end - infe.body < 12 || !fetch(s, infe.body, p, 12)) continue;
    if (p[0] == 2 && memcmp(p + 8, "Exif", 4) == 0) return be16(p + 4);
    if (p[0] == 3 && infe.end - infe.body >= 14 && fetch(s, infe.body + 4, p, 10) && memcmp(p + 6, "Exif", 4) == 0)
      return be32(p);
  }
  return 0;
}

// Where an item's bytes are, from iloc: the file offsets and lengths of its
// extents (at most max_extents), idat's offset added for construction method
// 1. Returns how many extents there are, 0 when the item cannot be read.
enum { max_extents = 8 };

static int locate_item(source *s, const box *iloc, uint32_t id, uint64_t idat, uint64_t idat_end, uint64_t *starts,
                       uint64_t *lengths) {
  uint64_t at = iloc->body, end = iloc->end, v, sizes, n, item, method = 0, reference, base, count, index;
  if (!field(s, &at, end, 4, &v) || v >> 24 > 2 || !field(s, &at, end, 2, &sizes)) return 0;
  unsigned version = (unsigned)(v >> 24), offset_size = sizes >> 12 & 15, length_size = sizes >> 8 & 15,
           base_size = sizes >> 4 & 15, index_size = version > 0 ? sizes & 15 : 0;
  if (!field(s, &at, end, version < 2 ? 2 : 4, &n)) return 0;
  for (uint64_t i = 0; i < n && i < 65536; i++) {
    if (!field(s, &at, end, version < 2 ? 2 : 4, &item) || (version > 0 && !field(s, &at, end, 2, &method)) ||
        !field(s, &at, end, 2, &reference) || !field(s, &at, end, base_size, &base) || !field(s, &at, end, 2, &count))
      return 0;
    method &= 15;
    if (item != id) {
      at += count * (index_size + offset_size + length_size);
      continue;
    }
    if (reference != 0 || method > 1 || count == 0 || count > max_extents) return 0;
    for (uint64_t e = 0; e < count; e++) {
      uint64_t offset, length;
      if (!field(s, &at, end, index_size, &index) || !field(s, &at, end, offset_size, &offset) ||
          !field(s, &at, end, length_size, &length) || base >= max_offset || offset >= max_offset || length >= max_offset)
        return 0;
      uint64_t from = (method == 1 ? idat : 0) + base + offset, to = method == 1 ? idat_end : max_offset;
      if (from > to || length > to - from) return 0;
      starts[e] = from;
      lengths[e] = length != 0 ? length : to - from;  // 0: all the rest
    }
    return (int)count;
  }
  return 0;
}

// The largest ispe is taken as the primary image's: tiles, thumbnails and
// auxiliary images are smaller, and following pitm and ipma costs more code.
// The primary item's size: its ispe, cropped by its clean aperture (clap)
// where it has one, as encoders pad the coded picture to whole blocks.
// Properties are found through ipma's associations; without them (or no
// primary item) the largest ispe stands.
static void read_sizes(source *s, const box *iprp, uint32_t primary, pk_photo_header *h) {
  enum { max_properties = 64 };
  box ipco, b;
  uint64_t bodies[max_properties + 1] = {0};
  char types[max_properties + 1][4];
  uint8_t p[16];
  // ipco comes first in iprp, the associations (ipma) after it.
  if (!next_box(s, iprp->body, iprp->end, &ipco) || memcmp(ipco.type, "ipco", 4) != 0) return;
  int count = 0;
  for (uint64_t at = ipco.body; count < max_properties && next_box(s, at, ipco.end, &b); at = b.end) {
    count++;
    bodies[count] = b.body;
    memcpy(types[count], b.type, 4);
    if (memcmp(b.type, "ispe", 4) == 0 && fetch(s, b.body, p, 12)) {
      int32_t w = dimension(be32(p + 4)), hh = dimension(be32(p + 8));
      if ((int64_t)w * hh > (int64_t)h->width * h->height) {
        h->width = w;
        h->height = hh;
      }
    }
  }
  uint64_t at = ipco.end, flags, entries, item, associations, association;
  if (!next_box(s, at, iprp->end, &b) || memcmp(b.type, "ipma", 4) != 0 || primary == 0) return;
  at = b.body;
  uint64_t version;
  if (!field(s, &at, b.end, 1, &version) || !field(s, &at, b.end, 3, &flags) || !field(s, &at, b.end, 4, &entries))
    return;
  int32_t width = 0, height = 0, clean_width = 0, clean_height = 0;
  for (uint64_t e = 0; e < entries && e < max_hops; e++) {
    if (!field(s, &at, b.end, version < 1 ? 2 : 4, &item) || !field(s, &at, b.end, 1, &associations)) return;
    for (uint64_t a = 0; a < associations; a++) {
      if (!field(s, &at, b.end, (flags & 1) ? 2 : 1, &association)) return;
      if (item != primary) continue;
      uint64_t index = association & ((flags & 1) ? 0x7FFF : 0x7F);
      if (index == 0 || index > (uint64_t)count) continue;
      if (memcmp(types[index], "ispe", 4) == 0 && fetch(s, bodies[index], p, 12)) {
        width = dimension(be32(p + 4));
        height = dimension(be32(p + 8));
      } else if (memcmp(types[index], "clap", 4) == 0 && fetch(s, bodies[index], p, 16) && be32(p + 4) != 0 &&
                 be32(p + 12) != 0) {
        clean_width = dimension(be32(p) / be32(p + 4));
        clean_height = dimension(be32(p + 8) / be32(p + 12));
      }
    }
  }
  if (width <= 0 || height <= 0) return;
  h->width = width;
  h->height = height;
  if (clean_width > 0 && clean_height > 0 && clean_width <= width && clean_height <= height) {
    h->width = clean_width;
    h->height = clean_height;
  }
}

static void read_heif(source *s, pk_photo_header *h) {
  box meta, b, iloc = {{0}, 0, 0};
  uint64_t at = 0, idat = 0, idat_end = 0;
  int hop = 0, found = 0;
  for (; !found && hop < 64 && next_box(s, at, max_offset, &meta); hop++, at = meta.end)
    found = memcmp(meta.type, "meta", 4) == 0;
  if (!found) return;
  cover(s, meta.body, meta.end - meta.body);
  uint32_t id = 0, primary = 0;
  box iprp = {{0}, 0, 0};
  for (at = meta.body + 4, hop = 0; hop < 64 && next_box(s, at, meta.end, &b); hop++, at = b.end) {
    if (memcmp(b.type, "iinf", 4) == 0) id = find_exif_item(s, &b);
    else if (memcmp(b.type, "iloc", 4) == 0) iloc = b;
    else if (memcmp(b.type, "iprp", 4) == 0) iprp = b;
    else if (memcmp(b.type, "idat", 4) == 0) idat = b.body, idat_end = b.end;
    else if (memcmp(b.type, "pitm", 4) == 0) {
      // A full box: version 0 gives a 16-bit item ID, 1 a 32-bit one.
      uint64_t field_at = b.body, version, item;
      if (field(s, &field_at, b.end, 1, &version) && field(s, &field_at, b.end, 3, &item) &&
          field(s, &field_at, b.end, version == 0 ? 2 : 4, &item))
        primary = (uint32_t)item;
    }
  }
  if (iprp.end != 0) read_sizes(s, &iprp, primary, h);
  uint64_t starts[max_extents], lengths[max_extents];
  int count = id != 0 && iloc.end != 0 ? locate_item(s, &iloc, id, idat, idat_end, starts, lengths) : 0;
  if (count == 0) return;
  uint64_t start = starts[0], length = lengths[0];
  for (int i = 1; i < count && length != 0; i++) length = starts[i] == start + length ? length + lengths[i] : 0;
  if (length == 0) {
    // Extents apart: gathered into the buffer, which then stands for the
    // whole file at an offset nothing else uses.
    size_t gathered = 0;
    if (s->window == s->buffer) s->window_size = 0;  // about to be overwritten
    for (int i = 0; i < count; i++) {
      if (lengths[i] > window_capacity - gathered || !fetch(s, starts[i], s->buffer + gathered, lengths[i])) return;
      gathered += lengths[i];
    }
    s->fd = -1;
    s->window = s->buffer;
    s->window_at = start = max_offset;
    s->window_size = length = gathered;
  }
  uint8_t p[4];
  if (length < 4 || !fetch(s, start, p, 4) || be32(p) > length - 4) return;
  cover(s, start, length);
  read_tiff(s, start + 4 + be32(p), length - 4 - be32(p), h);
}

// Canon's CR3 (an ISOBMFF file of brand "crx "): its metadata sits in
// moov's uuid box 85c0b687-820f-11e0-8111-f4ce462b6a48 as TIFF structures
// whose first IFD is, by box, IFD0 (CMT1), the Exif IFD (CMT2) or the GPS
// IFD (CMT4); the layout LibRaw and ExifTool read.
static void read_cr3(source *s, pk_photo_header *h) {
  static const uint8_t canon[16] = {0x85, 0xc0, 0xb6, 0x87, 0x82, 0x0f, 0x11, 0xe0,
                                    0x81, 0x11, 0xf4, 0xce, 0x46, 0x2b, 0x6a, 0x48};
  box moov, b;
  uint64_t at = 0;
  int hop = 0, found = 0;
  for (; !found && hop < 64 && next_box(s, at, max_offset, &moov); hop++, at = moov.end)
    found = memcmp(moov.type, "moov", 4) == 0;
  if (!found) return;
  for (at = moov.body, hop = 0, found = 0; !found && hop < 64 && next_box(s, at, moov.end, &b); hop++, at = b.end) {
    uint8_t id[16];
    found = memcmp(b.type, "uuid", 4) == 0 && b.end - b.body >= 16 && fetch(s, b.body, id, 16) &&
            memcmp(id, canon, 16) == 0;
  }
  if (!found) return;
  box uuid = b, cmt;
  for (at = uuid.body + 16, hop = 0; hop < 64 && next_box(s, at, uuid.end, &cmt); hop++, at = cmt.end) {
    int kind = memcmp(cmt.type, "CMT1", 4) == 0   ? ifd0
               : memcmp(cmt.type, "CMT2", 4) == 0 ? exif_ifd
               : memcmp(cmt.type, "CMT4", 4) == 0 ? gps_ifd
                                                  : -1;
    if (kind >= 0) read_tiff_as(s, cmt.body, cmt.end - cmt.body, kind, h);
  }
}

// MARK: Entry points

static int is_heif(const uint8_t *p, size_t n) {
  static const char brands[] = "heicheixheimheishevchevxmif1mif2msf1avifavis";
  uint32_t size = be32(p);
  // The major brand, then (past the minor version) the compatible ones.
  for (size_t at = 8; at + 4 <= n && at + 4 <= size; at += at == 8 ? 8 : 4)
    for (size_t i = 0; i + 4 < sizeof brands; i += 4)
      if (memcmp(p + at, brands + i, 4) == 0) return 1;
  return 0;
}

static void read_any(source *s, pk_photo_header *h) {
  const uint8_t *p = s->window;
  size_t n = s->window_size;
  if (n >= 3 && p[0] == 0xFF && p[1] == 0xD8 && p[2] == 0xFF) h->format = 1;
  else if (n >= 8 && memcmp(p, "\x89PNG\r\n\x1a\n", 8) == 0) h->format = 2;
  else if (n >= 12 && memcmp(p, "RIFF", 4) == 0 && memcmp(p + 8, "WEBP", 4) == 0) h->format = 3;
  else if (n >= 8 && (memcmp(p, "II*\0", 4) == 0 || memcmp(p, "MM\0*", 4) == 0 || memcmp(p, "IIRO", 4) == 0 ||
                      memcmp(p, "IIRS", 4) == 0 || memcmp(p, "IIU\0", 4) == 0))
    h->format = 4;
  else if (n >= 12 && memcmp(p + 4, "ftyp", 4) == 0 && is_heif(p, n)) h->format = 5;
  else if (pk_header_is_video(p, n)) h->format = 10;
  else if (n >= 12 && memcmp(p + 4, "ftyp", 4) == 0) h->format = 6;
  else if (n >= 16 && memcmp(p, "FUJIFILMCCD-RAW ", 16) == 0)
    h->format = 7;
  else if (n >= 8 && memcmp(p, "\0MRM", 4) == 0)
    h->format = 8;
  else if (n >= 14 && memcmp(p, "II\x1a\0\0\0HEAPCCDR", 14) == 0)
    h->format = 9;
  else if (n >= 4 && memcmp(p, "FOVb", 4) == 0)
    h->format = 11;
  else if ((n >= 4 && memcmp(p, "GIF8", 4) == 0) || (n >= 2 && memcmp(p, "BM", 2) == 0) ||
           (n >= 2 && p[0] == 0xFF && p[1] == 0x0A) || (n >= 8 && memcmp(p, "\0\0\0\x0cJXL ", 8) == 0))
    h->format = 6;
  // A JPEG's metadata is in its first segments; other formats may have theirs
  // anywhere and get more.
  uint64_t total = h->format == 1 ? 256 * 1024 : 1024 * 1024;
  s->budget = total > s->window_size ? total - s->window_size : 0;
  switch (h->format) {
    case 1: read_jpeg(s, h); break;
    case 2: read_png(s, h); break;
    case 3: read_webp(s, h); break;
    case 4:
      read_tiff(s, 0, UINT32_MAX, h);
      // Canon's CR2 says so right after the header.
      if (n >= 10 && p[8] == 'C' && p[9] == 'R') h->looks_raw = 1;
      break;
    case 5: read_heif(s, h); break;
    // RAWs known to the header reader only: the rest of the picker sees a
    // RAW (format 0 here).
    case 7:
      h->format = 0;
      read_raf(s, h);
      break;
    case 8:
      h->format = 0;
      read_mrw(s, h);
      break;
    case 10:
      if (memcmp(p, "\x1a\x45\xdf\xa3", 4) == 0) pk_header_read_matroska(s, h);
      else if (memcmp(p, "RIFF", 4) == 0) pk_header_read_avi(s, h);
      else pk_header_read_video(s, h);
      break;
    case 11:
      h->format = 0;
      pk_header_read_x3f(s, h);
      break;
    case 9:
      h->format = 0;
      read_crw(s, h);
      break;
    case 6:
      if (n >= 12 && memcmp(p + 4, "ftyp", 4) == 0 && memcmp(p + 8, "crx ", 4) == 0) read_cr3(s, h);
      break;
  }
}

int pk_read_photo_header(const char *path, pk_photo_header *header) {
  memset(header, 0, sizeof *header);
  // O_NONBLOCK: a FIFO put in the library must not hang the index.
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return -1;
  uint8_t buffer[window_capacity];
  source s = {.fd = fd, .buffer = buffer, .window = buffer, .calls = max_calls};
  int64_t got = read_at(&s, buffer, sizeof buffer, 0);
  if (got >= 0) {
    s.window_size = (size_t)got;
    read_any(&s, header);
  }
  close(fd);
  return got >= 0 ? 0 : -1;
}

int pk_read_photo_header_bytes(const uint8_t *data, size_t size, pk_photo_header *header) {
  memset(header, 0, sizeof *header);
  uint8_t buffer[window_capacity];
  // With no data the (unread) buffer stands in, so no pointer is NULL.
  source s = {.fd = -1, .buffer = buffer, .window = data != NULL ? data : buffer, .window_size = data != NULL ? size : 0};
  read_any(&s, header);
  return 0;
}

int pk_read_exif_block(const uint8_t *data, size_t size, pk_photo_header *header) {
  memset(header, 0, sizeof *header);
  uint8_t none[1];
  // No file lies behind the bytes, so the window is never moved.
  source s = {.fd = -1, .buffer = none, .window = data != NULL ? data : none, .window_size = data != NULL ? size : 0};
  read_tiff(&s, 0, size, header);
  return 0;
}
